"""`pitstop inventory show` and `pitstop inventory import` (cli/inventory.py)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "inventory.none": (
        "no inventory: pass --inventory FILE or set PITSTOP_INVENTORY (docs/COLLECTORS.md describes the "
        "format; `pitstop inventory import hosts.ini` converts an Ansible inventory)",
        "没有主机清单：请用 --inventory FILE 指定，或设置 PITSTOP_INVENTORY（格式见 docs/COLLECTORS.md；"
        "`pitstop inventory import hosts.ini` 可转换 Ansible 清单）",
    ),
    "inventory.empty": ("the inventory {source} names no hosts", "主机清单 {source} 中没有任何主机"),
    "inventory.warning": ("warning: {text}", "警告：{text}"),
    "inventory.written": (
        "wrote {count} host(s) to {path} (read with {reader})",
        "已把 {count} 台主机写入 {path}（读取方式：{reader}）",
    ),
    "inventory.local": ("runs on this machine (no SSH)", "在本机运行（不经 SSH）"),
    "inventory.local_user": ("the local user ({user})", "本地用户（{user}）"),
    "inventory.direct": ("none (direct)", "无（直接连接）"),
    "inventory.default_keys": ("the agent and ~/.ssh/id_* keys", "代理中的密钥和 ~/.ssh/id_* 密钥"),
    "inventory.field.address": ("address", "地址"),
    "inventory.field.port": ("port", "端口"),
    "inventory.field.user": ("user", "用户"),
    "inventory.field.jump": ("jump chain", "跳板链"),
    "inventory.field.identity": ("identity files", "密钥文件"),
    "inventory.field.known_hosts": ("known_hosts", "known_hosts 文件"),
    "inventory.field.proxy_command": ("ProxyCommand", "ProxyCommand 代理命令"),
    "inventory.field.groups": ("groups", "分组"),
    "inventory.field.expect": ("expected", "预期配置"),
    "inventory.field.note": ("note", "注意"),
    "inventory.origin.inventory": ("inventory", "主机清单"),
    "inventory.origin.defaults": ("inventory defaults", "主机清单默认值"),
    "inventory.origin.default": ("OpenSSH default", "OpenSSH 默认值"),
    "inventory.origin.ssh_config": ("ssh config {where}", "ssh 配置 {where}"),
    "inventory.origin.imported": ("imported from Ansible: {source}", "从 Ansible 导入：{source}"),
}

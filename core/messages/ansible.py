"""What an Ansible inventory import did not carry over (collectors/ansible.py)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "ansible.unparsable_args": (
        "dropped ssh args that cannot be parsed ({args!r}) on {count} host(s): {hosts}",
        "丢弃了无法解析的 ssh 参数（{args!r}），涉及 {count} 台主机：{hosts}",
    ),
    "ansible.ssh_option": (
        "dropped ssh option {option} on {count} host(s): {hosts}",
        "丢弃了 ssh 选项 {option}，涉及 {count} 台主机：{hosts}",
    ),
    "ansible.proxy_converted": (
        "converted ProxyCommand {command!r} to jump {jump} on {count} host(s): {hosts}",
        "已把 ProxyCommand {command!r} 转换为跳板机 {jump}，涉及 {count} 台主机：{hosts}",
    ),
    "ansible.proxy_dropped": (
        "dropped ProxyCommand {command!r}: Pitstop would connect directly where Ansible goes through it; "
        "set `jump:` for these hosts ({count} host(s): {hosts})",
        "丢弃了 ProxyCommand {command!r}：Ansible 经它连接，而 Pitstop 会直接连接；"
        "请为这些主机设置 `jump:`（{count} 台主机：{hosts}）",
    ),
    "ansible.template": (
        "dropped {name} (a Jinja template, not evaluated) on {count} host(s): {hosts}",
        "丢弃了 {name}（Jinja 模板，不做求值），涉及 {count} 台主机：{hosts}",
    ),
    "ansible.variable": (
        "dropped variable {name} (not a connection setting) on {count} host(s): {hosts}",
        "丢弃了变量 {name}（不是连接设置），涉及 {count} 台主机：{hosts}",
    ),
    "ansible.connection": (
        "dropped ansible_connection={connection} (Pitstop connects over SSH) on {count} host(s): {hosts}",
        "丢弃了 ansible_connection={connection}（Pitstop 通过 SSH 连接），涉及 {count} 台主机：{hosts}",
    ),
}

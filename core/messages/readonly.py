"""The read-only policy's refusal reasons (collectors/policy.py): why a command or script is refused."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "readonly.empty": ("empty command", "命令为空"),
    "readonly.python": (
        "python3 runs only Pitstop's fixed probe scripts",
        "`python3` 只能运行 Pitstop 自带的固定探测脚本",
    ),
    "readonly.sh": ("sh runs only -c SCRIPT", "`sh` 只能以 `-c SCRIPT` 的形式运行"),
    "readonly.state_tool": ("{tool} changes system state", "`{tool}` 会改变系统状态"),
    "readonly.not_allowed": (
        "{tool!r} is not on the read-only allow-list",
        "{tool!r} 不在只读允许清单上",
    ),
    "readonly.unsafe_arg": (
        "argument {arg!r} contains shell metacharacters or is empty",
        "参数 {arg!r} 含有 shell 元字符，或为空",
    ),
    "readonly.denied": ("{command}: {reason}", "`{command}`：{reason}"),
    "readonly.shape": (
        "{tool} {args!r}: arguments not in the allowed read-only forms",
        "`{tool}` {args!r}：参数不符合允许的只读写法",
    ),
    # DENIED: what a well-known state-changing flag would do
    "readonly.denied.ring_buffer": (
        "clears or reconfigures the kernel ring buffer",
        "会清空或重新配置内核环形缓冲区",
    ),
    "readonly.denied.gpu": ("changes GPU state", "会改变 GPU 状态"),
    "readonly.denied.bmc": ("changes BMC or chassis state", "会改变 BMC 或机箱状态"),
    "readonly.denied.pci": ("writes PCI configuration space", "会写入 PCI 配置空间"),
    "readonly.denied.raid": ("changes RAID controller state", "会改变 RAID 控制器状态"),
    "readonly.denied.nic": ("changes NIC settings", "会改变网卡设置"),
    "readonly.denied.ib_counters": ("resets InfiniBand counters", "会清零 InfiniBand 计数器"),
    "readonly.denied.systemctl": (
        "only status, show and is-active are read-only",
        "只有 `status`、`show` 和 `is-active` 是只读的",
    ),
    "readonly.denied.journal": ("changes the journal", "会改变系统日志（journal）"),
    "readonly.denied.cpu_power": ("changes CPU power settings", "会改变 CPU 电源设置"),
    "readonly.denied.network": ("changes network state", "会改变网络状态"),
    "readonly.denied.slurm": (
        "changes Slurm state (only `show` is read-only)",
        "会改变 Slurm 状态（只有 `show` 是只读的）",
    ),
    # framing scripts (sh -c SCRIPT)
    "readonly.script.grammar": (
        "script is not in the framing grammar (unterminated command block)",
        "脚本不符合分帧格式（有未结束的命令块）",
    ),
    "readonly.script.header": (
        "script does not start with the fixed header",
        "脚本没有以固定的开头部分起始",
    ),
    "readonly.script.line": (
        "script line not in the framing grammar: {line!r}",
        "脚本中这一行不符合分帧格式：{line!r}",
    ),
    "readonly.script.no_timeout": (
        "script command not wrapped in the remote timeout: {text!r}",
        "脚本中的命令没有套上远端 `timeout`：{text!r}",
    ),
    "readonly.script.unparsable": (
        "script command does not parse: {text!r}",
        "脚本中的命令无法解析：{text!r}",
    ),
    "readonly.script.quoting": (
        "script command is not canonically quoted: {text!r}",
        "脚本中的命令没有按规范方式加引号：{text!r}",
    ),
    "readonly.script.sudo": (
        "sudo is not allowed for {command!r}",
        "不允许对 {command!r} 使用 `sudo`",
    ),
}

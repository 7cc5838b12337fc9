"""Hardening: the Pitstop host as a target, unusable databases and files, bad arguments, Slack at start."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "security.authz.self_host": (
        "you may not run checks on {hosts}{where}: {own} is the Pitstop host itself, which a policy rule "
        "must name explicitly (hosts: [{first}]), never through `*` or a group",
        "你不能{where}对 {hosts} 运行检查：{own} 是 Pitstop 所在的主机，策略规则必须显式写出它"
        "（hosts: [{first}]），`*` 或分组不会匹配它",
    ),
    "security.interaction.tampered": (
        "this form's data was altered or was not issued by Pitstop for you, so nothing was done; "
        "open the form again from the bot's message",
        "此表单的数据被篡改，或不是 Pitstop 为你签发的，因此未执行任何操作；请从机器人的消息中重新打开表单",
    ),
    "security.interaction.other_channel": (
        "incident #{incident} belongs to another conversation, so it cannot be changed from here; "
        "nothing was done",
        "事件 #{incident} 属于另一个会话，不能在这里修改；未执行任何操作",
    ),
    "security.interaction.no_incident": (
        "there is no incident #{incident}; ask again to get a fresh answer",
        "不存在事件 #{incident}；请重新提问以获得新的回答",
    ),
    "security.interaction.stale_button": (
        "that button no longer works; ask again to get a fresh answer",
        "该按钮已失效；请重新提问以获得新的回答",
    ),
    "security.interaction.already_resolved": (
        "incident #{incident} was already resolved as {cause!r}; that resolution stands and nothing "
        "was changed",
        "事件 #{incident} 已被解决为 {cause!r}；该结论保持不变，未做任何修改",
    ),
    "security.interaction.unknown_cause": (
        "there is no cause {cause!r} in the knowledge base; pick one from the list",
        "知识库中没有原因 {cause!r}；请从列表中选择",
    ),
    "security.db.missing_dir": (
        "the directory {directory} does not exist; create it (mode 0700) or point PITSTOP_DB at a file in an "
        "existing directory",
        "目录 {directory} 不存在；请先创建它（权限 0700），或把 PITSTOP_DB 指向已有目录中的文件",
    ),
    "security.db.not_a_dir": (
        "{directory} is not a directory; point PITSTOP_DB at a file in a directory",
        "{directory} 不是目录；请把 PITSTOP_DB 指向某个目录中的文件",
    ),
    "security.db.is_dir": (
        "{path} is a directory, not a database file; point PITSTOP_DB at a file",
        "{path} 是目录而不是数据库文件；请把 PITSTOP_DB 指向一个文件",
    ),
    "security.db.shared_dir": (
        "the database's directory {directory} (mode {mode}, uid {uid}) is another user's or open to other "
        "users' writes: they could read and change the database through its -wal and -shm files; point "
        "PITSTOP_DB at a file in a directory only you may write (mode 0700)",
        "数据库所在目录 {directory}（权限 {mode}，uid {uid}）属于其他用户或允许其他用户写入："
        "他们可借 -wal 和 -shm 文件读取并篡改数据库；"
        "请把 PITSTOP_DB 指向只有你能写入的目录（权限 0700）中的文件",
    ),
    "security.db.not_mine": (
        "{path} belongs to another user (uid {uid}); Pitstop uses only a database and -wal/-shm files of "
        "its own user; point PITSTOP_DB at another file",
        "{path} 属于其他用户（uid {uid}）；Pitstop 只使用属于当前用户的数据库及其 -wal/-shm 文件；"
        "请把 PITSTOP_DB 指向其他文件",
    ),
    "security.db.not_sqlite": (
        "{path} is not a SQLite database; point PITSTOP_DB at another file",
        "{path} 不是 SQLite 数据库；请把 PITSTOP_DB 指向其他文件",
    ),
    "security.db.unreadable": (
        "cannot use the database {path}: {reason}; point PITSTOP_DB at another file",
        "无法使用数据库 {path}：{reason}；请把 PITSTOP_DB 指向其他文件",
    ),
    "security.file.is_dir": (
        "the {what} {path} is a directory, not a file",
        "{what} {path} 是目录而不是文件",
    ),
    "security.file.unreadable": (
        "cannot read the {what} {path}: {reason}",
        "无法读取{what} {path}：{reason}",
    ),
    "security.file.binary": (
        "the {what} {path} is not UTF-8 text (a binary file?)",
        "{what} {path} 不是 UTF-8 文本（是二进制文件吗？）",
    ),
    "security.file.too_large": (
        "the {what} {path} is larger than {limit} MiB; this is not such a file",
        "{what} {path} 超过 {limit} MiB，不是这类文件",
    ),
    "security.file.too_deep": (
        "the {what} {path} nests lists or mappings more than {depth} levels deep",
        "{what} {path} 的列表或映射嵌套超过 {depth} 层",
    ),
    "security.file.not_yaml": (
        "the {what} {path} is not valid YAML: {reason}",
        "{what} {path} 不是有效的 YAML：{reason}",
    ),
    "security.file.unsafe": (
        "the {what} {path} is not used: it must belong to you or root and group or others may not write"
        " it (mode {mode}, owner uid {uid}); run chmod go-w {path}",
        "不使用{what} {path}：它必须属于你或 root，且组或其他用户不能写（权限 {mode}，属主 uid {uid}）；"
        "请运行 chmod go-w {path}",
    ),
    "security.file.shape": (
        "the {what} {path} has the wrong shape: {reason}",
        "{what} {path} 的结构不对：{reason}",
    ),
    "security.arg.since_range": (
        "--since {value}: that is further back than any date; use a duration like 7d or an ISO date",
        "--since {value}：超出了可表示的日期范围；请用 7d 这样的时长或 ISO 日期",
    ),
    "security.arg.number": ("{value!r} is not a number", "{value!r} 不是数字"),
    "security.arg.at_least": ("must be at least {low}, not {value}", "必须不小于 {low}，而不是 {value}"),
    "security.arg.at_most": ("must be at most {high}, not {value}", "必须不大于 {high}，而不是 {value}"),
    "security.what.inventory": ("inventory", "主机清单"),
    "security.what.policy": ("authorization policy", "授权策略"),
    "security.what.taxonomy": ("taxonomy", "分类表"),
    "security.what.eval_cases": ("evaluation case file", "评测用例文件"),
    "security.what.ansible": ("Ansible inventory", "Ansible 主机清单"),
    "security.what.stdin": ("standard input", "标准输入"),
    "security.inventory.mapping": (
        "{source}: `{field}` must be a mapping of names to settings, not {shape}",
        "{source}：`{field}` 必须是“名称: 设置”的映射，而不是{shape}",
    ),
    "security.inventory.timeout": (
        "{source}: `connect_timeout` must be a number of seconds (above 0, at most 3600), not {value}",
        "{source}：`connect_timeout` 必须是秒数（大于 0，至多 3600），而不是 {value}",
    ),
    "security.shape.list": ("a list", "列表"),
    "security.shape.string": ("a string", "字符串"),
    "security.shape.number": ("a number", "数字"),
    "security.shape.other": ("another kind of value", "其他类型的值"),
    "security.arg.channels": (
        "--channels: {item!r} is not MODE or CHANNEL=MODE (MODE: auto or mention), e.g. 'mention,C0123=auto'",
        "--channels：{item!r} 不是 MODE 或 CHANNEL=MODE（MODE 为 `auto` 或 `mention`），如 'mention,C1=auto'",
    ),
    "security.slack.unreachable": (
        "cannot reach Slack at {url}: {reason}; check the network, a proxy, or SLACK_API_URL",
        "无法连接 Slack（{url}）：{reason}；请检查网络、代理或 SLACK_API_URL",
    ),
    "security.slack.refused": (
        "Slack refused the bot token ({error}); check SLACK_BOT_TOKEN (an xoxb- token of this workspace)",
        "Slack 拒绝了机器人令牌（{error}）；请检查 SLACK_BOT_TOKEN（本工作区的 xoxb- 令牌）",
    ),
    "security.feedback.unknown_cause": (
        "there is no cause {cause!r} in the knowledge base, so no feedback was recorded",
        "知识库中没有原因 {cause!r}，因此未记录反馈",
    ),
}

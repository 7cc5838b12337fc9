"""Error sentences: what went wrong and what to do, for every layer's `PitstopError`s."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # a paste that cannot be searched (kb/preprocess.py, kb/service.py)
    "errors.paste.binary": (
        "That looks like binary data, not text: paste the error message or log lines.",
        "这看起来是二进制数据，不是文本：请粘贴报错信息或日志行。",
    ),
    "errors.paste.not_utf8": (
        "That text is not valid UTF-8: paste the error message or log lines as text.",
        "这段文本不是有效的 UTF-8：请以文本形式粘贴报错信息或日志行。",
    ),
    "errors.paste.empty": (
        "Nothing to search for: paste an error message or a few log lines.",
        "没有可搜索的内容：请粘贴报错信息或几行日志。",
    ),
    "errors.paste.too_big": (
        "That paste is {mb} MB; paste the error lines or the last part of the log (at most {limit} MB).",
        "粘贴内容有 {mb} MB；请只粘贴报错行或日志的最后一部分（最多 {limit} MB）。",
    ),
    "errors.paste.no_words": (
        "Nothing to search for: the paste has no words or codes in it.",
        "没有可搜索的内容：粘贴内容里没有文字或错误码。",
    ),
    "errors.paste.not_text": ("Paste the error as text.", "请以文本形式粘贴报错。"),
    "errors.kb.unknown_mode": (
        "unknown retrieval mode '{mode}' (one of {modes})",
        "未知的检索模式 '{mode}'（可选：{modes}）",
    ),
    "errors.kb.no_pitfall": ("no pitfall '{id}'", "知识库里没有 '{id}'"),
    # diagnosing (app/diagnose.py, collectors/hostlist.py, collectors/inventory.py, collectors/jobs)
    "errors.diagnose.no_hosts": (
        "Name the hosts to check, e.g. `/diagnose gpu-node-3 nccl unknown error`.",
        "请指定要检查的主机，例如 `/diagnose gpu-node-3 nccl unknown error`。",
    ),
    "errors.hostlist.brackets": ("unbalanced brackets in host list {expr}", "主机列表 {expr} 的括号不配对"),
    "errors.hostlist.bad_range": (
        "bad range {range} in host list term {term}",
        "主机列表项 {term} 里的范围 {range} 有误",
    ),
    "errors.hostlist.backwards": (
        "range {range} in {term} runs backwards",
        "{term} 里的范围 {range} 是倒序的",
    ),
    "errors.hostlist.not_a_name": (
        "not a host name or host-list expression: {term}",
        "不是主机名或主机列表表达式：{term}",
    ),
    "errors.hostlist.empty": ("empty host list", "主机列表为空"),
    "errors.hostlist.too_many": (
        "host list {expr} expands to {n} hosts; the limit is {limit}",
        "主机列表 {expr} 展开后有 {n} 台主机；上限是 {limit} 台",
    ),
    "errors.inventory.kind.host": ("host", "主机"),
    "errors.inventory.kind.group": ("group", "主机组"),
    "errors.inventory.unknown": ("unknown {kind} {name} in the inventory", "清单里没有{kind} {name}"),
    "errors.inventory.unknown_more": (
        "unknown {kind} {name} (and {n} more: {more}) in the inventory",
        "清单里没有{kind} {name}（另有 {n} 个：{more}）",
    ),
    "errors.inventory.did_you_mean": (
        "{unknown}; did you mean {close}?",
        "{unknown}；你是不是想找 {close}？",
    ),
    "errors.job.unknown_kind": (
        "unknown job kind {kind}; known: {known}",
        "未知的作业类型 {kind}；支持：{known}",
    ),
    # incidents and drafts (incidents/store.py, incidents/drafts.py, app/flows.py)
    "errors.incident.needs_thread": ("an incident needs a channel and a thread", "事件需要频道和消息串"),
    "errors.incident.none": ("no incident #{id}", "没有事件 #{id}"),
    "errors.incident.closed": (
        "incident #{id} is already closed ({status})",
        "事件 #{id} 已经关闭（{status}）",
    ),
    "errors.incident.status.open": ("open", "未关闭"),
    "errors.incident.status.resolved": ("resolved", "已解决"),
    "errors.incident.status.no_action": ("no action", "无需处理"),
    "errors.incident.status.expired": ("expired", "已过期"),
    "errors.incident.bad_status": (
        "status must be one of {statuses}, not {status}",
        "状态必须是 {statuses} 之一，不能是 {status}",
    ),
    "errors.incident.one_cause": (
        "give either an existing cause or a new one, not both and not neither",
        "请给出一个已有原因或一个新原因，二者选一",
    ),
    "errors.incident.new_cause_fields": (
        "a new cause needs at least a title and what was wrong",
        "新原因至少需要标题和问题描述",
    ),
    "errors.incident.already_resolved": (
        "incident #{id} was already resolved by {user} at {at} as '{cause}'; that resolution stands",
        "事件 #{id} 已由 {user} 于 {at} 解决为 '{cause}'；以那次解决为准",
    ),
    "errors.incident.needs_kb": ("learning needs the knowledge base", "学习需要知识库"),
    "errors.drafts.none": (
        "no draft '{id}' (see `pitstop kb drafts`)",
        "没有草稿 '{id}'（见 `pitstop kb drafts`）",
    ),
    "errors.drafts.decided": (
        "draft '{id}' was already {status} by {user}",
        "草稿 '{id}' 已被 {user} {status}",
    ),
    "errors.drafts.status.approved": ("approved", "批准"),
    "errors.drafts.status.rejected": ("rejected", "拒绝"),
    "errors.drafts.merge_only": (
        "'{id}' is a merge proposal into '{target}': approve or reject it",
        "'{id}' 是合并到 '{target}' 的提议：只能批准或拒绝",
    ),
    "errors.drafts.not_editable": ("these fields cannot be edited: {fields}", "这些字段不能编辑：{fields}"),
    "errors.drafts.invalid_edited": (
        "draft '{id}' cannot be edited yet:\n  {problems}\nfix it with `pitstop kb edit {id} --FIELD VALUE`",
        "草稿 '{id}' 现在还不能编辑：\n  {problems}\n请用 `pitstop kb edit {id} --FIELD VALUE` 修正",
    ),
    "errors.drafts.invalid_approved": (
        "draft '{id}' cannot be approved yet:\n  {problems}\n"
        "fix it with `pitstop kb edit {id} --FIELD VALUE`",
        "草稿 '{id}' 现在还不能批准：\n  {problems}\n请用 `pitstop kb edit {id} --FIELD VALUE` 修正",
    ),
    "errors.drafts.file_exists": (
        "{path} already exists with other content; move it away, then approve again",
        "{path} 已存在且内容不同；请先移走它再批准",
    ),
    # running commands on a host (collectors/runner.py)
    "errors.runner.no_connector": ("{host}: no SSH connector configured", "{host}：没有配置 SSH 连接器"),
    # authorization refusals (app/authz.py)
    "errors.authz.no_policy": (
        "No authorization policy is configured, so Pitstop runs no checks on hosts yet (knowledge-base"
        " answers stay open to everyone). An admin can allow checks in a policy file named by"
        " `PITSTOP_POLICY`; see docs/SECURITY.md.",
        "还没有配置授权策略，所以 Pitstop 暂不在主机上运行检查（知识库回答对所有人开放）。"
        "管理员可以在 `PITSTOP_POLICY` 指定的策略文件里允许检查；见 docs/SECURITY.md。",
    ),
    "errors.authz.no_hosts": ("the request names no hosts", "请求里没有指定主机"),
    "errors.authz.too_many": (
        "the request expands to {n} hosts; at most {limit} may be checked at once, so name a smaller group"
        " or range",
        "请求展开后有 {n} 台主机；一次最多检查 {limit} 台，请指定更小的组或范围",
    ),
    "errors.authz.denied_channel": (
        "you may not run checks on {hosts} from {channel}; an admin can grant it in the authorization policy",
        "你不能在 {channel} 里对 {hosts} 运行检查；管理员可以在授权策略里授予权限",
    ),
    "errors.authz.denied_origin": (
        "you may not run checks on {hosts} from the {origin}; an admin can grant it in the authorization"
        " policy",
        "你不能从 {origin} 对 {hosts} 运行检查；管理员可以在授权策略里授予权限",
    ),
    "errors.authz.rate_limit": (
        "rate limit: {burst} request(s) in a row, then {per_minute} a minute; try again in {wait} s",
        "频率限制：连续 {burst} 次请求，之后每分钟 {per_minute} 次；请 {wait} 秒后再试",
    ),
}

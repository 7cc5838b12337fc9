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
    "errors.drafts.superseded": (
        "a curated entry is now called '{id}': this draft can only be rejected (that keeps the entry)",
        "现在已有名为 '{id}' 的正式条目：这份草稿只能拒绝（拒绝不影响该条目）",
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
    # files Pitstop is told to read (collectors/ansible.py, cli/kbargs.py, incidents/exchange.py...)
    "errors.file.unreadable": ("cannot read {path}: {reason}", "无法读取 {path}：{reason}"),
    "errors.file.missing": ("cannot read {path}: no such file", "无法读取 {path}：文件不存在"),
    "errors.os.missing": ("no such file or directory", "文件或目录不存在"),
    "errors.os.denied": ("permission denied", "没有权限"),
    "errors.os.directory": ("it is a directory", "这是一个目录"),
    "errors.os.not_dir": ("a part of the path is not a directory", "路径中有一段不是目录"),
    # importing an Ansible inventory (collectors/ansible.py)
    "errors.ansible.range_shape": (
        "Ansible host range {pattern!r} must be [begin:end] or [begin:end:step]",
        "Ansible 主机范围 {pattern!r} 的格式应为 `[begin:end]` 或 `[begin:end:step]`",
    ),
    "errors.ansible.range_step": (
        "Ansible host range {pattern!r}: step {step!r} is not a number",
        "Ansible 主机范围 {pattern!r}：步长 {step!r} 不是数字",
    ),
    "errors.ansible.range_end": (
        "Ansible host range {pattern!r} needs an end and a positive step",
        "Ansible 主机范围 {pattern!r} 缺少结束值，或步长不是正数",
    ),
    "errors.ansible.range_width": (
        "Ansible host range {pattern!r}: begin and end must have the same length",
        "Ansible 主机范围 {pattern!r}：起始值和结束值的位数必须一致",
    ),
    "errors.ansible.range_order": (
        "Ansible host range {pattern!r} must have begin <= end",
        "Ansible 主机范围 {pattern!r} 的起始值必须 <= 结束值",
    ),
    "errors.ansible.range_kind": (
        "Ansible host range {pattern!r} is neither numeric nor one letter",
        "Ansible 主机范围 {pattern!r} 既不是数字范围，也不是单个字母范围",
    ),
    "errors.ansible.group_cycle": (
        "Ansible group {name!r} is its own descendant ({path})",
        "Ansible 主机组 {name!r} 成了自己的子组（{path}），形成了循环",
    ),
    "errors.ansible.vars_unreadable": (
        "cannot read Ansible variables file {path}: {error}",
        "无法读取 Ansible 变量文件 {path}：{error}",
    ),
    "errors.ansible.vars_not_mapping": (
        "Ansible variables file {path} is not a mapping",
        "Ansible 变量文件 {path} 的内容不是键值映射",
    ),
    "errors.ansible.bad_section": (
        "{where}:{line}: invalid section {section!r}",
        "{where}:{line}：段头 {section!r} 写法不对",
    ),
    "errors.ansible.section_suffix": (
        "{where}:{line}: section suffix must be :vars or :children",
        "{where}:{line}：段名后缀只能是 `:vars` 或 `:children`",
    ),
    "errors.ansible.unsplittable": ("{where}:{line}: {error}", "{where}:{line}：这一行解析不了（{error}）"),
    "errors.ansible.vars_line": (
        "{where}:{line}: expected key=value in [{section}:vars]",
        "{where}:{line}：`[{section}:vars]` 段里每行应为 `key=value`",
    ),
    "errors.ansible.host_line": (
        "{where}:{line}: expected key=value after the host, got {token!r}",
        "{where}:{line}：主机名后面应为 `key=value`，这里却是 {token!r}",
    ),
    "errors.ansible.vars_undefined": (
        "{where}:{line}: section [{group}:vars] is for an undefined group",
        "{where}:{line}：段 `[{group}:vars]` 对应的主机组没有定义",
    ),
    "errors.ansible.group_shape": (
        "{where}: group {name!r} must be a mapping of hosts, vars and children",
        "{where}：主机组 {name!r} 应为包含 `hosts`、`vars`、`children` 的映射",
    ),
    "errors.ansible.group_hosts": (
        "{where}: hosts of group {name!r} must be a mapping",
        "{where}：主机组 {name!r} 的 `hosts` 应为映射",
    ),
    "errors.ansible.host_vars": (
        "{where}: variables of host {pattern!r} must be a mapping",
        "{where}：主机 {pattern!r} 的变量应为映射",
    ),
    "errors.ansible.group_vars": (
        "{where}: vars of group {name!r} must be a mapping",
        "{where}：主机组 {name!r} 的 `vars` 应为映射",
    ),
    "errors.ansible.group_children": (
        "{where}: children of group {name!r} must be a mapping",
        "{where}：主机组 {name!r} 的 `children` 应为映射",
    ),
    "errors.ansible.directory": (
        "{path} is a directory: importing an inventory directory needs ansible-core",
        "{path} 是个目录：导入清单目录需要先安装 ansible-core",
    ),
    "errors.ansible.timeout": (
        "ansible-inventory did not finish within {seconds}s on {path}",
        "ansible-inventory 处理 {path} 超过 {seconds} 秒仍未结束",
    ),
    "errors.ansible.failed": (
        "ansible-inventory could not read {path}: {stderr}",
        "ansible-inventory 读取 {path} 失败：{stderr}",
    ),
    "errors.ansible.not_inventory": (
        "ansible-inventory printed something other than an inventory for {path}",
        "ansible-inventory 对 {path} 的输出不是清单",
    ),
    "errors.ansible.not_installed": (
        "ansible-inventory is not installed (pip install ansible-core)",
        "没有安装 ansible-inventory（pip install ansible-core）",
    ),
    # reading an inventory file (collectors/inventory.py)
    "errors.inventory.slurm_shape": (
        "{source}: `slurm` takes {{controller: HOST, timezone: ZONE}}",
        "{source}：`slurm` 的写法是 `{{controller: HOST, timezone: ZONE}}`",
    ),
    "errors.inventory.slurm_zone": (
        "{source}: slurm.timezone {zone!r} is not a known time zone",
        "{source}：slurm.timezone {zone!r} 不是已知的时区",
    ),
    "errors.inventory.jump_many": (
        "host {host}: more than {limit} jump hosts in {jump!r}",
        "主机 {host}：{jump!r} 里的跳板机超过 {limit} 个",
    ),
    "errors.inventory.jump_bad": (
        "host {host}: bad jump host {hop!r}",
        "主机 {host}：跳板机 {hop!r} 写法有误",
    ),
    "errors.inventory.jump_loop": (
        "host {host}: the jump chain loops or is longer than {limit} hops",
        "主机 {host}：跳板链出现循环，或超过 {limit} 跳",
    ),
    "errors.inventory.hosts_shape": (
        "inventory: `hosts` must be a mapping of name -> settings or a list with `name`",
        "清单：`hosts` 应为 主机名 -> 配置 的映射，或每项带 `name` 的列表",
    ),
    "errors.inventory.ssh_config_shape": (
        "{source}: `ssh_config` is a file, a list of files, or false",
        "{source}：`ssh_config` 应为一个文件、文件列表，或 `false`",
    ),
    "errors.inventory.not_mapping": (
        "{source}: an inventory is a YAML mapping with a `hosts` key",
        "{source}：清单应为带 `hosts` 键的 YAML 映射",
    ),
    "errors.inventory.group_fields": (
        "{source}: group {group!r}: unknown field(s) {fields}",
        "{source}：主机组 {group!r} 里有未知字段 {fields}",
    ),
    "errors.inventory.host_fields": (
        "{source}: host {host!r}: unknown field(s) {fields}",
        "{source}：主机 {host!r} 里有未知字段 {fields}",
    ),
    "errors.inventory.range_address": (
        "{source}: host range {range!r} cannot share one address; list the hosts",
        "{source}：主机范围 {range!r} 不能共用一个地址；请逐台列出主机",
    ),
    "errors.inventory.group_unknown_host": (
        "{source}: group {group!r} lists unknown host {host!r}",
        "{source}：主机组 {group!r} 里列了不存在的主机 {host!r}",
    ),
    "errors.inventory.sudo": (
        "{source}: host {host!r}: sudo is not allowed for {collectors} (only catalog collectors declared"
        " sudo_allowed)",
        "{source}：主机 {host!r}：{collectors} 不允许用 sudo（只有目录里声明了 `sudo_allowed` 的采集项可以）",
    ),
    "errors.inventory.port_nan": (
        "host {host!r}: port {port!r} is not a number",
        "主机 {host!r}：端口 {port!r} 不是数字",
    ),
    "errors.inventory.port_range": (
        "host {host!r}: port {port} is out of range",
        "主机 {host!r}：端口 {port} 超出范围",
    ),
    "errors.inventory.transport": (
        "host {host!r}: transport must be ssh or local, not {transport!r}",
        "主机 {host!r}：`transport` 只能是 `ssh` 或 `local`，不能是 {transport!r}",
    ),
    # the shape of a YAML file (lab/scenario.py, app/authz.py)
    "errors.shape.not_yaml": ("{path}: not valid YAML ({error})", "{path}：不是有效的 YAML（{error}）"),
    "errors.shape.mapping": ("{where}: expected a mapping", "{where}：这里应为映射（键: 值）"),
    "errors.shape.names": ("{where}: expected a list of names", "{where}：这里应为名称列表"),
    # lab scenarios (lab/scenario.py)
    "errors.scenario.collector": ("{where}: unknown collector {name!r}", "{where}：未知的采集项 {name!r}"),
    "errors.scenario.fault": (
        "{where}: unknown fault {kind!r} (known: {known})",
        "{where}：未知的故障类型 {kind!r}（支持：{known}）",
    ),
    "errors.scenario.count": (
        "{where}: {kind}.{collector} must be a non-negative integer",
        "{where}：`{kind}.{collector}` 必须是非负整数",
    ),
    "errors.scenario.base_loop": (
        "{path}: 'base' chain loops back to itself",
        "{path}：'base' 链绕回了自己，形成循环",
    ),
    "errors.scenario.fields": (
        "{path}/host.yaml: unknown field(s) {fields}",
        "{path}/host.yaml：有未知字段 {fields}",
    ),
    "errors.scenario.no_base": (
        "{path}/host.yaml: no base scenario {base!r} beside it or shipped",
        "{path}/host.yaml：同级目录和内置场景里都找不到基础场景 {base!r}",
    ),
    "errors.scenario.absent": (
        "{path}/host.yaml: absent names unknown file {name!r}",
        "{path}/host.yaml：`absent` 里写了未知文件 {name!r}",
    ),
    "errors.scenario.file": (
        "{path}: unknown scenario file (see docs/LAB.md for the names)",
        "{path}：未知的场景文件（文件名见 docs/LAB.md）",
    ),
    "errors.scenario.not_dir": ("scenario {path} is not a directory", "场景 {path} 不是目录"),
    "errors.scenario.both": (
        "{path}/expect.yaml: both confirmed and ruled out: {ids}",
        "{path}/expect.yaml：{ids} 同时出现在 `confirmed` 和 `ruled_out` 里",
    ),
    "errors.scenario.duplicates": (
        "scenario names must be unique (they are host names): {names}",
        "场景名不能重复（它们会用作主机名）：{names}",
    ),
    # the authorization policy file (app/authz.py)
    "errors.policy.where_rule": ("{source}: rule {index}", "{source}：第 {index} 条规则"),
    "errors.policy.where_group": ("{source}: group {group}", "{source}：分组 {group}"),
    "errors.policy.not_mapping": (
        "{source}: a policy is a YAML mapping with `rules`",
        "{source}：策略文件应为带 `rules` 的 YAML 映射",
    ),
    "errors.policy.not_numbers": (
        "{source}: max_hosts and rate_limit values must be numbers",
        "{source}：`max_hosts` 和 `rate_limit` 的值必须是数字",
    ),
    "errors.policy.bad_numbers": (
        "{source}: max_hosts must be at least 1 and rate_limit values at least 0",
        "{source}：`max_hosts` 至少为 1，`rate_limit` 的值至少为 0",
    ),
    "errors.policy.top_shape": (
        "{source}: `groups` is a mapping of group -> members and `rules` a list of rules",
        "{source}：`groups` 应为 组 -> 成员 的映射，`rules` 应为规则列表",
    ),
    "errors.policy.unknown_keys": (
        "{where}: unknown key(s) {keys} (allowed: {allowed})",
        "{where}：有未知的键 {keys}（允许的键：{allowed}）",
    ),
    "errors.policy.names": (
        "{where}: expected a name or a list of names",
        "{where}：这里应为一个名称或名称列表",
    ),
    "errors.policy.origins": (
        "{where}: origins must be among {origins}",
        "{where}：`origins` 只能取 {origins}",
    ),
    "errors.policy.hosts": ("{where}: {error}", "{where}：`hosts` 写法有误：{error}"),
    "errors.policy.no_who": (
        "{where}: say who it allows (users, user_groups or channels)",
        "{where}：请写明允许谁（`users`、`user_groups` 或 `channels`）",
    ),
    "errors.policy.no_where": (
        "{where}: say where it allows checks (hosts or inventory_groups)",
        "{where}：请写明允许在哪些主机上检查（`hosts` 或 `inventory_groups`）",
    ),
    # authorization decisions (app/authz.py)
    "errors.authz.unknown_origin": ("unknown request origin {origin!r}", "未知的请求来源 {origin!r}"),
    "errors.authz.where_channel": (" from {channel}", "在 {channel} 里"),
    "errors.authz.where_origin": (" from the {origin}", "从 {origin} "),
    "errors.authz.hosts_more": ("{hosts} and {n} more", "{hosts} 等（另有 {n} 台）"),
    "errors.authz.hourly": (
        "hourly limit: you ran {done} host checks in the last hour and at most {limit} are allowed; try"
        " again later",
        "每小时限额：你在过去一小时里已检查了 {done} 台次主机，上限是 {limit}；请稍后再试",
    ),
    "errors.authz.allowed": ("allowed by {rules}", "由规则 {rules} 放行"),
    # the knowledge base and its evaluation (kb/service.py, kb/evaluate.py, cli/kb.py)
    "errors.kb.no_entry_files": (
        "this knowledge base was opened without bundled entry files",
        "打开这个知识库时没有带上内置条目文件",
    ),
    "errors.kb.bad_entries": ("{error}", "知识库条目有误：{error}"),
    "errors.kb.example_empty": ("an example needs some text", "示例不能为空，需要有文字"),
    "errors.kb.example_source": (
        "example source must be 'incident' or 'import', not '{source}'",
        "示例来源只能是 'incident' 或 'import'，不能是 '{source}'",
    ),
    "errors.kb.no_taxonomy": ("taxonomy file {path} not found", "找不到分类文件 {path}"),
    "errors.kb.no_pitfall_listed": (
        "no pitfall '{id}' (see `pitstop kb list`)",
        "知识库里没有 '{id}'（见 `pitstop kb list`）",
    ),
    "errors.eval.bad_line": (
        "{path}:{line}: not a case line ({error})",
        "{path}:{line}：这一行不是有效的用例（{error}）",
    ),
    "errors.eval.no_cases": ("{path} holds no cases", "{path} 里没有任何用例"),
    "errors.eval.off_topic": (
        "off-topic cases (no slugs) need the answer's confidence to be judged",
        "无关用例（没有 `slugs`）需要回答的置信度才能评判",
    ),
    # command-line arguments (cli/*.py)
    "errors.cli.export_what": (
        "give --json (every entry) or --learned (learned examples and approved drafts)",
        "请指定 --json（导出所有条目）或 --learned（导出学到的示例和已批准的草稿）",
    ),
    "errors.cli.hosts_or_job": ("give HOSTS or --job ID (one of them)", "请给出 HOSTS 或 --job ID（二选一）"),
    "errors.cli.error_twice": (
        "give --error TEXT or --error-file FILE, not both",
        "--error TEXT 和 --error-file FILE 只能给一个",
    ),
    "errors.cli.learning_files": (
        "give TRAIN.jsonl TEST.jsonl, or --split FILE.jsonl",
        "请给出 TRAIN.jsonl TEST.jsonl，或 --split FILE.jsonl",
    ),
    "errors.cli.quiet_days": ("--quiet-days must be positive", "--quiet-days 必须是正数"),
    "errors.cli.no_stdin": ("no standard input to read", "没有可读取的标准输入"),
    "errors.cli.text_twice": (
        "give the error text as TEXT or with --file, not both",
        "报错文本请用 TEXT 或 --file 给出，不要两个都给",
    ),
    "errors.cli.no_text": (
        "give the error text: TEXT, - (standard input) or --file FILE",
        "请给出报错文本：TEXT、-（标准输入）或 --file FILE",
    ),
    "errors.cli.nothing_to_change": (
        "nothing to change: give at least one --FIELD",
        "没有要修改的内容：请至少给出一个 --FIELD",
    ),
    # starting the Slack bot (cli/serve.py)
    "errors.serve.no_bot_token": (
        "SLACK_BOT_TOKEN is not set (see docs/SLACK.md)",
        "没有设置 SLACK_BOT_TOKEN（见 docs/SLACK.md）",
    ),
    "errors.serve.no_signing_secret": (
        "HTTP mode needs SLACK_SIGNING_SECRET to verify Slack's requests",
        "HTTP 模式需要 SLACK_SIGNING_SECRET 来校验 Slack 的请求",
    ),
    "errors.serve.no_app_token": (
        "Socket Mode needs SLACK_APP_TOKEN (an xapp- token), or use --http",
        "Socket Mode 需要 SLACK_APP_TOKEN（xapp- 开头的令牌），或者改用 --http",
    ),
    # learned bundles, learning evaluation, drafts (incidents/exchange.py, learning_eval.py, drafts.py)
    "errors.bundle.not_json": ("{path} is not JSON: {error}", "{path} 不是 JSON：{error}"),
    "errors.bundle.too_big": (
        "{path} is larger than {limit} MB, more than a learned bundle holds",
        "{path} 超过 {limit} MB，不像是学习包",
    ),
    "errors.bundle.not_bundle": (
        "{path} is not a Pitstop learned bundle (made by `pitstop kb export --learned`)",
        "{path} 不是 Pitstop 的学习包（由 `pitstop kb export --learned` 生成）",
    ),
    "errors.bundle.version": (
        "{path} has bundle version {version!r}; this Pitstop reads {reads}",
        "{path} 的学习包版本是 {version!r}；当前 Pitstop 只能读取版本 {reads}",
    ),
    "errors.bundle.lists": (
        "{path} lacks the 'entries' and 'examples' lists",
        "{path} 缺少 'entries' 和 'examples' 列表",
    ),
    "errors.bundle.invalid": (
        "the bundle holds invalid entries:\n  {problems}",
        "学习包里有无效条目：\n  {problems}",
    ),
    "errors.learning.new_cause": (
        "TRAIN case {id}: '{slug}' needs a new_cause with a title and what",
        "TRAIN 用例 {id}：'{slug}' 需要一个带 `title` 和 `what` 的 `new_cause`",
    ),
    "errors.drafts.no_target": ("'{id}' names no entry to merge into", "'{id}' 没有指明要合并到哪个条目"),
    # ssh config, --since, the database (collectors/sshconfig.py, core/clock.py, core/db.py)
    "errors.sshconfig.unreadable": ("ssh config: {error}", "ssh 配置有误：{error}"),
    # files that steer Pitstop must be the user's own and closed to writers (core/config.py)
    "errors.sshconfig.unsafe": (
        "ssh config {path} is not used: it must belong to you or root and group or others may not write"
        " it (mode {mode}, owner uid {uid}); run chmod go-w {path}",
        "不使用 ssh 配置 {path}：它必须属于你或 root，且组或其他用户不能写（权限 {mode}，属主 uid {uid}）；"
        "请运行 chmod go-w {path}",
    ),
    "errors.dotenv.unsafe": (
        "{path} is not read: it must belong to you and group or others may not write it (mode {mode},"
        " owner uid {uid}); run chmod go-w {path} and chown it to yourself",
        "未读取 {path}：它必须属于你，且组或其他用户不能写（权限 {mode}，属主 uid {uid}）；请运行 chmod go-w"
        " {path} 并把属主改成你自己",
    ),
    "errors.cli.since": (
        "--since {value!r}: use a duration like 7d, 24h, 90m or an ISO date like 2026-11-01",
        "--since {value!r}：请用 7d、24h、90m 这样的时长，或 2026-11-01 这样的 ISO 日期",
    ),
    "errors.db.no_rowid": ("SQLite reported no row id for an insert", "SQLite 插入后没有返回行 ID"),
    # the lab of sshd hosts (lab/sshd.py, lab/fleet.py)
    "errors.lab.no_sshd": (
        "sshd not found; install OpenSSH's server first: apt-get install openssh-server",
        "找不到 sshd；请先安装 OpenSSH 服务端：apt-get install openssh-server",
    ),
    "errors.lab.sshd_log": ("{name}: {log}", "{name}：{log}"),
    "errors.lab.sshd_exited": (
        "{name}: sshd exited with status {status}",
        "{name}：sshd 退出，状态码 {status}",
    ),
    "errors.lab.sshd_silent": (
        "{name}: not listening after {seconds}s",
        "{name}：{seconds} 秒后仍未开始监听",
    ),
    "errors.lab.sshd_failed": (
        "lab sshd failed to start: {failures}",
        "实验环境的 sshd 启动失败：{failures}",
    ),
    "errors.lab.command_failed": ("{command} failed: {stderr}", "{command} 执行失败：{stderr}"),
    "errors.lab.no_ports": (
        "no free port range from {first} for {count} lab hosts on 127.0.0.x",
        "从端口 {first} 起找不到能容纳 {count} 台实验主机的空闲端口段（127.0.0.x）",
    ),
    "errors.lab.port_env": (
        "{name}={value!r} is not a TCP port (1-65535)",
        "{name}={value!r} 不是 TCP 端口（1-65535）",
    ),
    "errors.lab.no_scenarios": ("no scenarios to start", "没有可启动的场景"),
    "errors.lab.copies": ("--copies must be at least 1", "--copies 至少为 1"),
    "errors.lab.running": (
        "a lab is already running from {path}; stop it with `pitstop lab down`",
        "{path} 下已有实验环境在运行；请先用 `pitstop lab down` 停掉",
    ),
    "errors.lab.not_running": (
        "no lab is running from {path} (start one with `pitstop lab up`)",
        "{path} 下没有在运行的实验环境（用 `pitstop lab up` 启动一个）",
    ),
    # the read-only command guard (collectors/policy.py); the reason names the command and rule as is
    "errors.policy.read_only": (
        "refused by the read-only policy: {reason}",
        "只读策略拒绝了这条命令：{reason}",
    ),
    # why a command on a host gave no usable output (collectors/runner.py, app/diagnose.py)
    "errors.runner.no_status": (
        "no exit status: the channel closed before the command finished",
        "没有退出状态：命令还没结束通道就关闭了",
    ),
    "errors.runner.timed_out": (
        "timed out after {seconds}s (stopped by the remote timeout)",
        "{seconds} 秒后超时（被远端的 timeout 终止）",
    ),
    "errors.runner.missing": ("{tool} is not installed on this host", "这台主机上没有安装 {tool}"),
    "errors.runner.sudo_refused": (
        "sudo -n refused: this user may not run it without a password (docs/SECURITY.md)",
        "sudo -n 被拒绝：这个用户不能免密码运行它（见 docs/SECURITY.md）",
    ),
    "errors.runner.exited": ("exited with status {status}", "退出状态码 {status}"),
    "errors.runner.exited_said": ("exited with status {status}: {stderr}", "退出状态码 {status}：{stderr}"),
    "errors.runner.truncated": (
        "output truncated: kept the last {kept} of {total} bytes",
        "输出被截断：{total} 字节中只保留了最后 {kept} 字节",
    ),
    "errors.runner.joined": ("{parts}", "{parts}"),
    "errors.runner.of_item": ("{item}: {message}", "{item}：{message}"),
    "errors.runner.tool_said": ("{text}", "{text}"),
    "errors.runner.no_record": ("no record", "没有记录"),
    "errors.runner.stuck": (
        "no answer after {seconds}s: the remote timeout could not stop it (stuck in D state?)",
        "{seconds} 秒后仍无响应：远端的 timeout 也没能终止它（可能卡在 D 状态？）",
    ),
    "errors.runner.lost": ("connection lost while running", "运行途中连接断开"),
    "errors.runner.forged": (
        "its output carried Pitstop's command markers out of order (someone on the host printed them):"
        " where it began or ended cannot be trusted, so it is not read",
        "它的输出里出现了顺序不对的 Pitstop 命令标记（主机上有人打印了它们）：无法确定它从哪里开始、"
        "在哪里结束，所以不读取",
    ),
    "errors.runner.lost_because": ("connection lost while running: {error}", "运行途中连接断开：{error}"),
    "errors.runner.no_channel": ("could not open a channel: {error}", "无法打开通道：{error}"),
    "errors.runner.channel_late": (
        "not run: its channel did not start in time",
        "未运行：它的通道没能按时启动",
    ),
    "errors.runner.not_rendered": ("{error}", "无法生成这条命令：{error}"),
    "errors.runner.no_value": ("not run: no valid value from {source}", "未运行：{source} 没有给出有效的值"),
    "errors.runner.lost_kept": (
        "{error}; results gathered before that are kept",
        "{error}；在此之前收集到的结果仍保留",
    ),
    "errors.runner.no_result": ("{host}: no result within {seconds}s", "{host}：{seconds} 秒内没有结果"),
    "errors.runner.internal": (
        "{host}: internal error: {kind}: {error}",
        "{host}：内部错误：{kind}：{error}",
    ),
}

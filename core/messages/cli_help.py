"""What `--help` says: every command's help line, description and epilog and every option's help
(rendered through `pitstop.cli.helptext.h`; option names, commands, file names and values stay as typed)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cli_help.ask.ask": (
        "find known root causes for an error message or log",
        "查找一条报错信息或日志对应的已知根因",
    ),
    "cli_help.ask.ask.description": (
        "Find the known root causes that fit an error message or log, best first, and say why.",
        "找出与报错信息或日志相符的已知根因，按可能性排序，并说明理由。",
    ),
    "cli_help.ask.json": (
        "print the answer as JSON (pitstop.ask/1, docs/JSON.md)",
        "以 JSON 输出结果（pitstop.ask/1，见 docs/JSON.md）",
    ),
    "cli_help.ask.top": ("how many causes (default 5)", "列出几个原因（默认 5 个）"),
    "cli_help.audit.audit": (
        "list the remote commands Pitstop ran, who asked and what happened",
        "列出 Pitstop 执行过的远程命令、发起人和执行结果",
    ),
    "cli_help.audit.host": ("only this host", "只看这台主机"),
    "cli_help.audit.json": (
        "print one JSON document (docs/JSON.md)",
        "输出一个 JSON 文档（见 docs/JSON.md）",
    ),
    "cli_help.audit.jsonl": (
        "print one JSON document per row, for streaming",
        "每行输出一个 JSON 文档，便于流式处理",
    ),
    "cli_help.audit.limit": (
        "at most N rows, newest first (default 1000)",
        "最多 N 行，最新的在前（默认 1000）",
    ),
    "cli_help.audit.since": ("24h, 90m, 2d or an ISO date", "24h、90m、2d 或 ISO 日期"),
    "cli_help.audit.user": ("only this requester", "只看这个请求人"),
    "cli_help.console.console": (
        "talk to Pitstop in the terminal, as in Slack (reads stdin)",
        "在终端里和 Pitstop 对话，跟在 Slack 里一样（从标准输入读取）",
    ),
    "cli_help.console.inventory": (
        "inventory YAML (default $PITSTOP_INVENTORY)",
        "主机清单 YAML 文件（默认 $PITSTOP_INVENTORY）",
    ),
    "cli_help.console.policy": (
        "authorization policy (default $PITSTOP_POLICY)",
        "授权策略文件（默认 $PITSTOP_POLICY）",
    ),
    "cli_help.diagnose.connect_timeout": (
        "seconds to reach each host (default: the inventory's, else 10)",
        "连接每台主机的超时秒数（默认取 inventory 里的设置，没有则为 10）",
    ),
    "cli_help.diagnose.diagnose": (
        "run read-only checks on hosts and give a verdict per cause",
        "在主机上跑只读检查，对每个原因给出结论",
    ),
    "cli_help.diagnose.diagnose.description": (
        "Run read-only collectors on HOSTS (names, @groups, gpu[01-16]) and judge each cause.",
        "在 HOSTS（主机名、@组、gpu[01-16]）上运行只读采集，逐个判断每个原因。",
    ),
    "cli_help.diagnose.diagnose.epilog": (
        "exit status: 0 nothing confirmed and every host checked; 10 a cause confirmed; 11 nothing "
        "confirmed but some host could not be checked; 12 a cause confirmed and some host could not be "
        "checked; 2 usage; 3 unknown host, group or job; 4 refused by policy; 5 a bad inventory, policy "
        "or error file; 6 an unusable database",
        "退出码：0 没有确认任何原因，且所有主机都已检查；10 确认了某个原因；11 没有确认原因，"
        "但有主机没能检查；12 确认了某个原因，且有主机没能检查；2 用法错误；3 未知的主机、组或作业；4 "
        "被策略拒绝；5 inventory、policy 或报错文件有问题；6 数据库不可用",
    ),
    "cli_help.diagnose.error": (
        "the pasted error, one argument (quote it; '-' reads stdin); without it, a full sweep",
        "贴过来的报错，作为一个参数传入（记得加引号；'-' 表示从标准输入读取）；不给则做全面巡检",
    ),
    "cli_help.diagnose.error_file": ("read the pasted error from FILE", "从 FILE 读取贴过来的报错"),
    "cli_help.diagnose.hosts": (
        "host names, groups or host-list expressions",
        "主机名、主机组或主机列表表达式",
    ),
    "cli_help.diagnose.job": (
        "diagnose the nodes of this Slurm job (123456, array task 123_4, step 123.0) over its time span; "
        "asks the inventory's slurm.controller with scontrol and sacct",
        "诊断这个 Slurm 作业（123456、数组任务 123_4、作业步 123.0）在其运行时段内用到的节点；通过 "
        "inventory 里的 slurm.controller 执行 scontrol 和 sacct 查询",
    ),
    "cli_help.diagnose.json": (
        "print the report as JSON (pitstop.diagnose/1, docs/JSON.md)",
        "以 JSON 输出报告（pitstop.diagnose/1，见 docs/JSON.md）",
    ),
    "cli_help.diagnose.max_hosts": ("refuse larger host lists", "主机列表超过这个数就拒绝执行"),
    "cli_help.diagnose.policy": (
        "authorization policy YAML (default $PITSTOP_POLICY); without one nothing runs",
        "授权策略 YAML（默认 $PITSTOP_POLICY）；没有策略就什么都不执行",
    ),
    "cli_help.diagnose.since": (
        "kernel-log window: 24h, 90m, 2d or an ISO date (default: this boot)",
        "内核日志的时间窗口：24h、90m、2d 或 ISO 日期（默认从本次开机起）",
    ),
    "cli_help.eval.baseline": (
        "also score a plain BM25 over the same KB text",
        "同时在同一份知识库文本上跑一个普通 BM25 作对照",
    ),
    "cli_help.eval.eval": (
        "measure retrieval (and later learning) on labelled cases",
        "在标注好的用例上评测检索效果（以及之后的学习效果）",
    ),
    "cli_help.eval.file": ("labelled cases, one JSON object a line", "标注好的用例，每行一个 JSON 对象"),
    "cli_help.eval.json": (
        "print JSON (with every case's top 10 ids)",
        "以 JSON 输出（附带每个用例排名前 10 的 id）",
    ),
    "cli_help.eval.mode": (
        "retrieval mode, or 'all' for every mode side by side",
        "检索模式；'all' 表示把所有模式并排对比",
    ),
    "cli_help.eval.retrieval": (
        "recall@1, recall@3 and MRR of `ask` on a JSONL case file",
        "在 JSONL 用例文件上统计 `ask` 的 recall@1、recall@3 和 MRR",
    ),
    "cli_help.eval_learning.files": (
        "cases to learn from, cases to test on",
        "用来学习的用例文件和用来测试的用例文件",
    ),
    "cli_help.eval_learning.json": (
        "print JSON (pitstop.eval-learning/1)",
        "以 JSON 输出（pitstop.eval-learning/1）",
    ),
    "cli_help.eval_learning.learning": (
        "TEST recall before and after resolving the TRAIN cases",
        "对比学习 TRAIN 用例前后在 TEST 上的召回率",
    ),
    "cli_help.eval_learning.split": (
        "split one case file per cause (first half of each cause's cases to TRAIN)",
        "按原因拆分一个用例文件（每个原因的前一半用例归入 TRAIN）",
    ),
    "cli_help.eval_learning.write_split": ("also write the split files here", "同时把拆分结果写到这里"),
    "cli_help.eval_learning.as_member": (
        "resolve TRAIN as one channel member who is not a maintainer (not vouched for)",
        "以一个不是维护者的频道成员身份解决训练集（不算维护者确认）",
    ),
    "cli_help.incidents.close": (
        "close an open incident as no action needed",
        "关闭一个未关闭的事件，标记为无需处理",
    ),
    "cli_help.incidents.close.json": (
        "print the closed incident as JSON (pitstop.incident/1)",
        "以 JSON 输出已关闭的事件（pitstop.incident/1）",
    ),
    "cli_help.incidents.close.user": (
        "who closed it (default cli:LOGIN, your login name)",
        "谁关闭的（默认 cli:LOGIN，即你的登录名）",
    ),
    "cli_help.incidents.expire": (
        "close, as expired, open incidents quiet for longer than the quiet period",
        "把静默超过静默期的未关闭事件按过期关闭",
    ),
    "cli_help.incidents.expire.quiet_days": (
        "the quiet period (default $PITSTOP_INCIDENT_QUIET_DAYS, else 7)",
        "静默期天数（默认 $PITSTOP_INCIDENT_QUIET_DAYS，没有则为 7）",
    ),
    "cli_help.incidents.incidents": ("list, show, resolve and close incidents", "列出、查看、解决和关闭事件"),
    "cli_help.incidents.list": ("incidents, newest first", "事件列表，最新的在前"),
    "cli_help.incidents.listing.json": (
        "print JSON (pitstop.incidents/1)",
        "以 JSON 输出（pitstop.incidents/1）",
    ),
    "cli_help.incidents.listing.limit": (
        "at most N incidents, newest first (default 50)",
        "最多 N 个事件，最新的在前（默认 50）",
    ),
    "cli_help.incidents.listing.since": (
        "only incidents opened since: 7d, 24h, 30m or a date",
        "只看此后新开的事件：7d、24h、30m 或日期",
    ),
    "cli_help.incidents.listing.status": ("only incidents in this state", "只看处于这个状态的事件"),
    "cli_help.incidents.resolve": (
        "record the real cause (teaches the knowledge base)",
        "记录真正的原因（知识库会从中学习）",
    ),
    "cli_help.incidents.resolve.fix": (
        "how it was fixed (with --new-title)",
        "是怎么修好的（配合 --new-title 使用）",
    ),
    "cli_help.incidents.resolve.json": (
        "print the resolved incident as JSON (pitstop.incident/1)",
        "以 JSON 输出已解决的事件（pitstop.incident/1）",
    ),
    "cli_help.incidents.resolve.notes": ("free text kept with the resolution", "随处理结果一起保存的备注"),
    "cli_help.incidents.resolve.symptom": ("a symptom line; repeat for more", "一行症状；多条就重复此选项"),
    "cli_help.incidents.resolve.user": (
        "who resolved it (default cli:LOGIN, your login name)",
        "谁解决的（默认 cli:LOGIN，即你的登录名）",
    ),
    "cli_help.incidents.resolve.what": (
        "what was wrong (with --new-title)",
        "出了什么问题（配合 --new-title 使用）",
    ),
    "cli_help.incidents.show": (
        "one incident with candidates, verdicts and resolution",
        "查看单个事件的候选原因、检查结论和处理结果",
    ),
    "cli_help.incidents.show.id": ("the incident number", "事件编号"),
    "cli_help.incidents.show.json": ("print JSON (pitstop.incident/1)", "以 JSON 输出（pitstop.incident/1）"),
    "cli_help.incidents.which.cause": ("an existing pitfall id", "已有的坑点 id"),
    "cli_help.incidents.which.new_title": (
        "a cause the KB does not know yet (a draft)",
        "知识库里还没有的原因（生成一份草稿）",
    ),
    "cli_help.inventory.imp.file": ("the file to import", "要导入的文件"),
    "cli_help.inventory.imp.out": ("write here instead of standard output", "写到这里，而不是标准输出"),
    "cli_help.inventory.imp.reader": (
        "ansible: require ansible-inventory; builtin: Pitstop's own INI/YAML reader (default: auto)",
        "ansible：必须用 ansible-inventory；builtin：用 Pitstop 自带的 INI/YAML 解析器（默认 auto）",
    ),
    "cli_help.inventory.import": (
        "convert an Ansible inventory to Pitstop's YAML (through ansible-inventory if installed)",
        "把 Ansible 主机清单转成 Pitstop 的 YAML 主机清单（装了 ansible-inventory 就用它）",
    ),
    "cli_help.inventory.inventory": (
        "import an Ansible inventory, or show the hosts Pitstop knows",
        "导入 Ansible 主机清单，或查看 Pitstop 已知的主机",
    ),
    "cli_help.inventory.show": (
        "each host's resolved address, port, user, jump chain, keys, known_hosts and their origin",
        "每台主机解析后的地址、端口、用户、跳板链、密钥、known_hosts 及其来源",
    ),
    "cli_help.inventory.show.hosts": ("names, @groups or ranges", "主机名、@组或范围"),
    "cli_help.inventory.show.json": ("machine-readable output", "机器可读的输出"),
    "cli_help.kb.build": (
        "load the entry files into SQLite and build the vector index",
        "把条目文件载入 SQLite 并建好向量索引",
    ),
    "cli_help.kb.check": ("validate every entry file", "校验每个条目文件"),
    "cli_help.kb.check.taxonomy": (
        "taxonomy.yaml whose slugs must all be covered (default ../shared/taxonomy.yaml)",
        "taxonomy.yaml，其中每个 slug 都必须有条目覆盖（默认 ../shared/taxonomy.yaml）",
    ),
    "cli_help.kb.export": ("print every entry with all its text fields", "输出所有条目及其全部文本字段"),
    "cli_help.kb.export.json": ("JSON (the only format)", "JSON（唯一支持的格式）"),
    "cli_help.kb.kb": ("build, check and inspect the knowledge base", "构建、校验和查看知识库"),
    "cli_help.kb.list": ("list the entries", "列出所有条目"),
    "cli_help.kb.listing.json": ("print JSON (pitstop.kb-list/1)", "以 JSON 输出（pitstop.kb-list/1）"),
    "cli_help.kb.show": ("show one entry", "查看单个条目"),
    "cli_help.kb.show.id": ("the entry id (see pitstop kb list)", "条目 id（见 pitstop kb list）"),
    "cli_help.kb.show.json": ("print JSON (pitstop.pitfall/1)", "以 JSON 输出（pitstop.pitfall/1）"),
    "cli_help.kb_learning.action.user": (
        "who decides (default cli:LOGIN, your login name)",
        "谁做的决定（默认 cli:LOGIN，即你的登录名）",
    ),
    "cli_help.kb_learning.approve": (
        "accept a draft (writes kb/pitfalls/ID.yaml) or a merge",
        "采纳一份草稿（写入 kb/pitfalls/ID.yaml）或一个合并提议",
    ),
    "cli_help.kb_learning.approve.dir": (
        "where to write the entry (default kb/pitfalls)",
        "条目写到哪里（默认 kb/pitfalls）",
    ),
    "cli_help.kb_learning.approve.id": (
        "the draft id (see pitstop kb drafts)",
        "草稿 id（见 pitstop kb drafts）",
    ),
    "cli_help.kb_learning.drafts": (
        "learned drafts and merge proposals waiting for review",
        "学到的草稿和等待审核的合并提议",
    ),
    "cli_help.kb_learning.drafts.all": ("also approved and rejected ones", "连已批准和已拒绝的也列出来"),
    "cli_help.kb_learning.drafts.json": ("print JSON (pitstop.drafts/1)", "以 JSON 输出（pitstop.drafts/1）"),
    "cli_help.kb_learning.edit": ("change fields of a draft before approving it", "在批准前修改草稿的字段"),
    "cli_help.kb_learning.edit.cause": ("the new cause", "新的原因说明（cause）"),
    "cli_help.kb_learning.edit.layer": ("the new layer", "新的层级（layer）"),
    "cli_help.kb_learning.edit.list": (
        "replaces the {field} list; repeat for more",
        "替换整个 {field} 列表；多个值就重复此选项",
    ),
    "cli_help.kb_learning.edit.severity": ("the new severity", "新的严重程度（severity）"),
    "cli_help.kb_learning.edit.summary": ("the new summary", "新的英文摘要（summary）"),
    "cli_help.kb_learning.edit.summary_zh": ("the new summary (Chinese)", "新的中文摘要（summary_zh）"),
    "cli_help.kb_learning.edit.title": ("the new title", "新的英文标题（title）"),
    "cli_help.kb_learning.edit.title_zh": ("the new title (Chinese)", "新的中文标题（title_zh）"),
    "cli_help.kb_learning.export.learned": (
        "export learned examples and approved drafts (a bundle for `kb import`)",
        "导出学到的样例和已批准的草稿（供 `kb import` 使用的包）",
    ),
    "cli_help.kb_learning.export.origin": (
        "site name recorded in the bundle (default: host name)",
        "记录在包里的站点名（默认取主机名）",
    ),
    "cli_help.kb_learning.import": (
        "add a bundle from `pitstop kb export --learned`",
        "导入 `pitstop kb export --learned` 导出的包",
    ),
    "cli_help.kb_learning.load.file": (
        "a bundle written by pitstop kb export --learned",
        "由 pitstop kb export --learned 写出的包",
    ),
    "cli_help.kb_learning.reject": (
        "refuse a draft (leaves search) or a merge proposal",
        "拒绝一份草稿（从检索中移除）或一个合并提议",
    ),
    "cli_help.kbargs.db": ("SQLite database (default: $PITSTOP_DB)", "SQLite 数据库（默认 $PITSTOP_DB）"),
    "cli_help.kbargs.file": (
        "read the error text from FILE ('-': stdin)",
        "从 FILE 读取报错文本（'-' 表示标准输入）",
    ),
    "cli_help.kbargs.text": (
        "the error text (quote it), or - to read standard input",
        "报错文本（加引号），或用 - 从标准输入读取",
    ),
    "cli_help.lab.audit": ("print every command the lab hosts ran", "输出实验主机执行过的每条命令"),
    "cli_help.lab.down": ("stop the lab's sshd processes", "停掉实验环境的 sshd 进程"),
    "cli_help.lab.lab": (
        "simulated GPU hosts: real sshd on loopback serving scenario outputs",
        "模拟 GPU 主机：在回环地址上跑真实的 sshd，返回场景里的命令输出",
    ),
    "cli_help.lab.list": ("list the shipped scenarios", "列出自带的场景"),
    "cli_help.lab.state_dir": (
        "keys, inventory and state of the lab (default $PITSTOP_HOME/lab or ./.lab)",
        "实验环境的密钥、主机清单和状态目录（默认 $PITSTOP_HOME/lab 或 ./.lab）",
    ),
    "cli_help.lab.up": ("start one sshd per scenario", "每个场景启动一个 sshd"),
    "cli_help.lab.up.bastion": (
        "add a two-hop bastion chain and a host behind it, defined only in the lab's ssh config",
        "加一条两跳的跳板链和它后面的一台主机，只写在实验环境的 ssh 配置里",
    ),
    "cli_help.lab.up.copies": (
        "start N hosts per scenario (<scenario>-001, ...)",
        "每个场景启动 N 台主机（<scenario>-001, ...）",
    ),
    "cli_help.lab.up.inventory": ("write the inventory YAML here as well", "同时把主机清单 YAML 写到这里"),
    "cli_help.lab.up.port": (
        "first port to try (default $PITSTOP_LAB_PORT, else 2222)",
        "从哪个端口开始尝试（默认 $PITSTOP_LAB_PORT，没有则为 2222）",
    ),
    "cli_help.lab.up.scenarios": (
        "scenario directories (default: every shipped scenario)",
        "场景目录（默认用所有自带场景）",
    ),
    "cli_help.main.description": (
        "Pitstop: find the known root cause of a GPU-cluster error and check it on the hosts, read-only.",
        "Pitstop：为 GPU 集群的报错找出已知根因，并以只读方式到主机上核实。",
    ),
    "cli_help.main.exit_codes": (
        "exit status: 0 done (for diagnose: nothing confirmed, every host checked); 1 an error Pitstop "
        "explains; 2 bad usage (wrong option, empty or unreadable text); 3 not found (host, incident, "
        "entry); 4 refused by the authorization policy; 5 a file or standard input that is unreadable, "
        "binary or has the wrong shape (inventory, policy, taxonomy, eval cases, learned bundle); 6 "
        "PITSTOP_DB unusable (a directory, not SQLite, in a missing directory); 7 Slack unreachable or the "
        "token refused "
        "(serve, start); 10 diagnose confirmed a cause; 11 diagnose could not check some host; 12 both; "
        "130 interrupted. JSON outputs: docs/JSON.md.",
        "退出码：0 完成（diagnose 表示没有确认任何原因，且所有主机都已检查）；1 Pitstop 已说明原因的错误；"
        "2 用法错误（选项不对、文本为空或无法读取）；3 找不到（主机、事件、条目）；4 被授权策略拒绝；5 "
        "文件或标准输入无法读取、是二进制或格式不对（主机清单、授权策略、分类表、评测用例、学习包）；6 "
        "PITSTOP_DB 不可用（是目录、不是 SQLite、或所在目录不存在）；7 连不上 Slack 或令牌被拒（serve、"
        "start）；10 diagnose 确认了某个原因；11 diagnose 有主机没能检查；12 两者皆有；130 被中断。JSON "
        "输出格式见 docs/JSON.md。",
    ),
    "cli_help.main.help": ("show this help message and exit", "显示本帮助信息并退出"),
    "cli_help.main.lang": (
        "answer language: en, zh, or auto to follow the pasted text (default)",
        "回答语言：en、zh，或 auto 跟随所贴文本的语言（默认）",
    ),
    # argparse indents the usage by the prefix's length in characters: an ASCII colon keeps it near its width
    "cli_help.main.usage": ("usage: ", "用法: "),
    "cli_help.main.positionals": ("positional arguments", "位置参数"),
    "cli_help.main.options": ("options", "选项"),
    "cli_help.main.v": (
        "also show the details behind an answer (checks, regexes, matched terms)",
        "同时显示结论背后的细节（检查项、正则、命中的词）",
    ),
    "cli_help.main.version": ("show the version", "显示版本号"),
    "cli_help.policy.check": (
        "would USER be allowed to run checks on HOSTS?",
        "USER 能否在 HOSTS 上执行检查？",
    ),
    "cli_help.policy.check.channel": ("Slack channel id (origin slack)", "Slack 频道 id（来源为 slack）"),
    "cli_help.policy.check.group": (
        "a Slack user-group id the user belongs to (repeatable)",
        "该用户所在的 Slack 用户组 id（可重复）",
    ),
    "cli_help.policy.check.json": ("print the decision as JSON", "以 JSON 输出判定结果"),
    "cli_help.policy.check.origin": (
        "where the request comes from (default: slack with --channel, else cli)",
        "请求来自哪里（给了 --channel 默认为 slack，否则为 cli）",
    ),
    "cli_help.policy.check.policy": (
        "policy YAML (default $PITSTOP_POLICY)",
        "策略 YAML（默认 $PITSTOP_POLICY）",
    ),
    "cli_help.policy.check.user": (
        "Slack user id or login name (default: you)",
        "Slack 用户 id 或登录名（默认是你自己）",
    ),
    "cli_help.policy.policy": ("check what the authorization policy allows", "检查授权策略允许做什么"),
    "cli_help.serve.channels": (
        "answer pastes per channel: 'auto' (default) or 'mention', with overrides such as "
        "'mention,C0123=auto'",
        "按频道决定是否回应贴出的报错：'auto'（默认）或 'mention'，可按频道覆盖，如 'mention,C0123=auto'",
    ),
    "cli_help.serve.host": ("HTTP bind address (default 0.0.0.0)", "HTTP 监听地址（默认 0.0.0.0）"),
    "cli_help.serve.http": (
        "serve Slack's requests at POST /slack/events",
        "在 POST /slack/events 上接收 Slack 的请求",
    ),
    "cli_help.serve.port": ("HTTP port (default 3000)", "HTTP 端口（默认 3000）"),
    "cli_help.serve.serve": (
        "run the Slack bot (Socket Mode; --http for the Events API)",
        "运行 Slack 机器人（Socket Mode；--http 则走 Events API）",
    ),
    "cli_help.start.port": (
        "HTTP port when serving Slack over HTTP",
        "通过 HTTP 提供 Slack 服务时使用的端口",
    ),
    "cli_help.start.start": (
        "run the Slack bot if tokens are set, else the lab and the console",
        "设置了 Slack 令牌就运行 Slack 机器人，否则启动实验环境和控制台",
    ),
    "cli_help.stats.json": ("print JSON (pitstop.stats/1)", "以 JSON 输出（pitstop.stats/1）"),
    "cli_help.stats.since": (
        "period start: 7d, 24h, 30m or a date (default: all time)",
        "统计起点：7d、24h、30m 或日期（默认从最早开始）",
    ),
    "cli_help.stats.stats": (
        "top causes, busiest hosts, time to resolution, causes per layer",
        "最常见的原因、最忙的主机、解决耗时、各层级的原因分布",
    ),
}

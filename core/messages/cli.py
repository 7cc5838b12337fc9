"""What the command line says to people (`pitstop ask`, `diagnose`, `stats`, errors)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.stats.period": (
        "incidents opened since {since}: {incidents} ({open} open, {resolved} resolved, {no_action} closed as"
        " no action needed, {expired} expired: closed for want of activity, or open and quiet for over"
        " {quiet} days)",
        "{since}以来新开的事件：{incidents} 个（{open} 个未关闭，{resolved} 个已解决，"
        "{no_action} 个无需处理，{expired} 个已过期：因无动静被关闭，或仍未关闭但超过 {quiet} 天无动静）",
    ),
    "cli.stats.beginning": ("the beginning", "最开始"),
    "cli.stats.resolution": (
        "time to resolution, over the {resolved} resolved incident(s): median {median}, p90 {p90}",
        "解决耗时（按 {resolved} 个已解决的事件统计）：中位数 {median}，p90 {p90}",
    ),
    "cli.stats.top_causes": ("resolutions by cause", "按原因统计的解决记录"),
    "cli.stats.top_hosts": ("incidents by host named", "按涉及主机统计的事件"),
    "cli.stats.layers": ("resolutions by layer", "按层级统计的解决记录"),
    "cli.stats.none": ("{heading}: none", "{heading}：无"),
    "cli.stats.heading": ("{heading}:", "{heading}："),
    "cli.duration.none": ("-", "-"),
    "cli.duration.s": ("{n} s", "{n} 秒"),
    "cli.duration.min": ("{n} min", "{n} 分钟"),
    "cli.duration.h": ("{n} h", "{n} 小时"),
    "cli.incidents.closed": (
        "incident #{id} closed as no action needed",
        "事件 #{id} 已关闭：无需处理",
    ),
    "cli.incidents.expired": (
        "{n} open incident(s) quiet for more than {days} days closed as expired",
        "{n} 个超过 {days} 天无动静的未关闭事件已标记为过期",
    ),
    "cli.incidents.row": (
        "#{id} {status:8} {opened} {where} {hosts} top={top}{cause}",
        "#{id} {status} {opened} {where} {hosts} 首选原因={top}{cause}",
    ),
    "cli.incidents.row_cause": (" cause={cause}", " 实际原因={cause}"),
    "cli.incidents.count": ("{n} incident(s)", "共 {n} 个事件"),
    "cli.incidents.status.open": ("open", "未关闭"),
    "cli.incidents.status.resolved": ("resolved", "已解决"),
    "cli.incidents.status.no_action": ("no_action", "无需处理"),
    "cli.incidents.status.expired": ("expired", "已过期"),
    "cli.incidents.resolved": (
        "incident #{id} resolved as '{cause}'; {learned}",
        "事件 #{id} 已解决，原因是 '{cause}'；{learned}",
    ),
    "cli.incident.header": (
        "incident #{id} [{status}] {channel} thread {thread}",
        "事件 #{id} [{status}] 频道 {channel}，讨论串 {thread}",
    ),
    "cli.incident.opened": (
        "opened {created} by {requester}; updated {updated}",
        "{created} 由 {requester} 发起；最后更新 {updated}",
    ),
    "cli.incident.hosts": ("hosts: {hosts}", "主机：{hosts}"),
    "cli.incident.error_text": ("error text:", "报错文字："),
    "cli.incident.candidates": ("candidates:", "候选原因："),
    "cli.incident.no_candidates": ("candidates: none", "候选原因：无"),
    "cli.incident.candidate": (
        "  {rank}. {id} score {score} {confidence}{draft}",
        "  {rank}. {id} 得分 {score}，{confidence}{draft}",
    ),
    "cli.incident.draft": (" (draft)", "（草稿）"),
    "cli.incident.benign": (" (benign)", "（无害）"),
    "cli.incident.verdict": (
        "verdict {host} {pitfall}: {verdict}{benign} {reason}",
        "判定 {host} {pitfall}：{verdict}{benign} {reason}",
    ),
    "cli.incident.resolution": (
        "resolved {at} by {by}: {cause} ({kind}); {learned}",
        "{at} 由 {by} 解决：{cause}（{kind}）；{learned}",
    ),
    "cli.incident.kind.existing": ("a known cause", "已知原因"),
    "cli.incident.kind.draft": ("a new cause, drafted", "新原因，已建草稿"),
    "cli.incident.kind.merge": ("a new cause, proposed for merging", "新原因，已提议合并"),
    "cli.incident.notes": ("notes: {notes}", "备注：{notes}"),
    "cli.drafts.row": (
        "{id:40} {status:9} {what:40} {title}  (incident #{incident}, {by})",
        "{id:40} {status} {what} {title}（事件 #{incident}，{by}）",
    ),
    "cli.drafts.merge": ("merge into {target} ({similarity})", "合并到 {target}（相似度 {similarity}）"),
    "cli.drafts.new": ("new entry", "新条目"),
    "cli.drafts.status.draft": ("draft", "待审核"),
    "cli.drafts.status.approved": ("approved", "已批准"),
    "cli.drafts.status.rejected": ("rejected", "已拒绝"),
    "cli.drafts.count": ("{n} draft(s)", "共 {n} 个草稿"),
    "cli.drafts.edited": ("updated draft '{id}': {fields}", "已更新草稿 '{id}'：{fields}"),
    "cli.kb.loaded": (
        "loaded {entries} entries ({changed} changed, {retired} retired) into {path}",
        "已把 {entries} 个条目载入 {path}（{changed} 个有改动，{retired} 个已停用）",
    ),
    "cli.kb.index": (
        "vector index: {n} examples, {kind}, model {model} -> {path}",
        "向量索引：{n} 个示例，类型 {kind}，模型 {model} -> {path}",
    ),
    "cli.kb.no_taxonomy": (
        "taxonomy not found at {path}: slug coverage not checked (use --taxonomy FILE)",
        "在 {path} 找不到分类表：未检查 slug 覆盖情况（可用 --taxonomy FILE 指定）",
    ),
    "cli.kb.taxonomy": ("taxonomy: {path}", "分类表：{path}"),
    "cli.kb.checks": (
        "check names verified against {n} registered checks",
        "检查项名称已与 {n} 个已注册的检查项核对",
    ),
    "cli.kb.checked": (
        "{files} entry files, {valid} valid; {taxonomy}; {checks}",
        "{files} 个条目文件，{valid} 个有效；{taxonomy}；{checks}",
    ),
    "cli.kb.mined": (
        "{n} mined examples in {where} with their source URLs",
        "{where} 中有 {n} 个挖掘来的示例，均附来源链接",
    ),
    "cli.kb.ok": ("OK", "OK：没有发现问题"),
    "cli.kb.problems": ("{n} problem(s)", "发现 {n} 个问题"),
    "cli.kb.draft": ("draft ", "草稿 "),
    "cli.kb.count": ("{n} entries", "共 {n} 个条目"),
    "cli.kb.none": ("  (none)", "  （无）"),
    "cli.console.loading": ("Loading the knowledge base…", "正在加载知识库…"),
    "cli.start.no_slack": (
        "No Slack tokens set: starting the lab fleet and the console (see docs/SLACK.md for Slack).",
        "没有设置 Slack 令牌：启动实验机群和控制台（接入 Slack 见 docs/SLACK.md）。",
    ),
    "cli.start.hosts": (
        "{n} lab hosts on 127.0.0.x, e.g. {names}",
        "127.0.0.x 上有 {n} 台实验主机，例如 {names}",
    ),
    "cli.start.no_lab": (
        "The lab could not start ({error}); the console runs without hosts to check.",
        "实验机群无法启动（{error}）；控制台照常运行，但没有可检查的主机。",
    ),
    "cli.serve.listening": ("Pitstop listening on {url}", "Pitstop 正在监听 {url}"),
    "cli.serve.socket_mode": (
        "Pitstop connecting to Slack in Socket Mode…",
        "Pitstop 正在以 Socket Mode 连接 Slack…",
    ),
    "cli.lab.host": ("{name} {where}  scenario {scenario}", "{name} {where}  场景 {scenario}"),
    "cli.lab.up": (
        "{n} lab hosts up; sessions run as {user}",
        "{n} 台实验主机已启动；会话以 {user} 身份运行",
    ),
    "cli.lab.inventory": ("inventory:   {path}", "主机清单：{path}"),
    "cli.lab.known_hosts": ("known_hosts: {path}", "已知主机密钥文件（known_hosts）：{path}"),
    "cli.lab.policy": (
        "policy:      {path} (lets {user} check these hosts from the CLI and the console)",
        "授权策略：{path}（允许 {user} 从命令行和控制台检查这些主机）",
    ),
    "cli.lab.try": ("try: {command}", "试试：{command}"),
    "cli.lab.down": ("{n} lab hosts stopped", "已停止 {n} 台实验主机"),
    "cli.lab.scenario": ("{name} confirmed: {confirmed}", "{name} 会确认：{confirmed}"),
    "cli.policy.allowed": ("allowed: {reason}", "允许：{reason}"),
    "cli.policy.refused": ("refused: {reason}", "拒绝：{reason}"),
    "cli.diagnose.progress": ("{host}: {status}", "{host}：{status}"),
    "cli.diagnose.ok": ("checked", "已检查"),
    "cli.eval.group": ("group", "分组"),
    "cli.eval.off_topic": (
        "not in KB, answered 'no confident match': {shares}",
        "知识库里没有的问题，回答为“没有可信的匹配”的比例：{shares}",
    ),
    "cli.eval.columns": ("columns: {columns}", "各列：{columns}"),
    "cli.eval.high": (
        "'high' answers right: {right}/{answered} ({share})",
        "“高置信度”回答的正确率：{right}/{answered}（{share}）",
    ),
    "cli.eval.high_none": (
        "'high' answers right: none answered 'high'",
        "“高置信度”回答的正确率：没有回答是高置信度的",
    ),
    "cli.eval.misses": (
        "{mode} misses (not in the top 3; off-topic but confident): {n}",
        "{mode} 未命中（不在前 3 名；或知识库外的问题却回答得很自信）：{n} 个",
    ),
    "cli.eval.miss_off_topic": (
        "  {case} off-topic, answered confidently: {got}",
        "  {case} 知识库外的问题，却自信地回答了：{got}",
    ),
    "cli.eval.rank": ("rank {rank}", "排第 {rank}"),
    "cli.eval.not_ranked": ("not in top 10", "不在前 10 名"),
    "cli.eval.miss": (
        "  {case} want {want} ({where}); got {got}",
        "  {case} 应为 {want}（{where}）；实际为 {got}",
    ),
    "cli.learning.train": (
        "TRAIN {train} case(s) resolved ({learned} learned, {skipped} skipped: cause unknown);"
        " TEST {test} case(s)",
        "训练集：解决了 {train} 个案例（学到 {learned} 个，跳过 {skipped} 个：原因未知）；"
        "测试集：{test} 个案例",
    ),
    "cli.learning.before": ("before", "学习前"),
    "cli.learning.after": ("after", "学习后"),
    "cli.learning.change": ("R@1 change: {points} points", "R@1 变化：{points} 个百分点"),
    "cli.learning.new_causes": (
        "new causes: {drafts} draft(s) created; found in the top 3 for {found}/{n} of their TEST cases"
        " ({r3}), first for {r1}",
        "新原因：建了 {drafts} 个草稿；在它们的测试案例中有 {found}/{n} 个排进前 3 名（{r3}），"
        "排第一的比例为 {r1}",
    ),
    "cli.error": ("pitstop: {message}", "pitstop：{message}"),
    "cli.interrupted": ("interrupted", "已中断"),
}

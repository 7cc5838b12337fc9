"""The fixed words of the bot's messages (Slack and the terminal), in English and Chinese."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "bot.why": ("Why", "匹配依据"),
    "bot.check": ("Check", "检查"),
    "bot.fix": ("Fix", "修复"),
    "bot.this": ("This was it", "就是这个"),
    "bot.not_it": ("Not it", "不是这个"),
    "bot.resolve": ("Record resolution", "记录解决方案"),
    "bot.run": ("Run checks on {host}", "在 {host} 上检查"),
    "bot.pick_host": ("Run checks on a host…", "选择主机进行检查…"),
    "bot.diagnosing": (
        "Checking {target}: {done}/{total} hosts done",
        "正在检查 {target}：{done}/{total} 台主机已完成",
    ),
    "bot.diagnosed": ("Checks on {target}: {total} hosts", "{target} 检查结果：共 {total} 台主机"),
    "bot.no_verdicts": ("No cause was confirmed or ruled out.", "没有原因被确认或排除。"),
    "bot.outputs": ("Full command outputs", "完整命令输出"),
    "bot.more": ("… {n} more in the attached outputs file", "… 另有 {n} 项见附件中的输出文件"),
    "bot.confirmed": ("confirmed", "已确认"),
    "bot.ruled_out": ("ruled out", "已排除"),
    "bot.inconclusive": ("inconclusive", "无法判断"),
    "bot.benign": ("benign", "无害"),
    "bot.pending": ("running", "运行中"),
    "bot.modal_title": ("Record resolution", "记录解决方案"),
    "bot.save": ("Save", "保存"),
    "bot.cancel": ("Cancel", "取消"),
    "bot.search": ("Search the knowledge base", "在知识库中搜索"),
    "bot.known_cause": ("The real cause (known)", "真正的原因（已知）"),
    "bot.or_new": (
        "…or describe a new cause (a title and what was wrong are needed):",
        "……或者描述一个新原因（至少需要标题和问题所在）：",
    ),
    "bot.new_title": ("New cause: title", "新原因：标题"),
    "bot.new_what": ("What was wrong", "问题出在哪里"),
    "bot.new_fix": ("How it was fixed", "如何修复的"),
    "bot.new_symptoms": ("Symptom lines (one per line)", "症状（每行一条）"),
    "bot.notes": ("Notes", "备注"),
    "bot.diagnosed.one": ("Checks on {target}: 1 host", "{target} 检查结果：共 1 台主机"),
    "bot.diagnosing.one": (
        "Checking {target}: {done}/1 host done",
        "正在检查 {target}：{done}/1 台主机已完成",
    ),
    "bot.stats.line": (
        "Last {days} days: {incidents} incident(s) opened ({open} open, {resolved} resolved, "
        "{no_action} closed as no action needed, {expired} expired); "
        "median time to resolution over the resolved ones: {median}",
        "最近 {days} 天：新开 {incidents} 个事件（{open} 个未关闭，{resolved} 个已解决，"
        "{no_action} 个无需处理，{expired} 个已过期）；已解决事件的解决耗时中位数：{median}",
    ),
    "bot.stats.unknown": ("unknown", "未知"),
    "bot.stats.minutes": ("{n} min", "{n} 分钟"),
    "bot.stats.top_causes": ("Top causes", "最常见的原因"),
    "bot.stats.hosts": ("Hosts", "主机"),
    "bot.stats.layers": ("Layers", "层级"),
}

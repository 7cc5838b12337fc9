"""What the command line says to people (`pitstop ask`, `diagnose`, `stats`, errors)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.stats.period": (
        "incidents opened since {since}: {incidents} ({open} open, {resolved} resolved, {no_action} closed as"
        " no action needed, {expired} expired after {quiet} quiet days)",
        "{since}以来新开的事件：{incidents} 个（{open} 个未关闭，{resolved} 个已解决，"
        "{no_action} 个无需处理，{expired} 个因 {quiet} 天无动静而过期）",
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
    "cli.error": ("pitstop: {message}", "pitstop：{message}"),
    "cli.interrupted": ("interrupted", "已中断"),
}

"""The App Home tab: incident figures, drafts waiting for review, the answer-language setting."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "home.title": ("Pitstop: the last {days} days", "Pitstop：最近 {days} 天"),
    "home.figures": (
        "{incidents} incidents ({open} open, {resolved} resolved); median time to resolution {median}",
        "{incidents} 个事件（{open} 个未关闭，{resolved} 个已解决）；解决耗时中位数 {median}",
    ),
    "home.hours": ("{n} h", "{n} 小时"),
    "home.top_causes": ("Top causes", "最常见的原因"),
    "home.top_hosts": ("Hosts with the most incidents", "事件最多的主机"),
    "home.layers": ("Causes per layer", "各层级的原因"),
    "home.drafts": ("Drafts waiting for review ({n})", "待审核的草稿（{n} 个）"),
    "home.hint": (
        "Paste an error in a channel I am in, mention @pitstop, or use `/diagnose HOSTS [error]`.",
        "在我所在的频道里贴出报错、@pitstop，或者使用 `/diagnose HOSTS [error]`。",
    ),
    "home.lang.label": ("Answer language", "回答语言"),
    "home.lang.auto": ("Follow my paste", "跟随我贴的内容"),
    "home.lang.en": ("English", "English（英文）"),  # each language also by its own name
    "home.lang.zh": ("中文 (Chinese)", "中文"),
}

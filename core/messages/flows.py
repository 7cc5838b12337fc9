"""Notices the use cases (`app.flows`) give a person, and the "Details" view of an answer."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "flows.details.unknown": (
        "Incident #{incident} has no recorded answer with {pitfall}; ask again for a fresh answer.",
        "事件 #{incident} 的回答里没有 {pitfall}；请重新提问以获得新的回答。",
    ),
    "flows.details.button": ("Details", "详情"),
    "flows.details.title": (
        "What ranked “{title}” for incident #{incident}",
        "事件 #{incident} 中“{title}”的排序依据",
    ),
    "flows.details.explain": (
        "The raw signals behind the ranking: signature regexes and the text they matched, terms shared "
        "with the entry, the nearest known examples and their similarity.",
        "排序背后的原始信号：签名正则及其匹配到的文字、与条目共有的词、最相近的已知示例及其相似度。",
    ),
    "flows.details.none": (
        "No signals were recorded for this cause (it ranked on overall similarity alone).",
        "这个原因没有记录到信号（仅凭整体相似度排序）。",
    ),
}

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
    "flows.empty_paste": (
        "Paste an error message (or describe the symptom) and I will look it up.",
        "请贴出报错信息（或描述症状），我来查找。",
    ),
    "flows.feedback.this": (
        "Thanks: {pitfall} marked as the cause for incident #{incident}.",
        "谢谢：已把 {pitfall} 记为事件 #{incident} 的原因。",
    ),
    "flows.feedback.not_it": (
        "Thanks: {pitfall} marked as not the cause for incident #{incident}.",
        "谢谢：已把 {pitfall} 记为不是事件 #{incident} 的原因。",
    ),
    "flows.choice.confirmed": ("confirmed on {host}", "已在 {host} 上确认"),
    "flows.choice.candidate": ("candidate {rank}", "候选 {rank}"),
    "flows.hosts": ("{expr} ({n} hosts)", "{expr}（{n} 台主机）"),
    "flows.resolved.existing": (
        "Incident #{incident} resolved as {cause}; its error text is now an example of that cause.",
        "事件 #{incident} 已解决，原因是 {cause}；它的报错文字已成为这个原因的示例。",
    ),
    "flows.resolved.empty": (
        "Incident #{incident} resolved as {cause}; it held no error text to learn from.",
        "事件 #{incident} 已解决，原因是 {cause}；其中没有可供学习的报错文字。",
    ),
    "flows.resolved.draft": (
        "Incident #{incident} resolved as a new cause: draft {cause}, unreviewed until a maintainer "
        "approves it.",
        "事件 #{incident} 已解决，原因是一个新原因：草稿 {cause}，维护者批准前不算审核通过。",
    ),
    "flows.resolved.merge": (
        "Incident #{incident} resolved; the new cause looks like {cause}, so a maintainer decides whether "
        "to merge it there.",
        "事件 #{incident} 已解决；这个新原因与 {cause} 很像，由维护者决定是否合并进去。",
    ),
    "flows.resolved.pending": (
        "Incident #{incident} resolved as {cause}; the knowledge base learns from it shortly.",
        "事件 #{incident} 已解决，原因是 {cause}；知识库稍后会从中学习。",
    ),
}

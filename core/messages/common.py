"""Words shared by every reader-facing surface: verdicts, confidence, languages."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "common.verdict.confirmed": ("confirmed", "已确认"),
    "common.verdict.ruled_out": ("ruled out", "已排除"),
    "common.verdict.inconclusive": ("inconclusive", "无法判断"),
    "common.confidence.high": ("high confidence", "高置信度"),
    "common.confidence.medium": ("medium confidence", "中等置信度"),
    "common.confidence.low": ("low confidence", "低置信度"),
    "common.lang.en": ("English", "英文"),
    "common.lang.zh": ("Chinese", "中文"),
    "common.lang.auto": ("follow the language of the paste", "跟随粘贴内容的语言"),
    "common.lang.set": ("Answers for you will be in {name}.", "以后给你的回答将使用{name}。"),
    "common.lang.set_auto": (
        "Answers for you will follow the language of your paste.",
        "以后给你的回答将跟随你粘贴内容的语言。",
    ),
    "common.lang.choose": (
        "Choose en, zh or auto (follow the language of the paste).",
        "请选择 en、zh 或 auto（跟随粘贴内容的语言）。",
    ),
    "common.benign": ("benign", "无害"),
    "common.draft": ("draft, not yet reviewed", "草稿，尚未审核"),
    "common.incident": ("incident #{id}", "事件 #{id}"),
}

"""The answer to a pasted error, as text (`pitstop ask`, the console, Slack's fallback) and in Slack."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "answer.heading": ("Likely causes", "可能的原因"),
    "answer.none": (
        "No known cause matches this text. Add more of the error output, or record the cause once found.",
        "知识库里没有与这段文字匹配的已知原因。请贴更多报错输出，找到原因后也可以记录下来。",
    ),
    "answer.no_confident": (
        "(no confident match in the knowledge base: these are weak guesses)",
        "（知识库里没有可信的匹配；下面是较弱的猜测）",
    ),
    "answer.truncated": (
        "(long paste: only its error-bearing lines were searched)",
        "（粘贴内容很长：只搜索了其中带报错的行）",
    ),
    "answer.flag.draft": ("draft, not yet reviewed", "草稿，尚未审核"),
    "answer.flag.benign": ("benign", "无害"),
    "answer.meta": (
        "{id} · {confidence} · layer {layer} · score {score}",
        "{id} · {confidence} · 层级 {layer} · 得分 {score}",
    ),
    "answer.why": ("why: {reason}", "依据：{reason}"),
    "answer.check": ("check: {description}", "检查：{description}"),
    "answer.fix": ("first step: {step}", "第一步：{step}"),
    "answer.details": ("details: {detail}", "细节：{detail}"),
}

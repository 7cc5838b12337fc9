"""What the command line says to people (`pitstop ask`, `diagnose`, `stats`, errors)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.ask.no_confident": (
        "No confident match in the knowledge base; weak guesses follow:",
        "知识库里没有可信的匹配；下面是较弱的猜测：",
    ),
    "cli.ask.truncated": (
        "(long paste: only its error-bearing lines were searched)",
        "（粘贴内容很长：只搜索了其中带报错的行）",
    ),
    "cli.ask.flag.draft": ("draft", "草稿"),
    "cli.ask.flag.benign": ("benign", "无害"),
    "cli.ask.meta": (
        "{id} · score {score} · {confidence} · layer {layer}",
        "{id} · 得分 {score} · {confidence} · 层级 {layer}",
    ),
    "cli.ask.why": ("why: {reason}", "依据：{reason}"),
    "cli.ask.fix": ("first step: {step}", "第一步：{step}"),
    "cli.ask.check": ("check: {description}", "检查：{description}"),
    "cli.ask.details": ("details: {detail}", "细节：{detail}"),
    "cli.error": ("pitstop: {message}", "pitstop：{message}"),
    "cli.interrupted": ("interrupted", "已中断"),
}

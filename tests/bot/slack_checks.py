"""Assertions about what the bot sent to Slack: Slack's limits on every message."""

from __future__ import annotations

from typing import Any

from pitstop.bot.render.blocks import MAX_BLOCKS, MAX_SECTION


def assert_within_limits(body: dict[str, Any]) -> None:
    """Fallback text present; at most 50 blocks; each section text at most 3,000 characters, its code
    blocks closed."""
    assert body.get("text"), "every message carries fallback text"
    blocks = body.get("blocks") or []
    assert len(blocks) <= MAX_BLOCKS
    for block in blocks:
        if block.get("type") == "section":
            assert len(block["text"]["text"]) <= MAX_SECTION
            assert block["text"]["text"].count("```") % 2 == 0, "a code block was cut open"


def all_text(body: dict[str, Any]) -> str:
    """Every string in a message body, joined (for content assertions)."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(body.get("blocks") or [])
    out.append(str(body.get("text") or ""))
    return "\n".join(out)

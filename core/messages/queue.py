"""The durable work queue's words (app/outbox.py)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "queue.full": (
        "Pitstop has too much work waiting; ask again in a few minutes.",
        "Pitstop 待处理的请求太多，请过几分钟再试。",
    ),
}

"""What the bot told people, read from the local Web API recorder: chat.* calls and response_url posts."""

from __future__ import annotations

import json
from typing import Any

from tests.bot.slack_checks import all_text


def said(calls: list[Any]) -> list[tuple[str, str]]:
    """(where, text) per message: `where` is the channel of a chat.* call or the response_url path."""
    out = []
    for call in calls:
        if call.method.startswith("chat.") and call.body:
            out.append((str(call.body.get("channel")), all_text(call.body)))
        elif call.method == "respond":
            body = json.loads(call.raw or b"{}")
            out.append((call.body["path"], all_text(body)))
    return out

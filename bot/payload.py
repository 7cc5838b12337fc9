"""Reading Slack interactivity payloads: where a click happened and what the clicked element carries."""

from __future__ import annotations

from typing import Any

from pitstop.bot import ids
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg


def where(body: dict[str, Any]) -> tuple[str, str | None]:
    """(channel, thread root ts) of the message holding the clicked element ('' when on App Home)."""
    channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id", "")
    message = body.get("message") or {}
    thread = (body.get("container") or {}).get("thread_ts") or message.get("thread_ts") or message.get("ts")
    return channel, thread


def clicked(body: dict[str, Any]) -> dict[str, Any]:
    """The decoded value of the clicked button or chosen menu option."""
    action = (body.get("actions") or [{}])[0]
    value = (action.get("selected_option") or {}).get("value") or action.get("value")
    return ids.unpack(value)


def action_id(body: dict[str, Any]) -> str:
    """The action id of the clicked element."""
    return str(((body.get("actions") or [{}])[0]).get("action_id") or "")


def incident_of(value: dict[str, Any]) -> int:
    """The incident id a button carries; a tampered or stale value is a UsageError."""
    try:
        return int(value["i"])
    except (KeyError, TypeError, ValueError):
        raise UsageError(msg("chat.stale_button")) from None


def draft_id(value: dict[str, Any]) -> str:
    """The draft id a button or modal carries; '' when tampered."""
    return str(value.get("d") or "")

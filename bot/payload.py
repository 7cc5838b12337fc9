"""Reading Slack interactivity payloads: where a click happened and what the clicked element carries.

What Slack asserts (who acted, in which conversation, which message) is trusted; what Pitstop wrote
into a button or a modal comes back as data to check: button values only name server-side state,
modal metadata is signed (`core.sealing`) and bound to the person it was opened for.
"""

from __future__ import annotations

from typing import Any

from pitstop.bot import ids
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg
from pitstop.core.sealing import Sealer, Tampered


def where(body: dict[str, Any]) -> tuple[str, str | None]:
    """(channel, thread root ts) of the message holding the clicked element ('' when on App Home)."""
    channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id", "")
    message = body.get("message") or {}
    thread = (body.get("container") or {}).get("thread_ts") or message.get("thread_ts") or message.get("ts")
    return channel, thread


def user_of(body: dict[str, Any]) -> str:
    """The Slack user who acted."""
    return str((body.get("user") or {}).get("id") or "")


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
    raw = value.get("i")
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise UsageError(msg("security.interaction.stale_button"))
    try:
        return int(raw)
    except ValueError:
        raise UsageError(msg("security.interaction.stale_button")) from None


def draft_id(value: dict[str, Any]) -> str:
    """The draft id a button or modal carries; '' when tampered."""
    return str(value.get("d") or "")


def seal_view(sealer: Sealer, callback_id: str, user: str, **fields: Any) -> str:
    """The private_metadata of a modal opened for `user`: `fields`, signed for that modal and person."""
    return sealer.seal(callback_id, {**fields, "u": user})


def view_metadata(sealer: Sealer, body: dict[str, Any]) -> dict[str, Any]:
    """The signed fields of the submitted (or searched) modal; `Tampered` when they were altered,
    forged, signed for another modal or opened for another person."""
    view = body.get("view") or {}
    fields = sealer.open(str(view.get("callback_id") or ""), view.get("private_metadata"))
    if not user_of(body) or fields.get("u") != user_of(body):
        raise Tampered()
    return fields

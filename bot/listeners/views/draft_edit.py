"""The draft edit modal's submission (maintainers only): a broken entry keeps the modal open."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.home import publish_home
from pitstop.bot.payload import draft_id, user_of, view_metadata
from pitstop.bot.render import blocks


def edit_values(view: dict[str, Any]) -> dict[str, Any]:
    """The edit modal's fields as `kb.drafts.edit` changes (list fields split into lines)."""
    state = (view.get("state") or {}).get("values") or {}
    changes: dict[str, Any] = {}
    for block_id, action_id, name, is_list in ids.DRAFT_FIELDS:
        text = str(((state.get(block_id) or {}).get(action_id) or {}).get("value") or "").strip()
        changes[name] = [line.strip() for line in text.splitlines() if line.strip()] if is_list else text
    return changes


def draft_edit_callback(
    ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient, deps: Deps
) -> None:
    """Save the edit, then update the draft's message (or the Home tab); a refusal shows in the modal.

    The message to update comes from the signed metadata (written when a maintainer opened the modal).
    """
    meta = view_metadata(deps.sealer, body)
    user = user_of(body)
    flows.require_maintainer(deps.maintainers.allows(user))
    card = flows.edit_draft(deps.services, draft_id(meta), edit_values(view), user=user)
    ack()
    if meta.get("c") and meta.get("m"):
        client.chat_update(channel=meta["c"], ts=meta["m"], **blocks.draft_message(card).kwargs())
    else:
        publish_home(deps, client, user)

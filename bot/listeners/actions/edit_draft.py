""" "Edit" on a draft (maintainers only): opens the edit modal pre-filled with the draft."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, draft_id, seal_view, user_of
from pitstop.bot.render import blocks


def edit_draft_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Open the edit modal; its signed metadata carries the draft and the message (where Slack says the
    click was) to update after the submission."""
    user = user_of(body)
    flows.require_maintainer(deps.maintainers.allows(user))
    card = flows.draft(deps.services, draft_id(clicked(body)))
    container = body.get("container") or {}
    fields = {"d": card.id, "c": container.get("channel_id"), "m": container.get("message_ts")}
    metadata = seal_view(deps.sealer, ids.VIEW_DRAFT_EDIT, user, **fields)
    client.views_open(trigger_id=body["trigger_id"], view=blocks.draft_edit_modal(card, metadata))
    ack()

""" "Approve draft" / "Reject draft" (maintainers only): the message or Home tab shows the outcome."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.home import publish_home
from pitstop.bot.payload import action_id, clicked, draft_id
from pitstop.bot.render import blocks

DECISIONS = {ids.ACTION_APPROVE: flows.approve_draft, ids.ACTION_REJECT: flows.reject_draft}


def review_draft_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Approve or reject the draft; update the message that held the buttons, or the Home tab."""
    user = body["user"]["id"]
    flows.require_maintainer(deps.maintainers.allows(user))
    card = DECISIONS[action_id(body)](deps.services, draft_id(clicked(body)), user=user)
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    if container.get("type") == "message" and channel:
        client.chat_update(channel=channel, ts=container["message_ts"], **blocks.draft_message(card).kwargs())
    else:
        publish_home(deps, client, user)
    ack()

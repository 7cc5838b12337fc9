""" "This was it" / "Not it" under a cause: recorded once per person, confirmed to them alone."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.payload import action_id, clicked, incident_of, where
from pitstop.bot.slack_io import tell


def feedback_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Record the click as helpful (`ACTION_THIS`) or not (`ACTION_NOT_IT`)."""
    channel, thread = where(body)
    value, user = clicked(body), body["user"]["id"]
    notice = flows.feedback(
        deps.services,
        incident_of(value),
        user=user,
        pitfall=str(value.get("p", "")),
        helpful=action_id(body) == ids.ACTION_THIS,
    )
    tell(client, channel, user, notice.text, ok=True, thread_ts=thread)
    ack()

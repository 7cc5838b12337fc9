""" "This was it" / "Not it" under a cause: recorded once per person, confirmed to them alone."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows, interactions
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.payload import action_id, clicked, incident_of, user_of, where
from pitstop.bot.slack_io import tell


def feedback_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Record the click as helpful (`ACTION_THIS`) or not (`ACTION_NOT_IT`), if the incident is this
    conversation's and the cause one the KB holds."""
    channel, _ = where(body)
    value, user = clicked(body), user_of(body)
    record = interactions.incident_in(deps.services, incident_of(value), channel=channel)
    notice = flows.feedback(
        deps.services,
        record.id,
        user=user,
        pitfall=str(value.get("p", "")),
        helpful=action_id(body) == ids.ACTION_THIS,
    )
    tell(client, record.channel, user, notice.text, ok=True, thread_ts=record.thread_ts)
    ack()

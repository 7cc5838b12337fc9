""" "Details" under a cause: the raw signals behind its rank, shown to the person who asked alone."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows, interactions
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, incident_of, user_of, where
from pitstop.bot.render import blocks


def details_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Post the cause's signature regexes, shared terms and nearest examples as an ephemeral message
    (only for an incident of the conversation the click came from: the examples quote pastes)."""
    channel, _ = where(body)
    value, user = clicked(body), user_of(body)
    record = interactions.incident_in(deps.services, incident_of(value), channel=channel)
    card = flows.details(deps.services, record.id, str(value.get("p", "")), user=user)
    client.chat_postEphemeral(
        channel=record.channel, user=user, thread_ts=record.thread_ts, **blocks.details_message(card).kwargs()
    )
    ack()

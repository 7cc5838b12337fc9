""" "Details" under a cause: the raw signals behind its rank, shown to the person who asked alone."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, incident_of, where
from pitstop.bot.render import blocks


def details_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Post the cause's signature regexes, shared terms and nearest examples as an ephemeral message."""
    channel, thread = where(body)
    value, user = clicked(body), body["user"]["id"]
    card = flows.details(deps.services, incident_of(value), str(value.get("p", "")), user=user)
    client.chat_postEphemeral(
        channel=channel, user=user, thread_ts=thread, **blocks.details_message(card).kwargs()
    )
    ack()

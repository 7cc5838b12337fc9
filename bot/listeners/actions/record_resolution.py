""" "Record resolution": opens the resolution modal for the thread's incident."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows, interactions
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, incident_of, seal_view, user_of, where
from pitstop.bot.render import blocks


def record_resolution_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Open the modal for an unresolved incident of this conversation; its signed metadata names only
    the incident and the person (the reply goes to the incident's own thread)."""
    channel, _ = where(body)
    record = interactions.unresolved(
        interactions.incident_in(deps.services, incident_of(clicked(body)), channel=channel)
    )
    form = flows.resolution_form(deps.services, record.id, user_of(body))
    metadata = seal_view(deps.sealer, ids.VIEW_RESOLUTION, user_of(body), i=record.id)
    client.views_open(trigger_id=body["trigger_id"], view=blocks.resolution_modal(form, metadata))
    ack()

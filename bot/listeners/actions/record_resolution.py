""" "Record resolution": opens the resolution modal for the thread's incident."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, incident_of, where
from pitstop.bot.render import blocks


def record_resolution_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Open the modal; it carries the incident, channel and thread for the submission."""
    channel, thread = where(body)
    iid = incident_of(clicked(body))
    form = flows.resolution_form(deps.services, iid, body["user"]["id"])
    metadata = ids.pack(i=iid, c=channel, t=thread, l=form.lang)
    client.views_open(trigger_id=body["trigger_id"], view=blocks.resolution_modal(form, metadata))
    ack()

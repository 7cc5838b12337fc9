"""The cause menu of the resolution modal: KB search as the person types (a failure: no options)."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack

from pitstop.app import flows
from pitstop.bot.deps import Deps
from pitstop.bot.payload import incident_of, view_metadata
from pitstop.bot.render import blocks


def causes_callback(ack: Ack, body: dict[str, Any], deps: Deps) -> None:
    """Offer the causes matching the typed words, the incident's own answer first (the modal's signed
    metadata names the incident; altered metadata gets no options)."""
    iid = incident_of(view_metadata(deps.sealer, body))
    choices = flows.search_causes(deps.services, str(body.get("value") or ""), iid)
    ack(options=blocks.cause_options(choices))

"""The cause menu of the resolution modal: KB search as the person types (a failure: no options)."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.render import blocks


def causes_callback(ack: Ack, body: dict[str, Any], deps: Deps) -> None:
    """Offer the causes matching the typed words, the incident's own answer first."""
    meta = ids.unpack((body.get("view") or {}).get("private_metadata"))
    iid = meta.get("i") if isinstance(meta.get("i"), int) else None
    choices = flows.search_causes(deps.services, str(body.get("value") or ""), iid)
    ack(options=blocks.cause_options(choices))

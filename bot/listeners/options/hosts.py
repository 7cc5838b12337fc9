"""The host picker of an answer: the inventory searched as the person types (a failure: no options)."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.payload import user_of
from pitstop.bot.render import blocks


def hosts_callback(ack: Ack, body: dict[str, Any], deps: Deps) -> None:
    """Offer the hosts matching the typed text, in the reader's language (their App Home choice, else
    their paste's); the answer's incident rides in the block id."""
    meta = ids.unpack(body.get("block_id"))
    iid = meta.get("i") if isinstance(meta.get("i"), int) else None
    lang = flows.incident_reader_lang(deps.services, user_of(body), iid)
    choices = flows.search_hosts(deps.services, str(body.get("value") or ""), lang=lang)
    ack(options=blocks.host_options(choices, iid))

""" "Run checks on HOST" (a button, or the host menu): diagnose with the incident's pasted error."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.bot.checks import start_checks
from pitstop.bot.delivery import trigger_key
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, incident_of, where


def run_checks_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Queue checks on the clicked or chosen host, in the answer's thread."""
    channel, thread = where(body)
    user = body["user"]["id"]
    value = clicked(body)
    error_text, lang = None, None
    if value.get("i") is not None:
        record = deps.services.incidents.get(incident_of(value))
        error_text, lang = record.error_text or None, record.lang
    start_checks(
        deps,
        client,
        key=trigger_key(body),
        target=str(value.get("h") or ""),
        error_text=error_text,
        user=user,
        channel=channel,
        thread_ts=thread,
        lang=lang,
    )
    ack()

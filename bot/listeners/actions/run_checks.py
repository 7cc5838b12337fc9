""" "Run checks on HOST" (a button, or the host menu): diagnose with the incident's pasted error."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import interactions
from pitstop.bot.checks import start_checks
from pitstop.bot.delivery import trigger_key
from pitstop.bot.deps import Deps
from pitstop.bot.payload import clicked, incident_of, user_of, where


def run_checks_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Queue checks on the clicked or chosen host; with an incident (it must be this conversation's),
    in its thread with its pasted error."""
    channel, thread = where(body)
    value = clicked(body)
    error_text, lang = None, None
    if value.get("i") is not None:
        record = interactions.incident_in(deps.services, incident_of(value), channel=channel)
        error_text, lang, thread = record.error_text or None, record.lang, record.thread_ts
    start_checks(
        deps,
        client,
        key=trigger_key(body),
        target=str(value.get("h") or ""),
        error_text=error_text,
        user=user_of(body),
        channel=channel,
        thread_ts=thread,
        lang=lang,
    )
    ack()

"""Button and menu listeners: feedback, "Record resolution" (opens the modal), "Run checks on HOST"."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from pitstop.bot import flows, ids
from pitstop.bot.errors import describe
from pitstop.bot.listeners import Deps
from pitstop.bot.listeners.checks import start_checks
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import tell
from pitstop.core.errors import UsageError


def where(body: dict[str, Any]) -> tuple[str, str | None]:
    """(channel, thread root ts) of the message holding the clicked element."""
    channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id", "")
    message = body.get("message") or {}
    thread = (body.get("container") or {}).get("thread_ts") or message.get("thread_ts") or message.get("ts")
    return channel, thread


def clicked(body: dict[str, Any]) -> dict[str, Any]:
    """The decoded value of the clicked button or chosen menu option."""
    action = (body.get("actions") or [{}])[0]
    value = (action.get("selected_option") or {}).get("value") or action.get("value")
    return ids.unpack(value)


def incident_of(value: dict[str, Any]) -> int:
    """The incident id a button carries; a tampered or stale value is a UsageError."""
    try:
        return int(value["i"])
    except (KeyError, TypeError, ValueError):
        raise UsageError("That button no longer works; ask again to get a fresh answer.") from None


def register(app: App, deps: Deps) -> None:
    """Register the action listeners."""
    services = deps.services

    def feedback(ack: Ack, body: dict[str, Any], client: WebClient, helpful: bool) -> None:
        ack()
        channel, thread = where(body)
        value, user = clicked(body), body["user"]["id"]
        try:
            notice = flows.feedback(
                services, incident_of(value), user=user, pitfall=str(value.get("p", "")), helpful=helpful
            )
            tell(client, channel, user, notice.text, ok=True, thread_ts=thread)
        except Exception as exc:  # noqa: BLE001 - one sentence to the person who clicked
            tell(client, channel, user, describe(exc), thread_ts=thread)

    @app.action(ids.ACTION_THIS)
    def on_this(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        feedback(ack, body, client, helpful=True)

    @app.action(ids.ACTION_NOT_IT)
    def on_not_it(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        feedback(ack, body, client, helpful=False)

    @app.action(ids.ACTION_RESOLVE)
    def on_resolve(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        channel, thread = where(body)
        user = body["user"]["id"]
        try:
            iid = incident_of(clicked(body))
            form = flows.resolution_form(services, iid)
        except Exception as exc:  # noqa: BLE001
            tell(client, channel, user, describe(exc), thread_ts=thread)
            return
        metadata = ids.pack(i=iid, c=channel, t=thread)
        client.views_open(trigger_id=body["trigger_id"], view=blocks.resolution_modal(form, metadata))

    def run(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        channel, thread = where(body)
        user = body["user"]["id"]
        value = clicked(body)
        host = str(value.get("h") or "")
        error_text, lang = None, None
        try:
            if value.get("i") is not None:
                record = services.incidents.get(incident_of(value))
                error_text, lang = record.error_text or None, record.lang
        except Exception as exc:  # noqa: BLE001
            tell(client, channel, user, describe(exc), thread_ts=thread)
            return
        start_checks(
            deps,
            client,
            target=host,
            error_text=error_text,
            user=user,
            channel=channel,
            thread_ts=thread,
            lang=lang,
        )

    app.action(ids.ACTION_RUN)(run)
    app.action(ids.ACTION_PICK_HOST)(run)

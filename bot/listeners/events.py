"""Event listeners: pasted errors and @mentions get one thread reply; everything else is ignored.

Every event type the manifest subscribes to has a listener here (an unmatched event gets a 404
and Slack retries it).
"""

from __future__ import annotations

import html
import re
from typing import Any

from slack_bolt import App, BoltContext
from slack_bolt.request import BoltRequest
from slack_sdk import WebClient

from pitstop.bot import flows
from pitstop.bot.errors import describe
from pitstop.bot.listeners import Deps
from pitstop.bot.render import blocks
from pitstop.bot.render.model import Notice
from pitstop.bot.slack_io import post

SUBSCRIBED_EVENTS: tuple[str, ...] = (
    "app_mention",
    "message",
    "app_home_opened",
)  # the last: listeners/home.py
# Message subtypes that are still a person writing something new.
ANSWERABLE_SUBTYPES: frozenset[str | None] = frozenset({None, "thread_broadcast", "file_share"})
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")


def register(app: App, deps: Deps) -> None:
    """Register the event listeners."""

    @app.event("app_mention")
    def on_mention(
        event: dict[str, Any],
        body: dict[str, Any],
        context: BoltContext,
        client: WebClient,
        request: BoltRequest,
    ) -> None:
        _maybe_answer(deps, event, body, context, client, request, mentioned=True)

    @app.event("message")
    def on_message(
        event: dict[str, Any],
        body: dict[str, Any],
        context: BoltContext,
        client: WebClient,
        request: BoltRequest,
    ) -> None:
        # A direct message is addressed to the bot as much as a mention is.
        mentioned = event.get("channel_type") == "im" or (
            bool(context.bot_user_id) and f"<@{context.bot_user_id}" in (event.get("text") or "")
        )
        _maybe_answer(deps, event, body, context, client, request, mentioned=mentioned)


def is_from_person(event: dict[str, Any], bot_user_id: str | None) -> bool:
    """False for edits, deletions, hidden events, bot messages (any app's) and our own messages."""
    if event.get("subtype") not in ANSWERABLE_SUBTYPES or event.get("hidden"):
        return False
    if event.get("bot_id") or event.get("bot_profile"):
        return False
    return bool(event.get("user")) and event.get("user") != bot_user_id


def paste_text(event: dict[str, Any]) -> str:
    """The message text without @mentions, with Slack's &amp;/&lt;/&gt; escapes undone."""
    return html.unescape(_MENTION.sub(" ", event.get("text") or "")).strip()


def _maybe_answer(
    deps: Deps,
    event: dict[str, Any],
    body: dict[str, Any],
    context: BoltContext,
    client: WebClient,
    request: BoltRequest,
    *,
    mentioned: bool,
) -> None:
    if not is_from_person(event, context.bot_user_id):
        return
    channel, ts = event.get("channel", ""), event.get("ts", "")
    text = paste_text(event)
    if not mentioned:
        if deps.services.channel_modes.mode(channel) != "auto":
            return
        if event.get("thread_ts") not in (None, ts):
            return  # inside a thread people talk among themselves; only a mention is for the bot
        if not deps.services.detector.looks_like_error(text, event.get("blocks") or ()):
            return
    if not deps.seen.claim(("event", body.get("event_id")), ("msg", channel, ts)):
        return  # the same message already arrived (a retry, or app_mention + message)
    thread = event.get("thread_ts") or ts
    retried = bool(request.headers.get("x-slack-retry-num"))
    if not deps.services.jobs.submit(
        _answer, deps, client, text, channel, thread, ts, event["user"], retried
    ):
        post(
            client,
            channel,
            blocks.notice_message(Notice("Pitstop is busy; ask again in a minute.")),
            thread_ts=thread,
        )


def _answer(
    deps: Deps, client: WebClient, text: str, channel: str, thread: str, ts: str, user: str, retried: bool
) -> None:
    services = deps.services
    if retried and thread == ts and services.incidents.find_by_thread(channel, thread) is not None:
        return  # a retry of a message answered before this process started
    try:
        message = blocks.answer_message(
            flows.answer(services, text, channel=channel, thread_ts=thread, user=user)
        )
    except Exception as exc:  # noqa: BLE001 - the reply says what went wrong instead
        message = blocks.notice_message(Notice(describe(exc)))
    post(client, channel, message, thread_ts=thread)

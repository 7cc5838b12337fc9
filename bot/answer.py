"""Answering a paste in Slack: which messages get a reply, and the reply posted in the thread."""

from __future__ import annotations

import html
import re
from typing import Any

from slack_bolt import BoltContext
from slack_bolt.request import BoltRequest
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.app.cards import Notice
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reporting
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import post
from pitstop.core.i18n import detect_lang, t

# Message subtypes that are still a person writing something new.
ANSWERABLE_SUBTYPES: frozenset[str | None] = frozenset({None, "thread_broadcast", "file_share"})
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")


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


def maybe_answer(
    deps: Deps,
    event: dict[str, Any],
    body: dict[str, Any],
    context: BoltContext,
    client: WebClient,
    request: BoltRequest,
    *,
    mentioned: bool,
) -> None:
    """Queue one thread reply to a person's message when it is for the bot (mentioned, or an error)."""
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
            blocks.notice_message(
                Notice(t("chat.busy", flows.reader_lang(deps.services, event["user"], detect_lang(text))))
            ),
            thread_ts=thread,
        )


def _answer(
    deps: Deps, client: WebClient, text: str, channel: str, thread: str, ts: str, user: str, retried: bool
) -> None:
    services = deps.services
    if retried and thread == ts and services.incidents.find_by_thread(channel, thread) is not None:
        return  # a retry of a message answered before this process started
    message = reporting(
        lambda: blocks.answer_message(
            flows.answer(services, text, channel=channel, thread_ts=thread, user=user)
        ),
        # the reply says what went wrong instead
        lambda sentence: post(client, channel, blocks.notice_message(Notice(sentence)), thread_ts=thread),
        flows.reader_lang(services, user, detect_lang(text)),
    )
    if message is not None:
        post(client, channel, message, thread_ts=thread)

"""Answering a paste in Slack: which messages get a reply, and the reply posted in the thread."""

from __future__ import annotations

import html
import re
from typing import Any

from slack_bolt import BoltContext
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.app.cards import Notice
from pitstop.app.outbox import Entry, QueueFull
from pitstop.bot.delivery import Delivery
from pitstop.bot.deps import Deps
from pitstop.bot.errors import describe, reporting
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import post
from pitstop.core.i18n import detect_lang

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


KIND = "answer"  # outbox rows: one paste to answer in its thread


def maybe_answer(
    deps: Deps,
    event: dict[str, Any],
    context: BoltContext,
    client: WebClient,
    *,
    mentioned: bool,
) -> None:
    """Store one thread reply to a person's message in the outbox when it is for the bot (mentioned, or
    an error); the message's channel and ts are the delivery key, so a retry or the app_mention/message
    pair of one message is answered once."""
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
    thread = event.get("thread_ts") or ts
    work = {"channel": channel, "thread": thread, "user": event["user"], "text": text}
    try:
        deps.services.jobs.put(KIND, f"msg:{channel}:{ts}", work)
    except QueueFull as exc:
        lang = flows.reader_lang(deps.services, event["user"], detect_lang(text))
        post(client, channel, blocks.notice_message(Notice(describe(exc, lang))), thread_ts=thread)


def answer_entry(deps: Deps, client: WebClient, entry: Entry) -> None:
    """Answer one stored paste in its thread, once: a retried row first looks for its earlier reply."""
    work = entry.payload
    channel, thread = work["channel"], work["thread"]
    out = Delivery(client, entry, channel)
    message = reporting(
        lambda: blocks.answer_message(
            flows.answer(deps.services, work["text"], channel=channel, thread_ts=thread, user=work["user"])
        ),
        # the reply says what went wrong instead
        lambda sentence: out.post(blocks.notice_message(Notice(sentence)), thread_ts=thread, part="reply"),
        flows.reader_lang(deps.services, work["user"], detect_lang(work["text"])),
    )
    if message is not None:
        out.post(message, thread_ts=thread, part="reply")

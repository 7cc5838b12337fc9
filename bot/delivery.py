"""Posting the outcome of one outbox row at most once, even when a crash interrupted an earlier attempt.

Every message a row posts carries Slack message metadata (`event_type` `pitstop_outbox`, the row id
and the message's part in `event_payload`). A row claimed again (`Entry.retry`) first reads the
thread (conversations.replies) or the channel since the row was stored (conversations.history) with
`include_all_metadata`, and a part found there is not posted again: its ts is reused.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from slack_sdk import WebClient

from pitstop.app.outbox import Entry
from pitstop.bot.render.blocks import SlackMessage
from pitstop.bot.slack_io import post

log = logging.getLogger(__name__)

EVENT_TYPE = "pitstop_outbox"
CLOCK_SLACK_S = 300  # how far Slack's clock may lag ours when reading the channel since the row was stored
PAGES = 10  # at most this many pages of history are read


def trigger_key(body: dict[str, Any]) -> str:
    """The delivery key of a slash command or an interaction: its trigger id, unique per request (a
    payload without one, which Slack never sends, gets a fresh key and so no deduplication)."""
    return f"trigger:{body.get('trigger_id') or uuid.uuid4().hex}"


class Delivery:
    """The posts of one outbox row in one channel: `post` skips a part an earlier attempt already posted."""

    def __init__(self, client: WebClient, entry: Entry, channel: str) -> None:
        self._client, self._entry, self._channel = client, entry, channel
        self._history: dict[str | None, list[dict[str, Any]]] = {}  # thread (None: channel) -> messages

    def post(self, message: SlackMessage, *, thread_ts: str | None, part: str) -> str:
        """Post `message` (in `thread_ts` when given) unless this row already did; returns the ts."""
        earlier = self._earlier(thread_ts).get(part)
        if earlier is not None:
            log.info("outbox row %d: %s was already posted before a restart", self._entry.id, part)
            return str(earlier["ts"])
        metadata = {"event_type": EVENT_TYPE, "event_payload": {"id": self._entry.id, "part": part}}
        return post(self._client, self._channel, message, thread_ts=thread_ts, metadata=metadata)

    def _earlier(self, thread_ts: str | None) -> dict[str, dict[str, Any]]:
        """This row's messages already in the thread (or channel), by part; empty on a first attempt."""
        if not self._entry.retry:
            return {}
        return {
            str(payload.get("part")): message
            for message in self._messages(thread_ts)
            if (payload := _outbox_payload(message)) is not None and payload.get("id") == self._entry.id
        }

    def has_file(self, thread_ts: str, name: str) -> bool:
        """Whether a file called `name` was already shared in the thread (files carry no metadata)."""
        if not self._entry.retry:
            return False
        return any(f.get("name") == name for m in self._messages(thread_ts) for f in m.get("files") or ())

    def _messages(self, thread_ts: str | None) -> list[dict[str, Any]]:
        if thread_ts not in self._history:
            self._history[thread_ts] = self._read(thread_ts)
        return self._history[thread_ts]

    def _read(self, thread_ts: str | None) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        cursor = None
        for _ in range(PAGES):
            if thread_ts:
                page = self._client.conversations_replies(
                    channel=self._channel, ts=thread_ts, include_all_metadata=True, cursor=cursor, limit=200
                )
            else:
                since = datetime.fromisoformat(self._entry.created_at).timestamp() - CLOCK_SLACK_S
                page = self._client.conversations_history(
                    channel=self._channel,
                    oldest=f"{since:.6f}",
                    include_all_metadata=True,
                    cursor=cursor,
                    limit=200,
                )
            messages += page.get("messages") or []
            cursor = (page.get("response_metadata") or {}).get("next_cursor")
            if not cursor:
                break
        return messages


def _outbox_payload(message: dict[str, Any]) -> dict[str, Any] | None:
    metadata = message.get("metadata") or {}
    if metadata.get("event_type") != EVENT_TYPE:
        return None
    payload = metadata.get("event_payload")
    return payload if isinstance(payload, dict) else None

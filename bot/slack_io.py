"""Outgoing Slack calls the listeners share: replies, ephemerals, throttled updates, file uploads.

Each function takes the `WebClient` Bolt passes to listeners; the client retries 429s after
`Retry-After` (see `bot.app.make_client`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from pitstop.app.cards import Notice
from pitstop.bot.render.blocks import SlackMessage, notice_message
from pitstop.core.redact import redact
from pitstop.core.terminal import printable

log = logging.getLogger(__name__)


def post(
    client: WebClient,
    channel: str,
    message: SlackMessage,
    thread_ts: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> str:
    """Post `message` (in a thread when `thread_ts`, with message `metadata` when given); returns its ts."""
    response = client.chat_postMessage(
        channel=channel,
        thread_ts=thread_ts,
        unfurl_links=False,
        unfurl_media=False,
        metadata=metadata,
        **message.kwargs(),
    )
    return str(response["ts"])


def tell(
    client: WebClient, channel: str, user: str, text: str, *, ok: bool = False, thread_ts: str | None = None
) -> None:
    """Show `text` to `user` only (ephemeral); a failure to do so is logged, not raised."""
    message = notice_message(Notice(text, ok=ok))
    try:
        client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, **message.kwargs())
    except SlackApiError as exc:
        log.warning("could not tell %s in %s: %s", user, channel, exc.response.get("error"))


def upload_text(
    client: WebClient, channel: str, thread_ts: str, content: str, filename: str, title: str
) -> None:
    """Attach `content` (redacted, control and bidi characters shown as `\\uXXXX`) as a file in the
    thread (files_upload_v2: the external upload flow): a downloaded copy shown by `cat` obeys nothing
    a host printed."""
    client.files_upload_v2(
        channel=channel,
        thread_ts=thread_ts,
        content=printable(redact(content)),
        filename=filename,
        title=title,
    )


class ThrottledUpdater:
    """chat.update for one message, at most once per `interval_s`; `finish` always sends the last state.

    Progress from many hosts arrives in bursts; Slack allows about one update per second per
    message, and people do not want a flickering message either.
    """

    def __init__(
        self,
        client: WebClient,
        channel: str,
        ts: str,
        interval_s: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client, self._channel, self._ts = client, channel, ts
        self._interval, self._clock = interval_s, clock
        self._last = clock()
        self._lock = threading.Lock()
        self.sent = 0

    def update(self, message: SlackMessage) -> None:
        """Send `message` unless an update went out less than `interval_s` ago."""
        with self._lock:
            if self._clock() - self._last < self._interval:
                return
            self._send(message)

    def finish(self, message: SlackMessage) -> None:
        """Send the final state unconditionally."""
        with self._lock:
            self._send(message)

    def _send(self, message: SlackMessage) -> None:
        self._client.chat_update(channel=self._channel, ts=self._ts, **message.kwargs())
        self._last = self._clock()
        self.sent += 1

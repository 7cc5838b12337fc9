"""Refuse replayed Slack requests in HTTP mode: a signed slash command or interaction runs once.

The HTTP front (`pitstop.bot.http`) accepts any correctly signed request whose timestamp is within 5
minutes, so a captured request could be posted again in that window. Every accepted command and
interaction leaves its signature (HMAC over timestamp and body, so unique per request) in the
`slack_requests` table for `WINDOW_S`; the same signature again is acknowledged and dropped. Events
are left alone: Slack retries them (X-Slack-Retry-Num, signed anew), and a retry or a replay of one
is the same outbox row, keyed by its event id (`pitstop.bot.inbox`). Socket Mode carries no signature.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import sqlite_utils
from slack_bolt.request import BoltRequest
from slack_bolt.request.payload_utils import is_event
from slack_bolt.response import BoltResponse

from pitstop.core.db import immediate

WINDOW_S = 600  # timestamps over 300 s away are refused; twice that covers a clock either side
_LOG = logging.getLogger(__name__)


class Replays:
    """Signatures of accepted requests, kept in SQLite (so a restart remembers them) for the window."""

    def __init__(
        self, db: Callable[[], sqlite_utils.Database], *, clock: Callable[[], float] = time.time
    ) -> None:
        self._db = db
        self._clock = clock

    def first(self, signature: str, request_ts: int, kind: str) -> bool:
        """Record `signature`; True when it had not been seen within the window (forget older ones)."""
        db = self._db()
        with immediate(db):
            db.execute("DELETE FROM slack_requests WHERE request_ts < ?", [int(self._clock()) - WINDOW_S])
            cursor = db.execute(
                "INSERT OR IGNORE INTO slack_requests (signature, request_ts, kind) VALUES (?, ?, ?)",
                [signature, request_ts, kind],
            )
            return cursor.rowcount == 1


def refuse_replays(replays: Replays) -> Callable[..., BoltResponse | None]:
    """Bolt middleware (the signature was checked by the HTTP front): a replayed command or interaction
    gets an empty 200 and reaches no listener."""

    def middleware(req: BoltRequest, body: dict[str, Any], next_: Callable[[], None]) -> BoltResponse | None:
        signature = req.headers.get("x-slack-signature", [""])[0]
        stamp = req.headers.get("x-slack-request-timestamp", [""])[0]
        if not signature or not stamp.isdigit() or is_event(body) or body.get("type") == "url_verification":
            next_()
            return None
        kind = "command" if "command" in body else str(body.get("type") or "interaction")
        if replays.first(signature, int(stamp), kind):
            next_()
            return None
        _LOG.warning("Refused a replayed Slack %s (signature seen within %d s)", kind, WINDOW_S)
        return BoltResponse(status=200, body="")

    return middleware

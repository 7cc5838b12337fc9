"""Signed Slack commands and interactions already accepted, so a replay within Slack's 5-minute
signature window does not run again, across restarts too (`pitstop.bot.replay`)."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m011_slack_requests")
def m011_slack_requests(db: sqlite_utils.Database) -> None:
    """Create the slack_requests table: one row per accepted signature, with its request timestamp."""
    db.execute(
        "CREATE TABLE slack_requests ("
        " signature TEXT PRIMARY KEY,"
        " request_ts INTEGER NOT NULL,"
        " kind TEXT NOT NULL) WITHOUT ROWID"
    )
    db.execute("CREATE INDEX slack_requests_ts ON slack_requests (request_ts)")

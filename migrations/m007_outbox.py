"""The outbox: Slack work (answers, diagnoses, resolutions) stored before the request is acknowledged.

One row per delivery. `key` is the delivery's identity (a message's channel and ts, a command's or
an interaction's trigger id) and is unique, so a retry, an event pair or a replay finds the row
already there and does nothing. `state` moves pending -> running -> done (or failed after the
last attempt); a row left running by a dead process goes back to pending. `payload_json` holds the
redacted fields the work needs and is emptied when the row is done; done rows stay for the
deduplication window, then are deleted.
"""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations

STATES = ("pending", "running", "done", "failed")


@migrations(name="m007_outbox")
def m007_outbox(db: sqlite_utils.Database) -> None:
    """Create the outbox table and its indexes."""
    allowed = ", ".join(f"'{s}'" for s in STATES)
    db.execute(
        "CREATE TABLE outbox ("
        " id INTEGER PRIMARY KEY,"
        " kind TEXT NOT NULL,"
        " key TEXT NOT NULL,"
        " payload_json TEXT NOT NULL DEFAULT '{}',"
        f" state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ({allowed})),"
        " attempts INTEGER NOT NULL DEFAULT 0,"
        " owner TEXT,"
        " error TEXT,"
        " created_at TEXT NOT NULL,"
        " due_at TEXT NOT NULL,"
        " claimed_at TEXT,"
        " finished_at TEXT)"
    )
    db.execute("CREATE UNIQUE INDEX outbox_key ON outbox (key)")
    db.execute("CREATE INDEX outbox_state ON outbox (state, due_at, id)")

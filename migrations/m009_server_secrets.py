"""Secrets the server keeps for itself: the key that signs what Pitstop round-trips through Slack.

One row per purpose; `core.sealing.server_secret` creates a row (32 random bytes) on first use. The
database is owner-only (0600 in a 0700 directory), so the secret is as private as the incidents.
"""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m009_server_secrets")
def m009_server_secrets(db: sqlite_utils.Database) -> None:
    """Create the server_secrets table."""
    db.execute(
        "CREATE TABLE server_secrets ("
        " name TEXT PRIMARY KEY,"
        " secret BLOB NOT NULL CHECK (length(secret) >= 32),"
        " created_at TEXT NOT NULL)"
    )

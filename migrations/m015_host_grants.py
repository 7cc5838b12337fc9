"""Host checks the authorization policy allowed, one row per allowed request, so the hourly cap
counts a check from the moment it is allowed (not once it is audited) across the bot and the CLI."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m015_host_grants")
def m015_host_grants(db: sqlite_utils.Database) -> None:
    """Create the host_grants table: who was allowed how many host checks, and when."""
    db.execute(
        "CREATE TABLE host_grants ("
        " id INTEGER PRIMARY KEY,"
        " ts TEXT NOT NULL,"
        " requester TEXT NOT NULL,"
        " hosts INTEGER NOT NULL)"
    )
    db.execute("CREATE INDEX host_grants_requester_ts ON host_grants (requester, ts)")

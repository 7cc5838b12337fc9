"""Per-user settings: the answer language a person chose (App Home, console `:lang`)."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m004_prefs")
def m004_prefs(db: sqlite_utils.Database) -> None:
    """Create the user_prefs table."""
    db.execute(
        "CREATE TABLE user_prefs ("
        " user TEXT PRIMARY KEY,"
        " lang TEXT NOT NULL CHECK (lang IN ('en', 'zh')),"
        " updated_at TEXT NOT NULL)"
    )

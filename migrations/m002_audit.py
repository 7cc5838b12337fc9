"""The audit trail: one row per command Pitstop ran (or refused) on a host, with who asked and from where."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations

STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS audit (
        id INTEGER PRIMARY KEY,
        ts TEXT NOT NULL,
        requester TEXT NOT NULL,
        origin TEXT NOT NULL,
        host TEXT NOT NULL,
        collector TEXT NOT NULL,
        argv_json TEXT NOT NULL,
        outcome TEXT NOT NULL,
        exit INTEGER,
        duration_s REAL NOT NULL,
        output_bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL DEFAULT 0,
        message TEXT NOT NULL DEFAULT ''
    )""",
    "CREATE INDEX IF NOT EXISTS audit_ts ON audit(ts)",
    "CREATE INDEX IF NOT EXISTS audit_host_ts ON audit(host, ts)",
    "CREATE INDEX IF NOT EXISTS audit_requester_ts ON audit(requester, ts)",
)


@migrations(name="m002_audit")
def m002_audit(db: sqlite_utils.Database) -> None:
    """Create the audit table and its lookup indexes."""
    for statement in STATEMENTS:
        db.execute(statement)

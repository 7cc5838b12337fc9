"""Incidents close: as resolved, as "no action needed", or by expiry after a quiet period.

`status` gains 'no_action' and 'expired'; `closed_at` and `closed_by` record when and by whom
(`pitstop` for an expiry) an incident closed. SQLite
cannot change a CHECK constraint in place, so the table is rebuilt with foreign keys off (the
procedure in https://www.sqlite.org/lang_altertable.html#otheralter); that needs its own
transaction, hence `transactional=False`.
"""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations

STATUSES = ("open", "resolved", "no_action", "expired")


@migrations(name="m006_incident_lifecycle", transactional=False)
def m006_incident_lifecycle(db: sqlite_utils.Database) -> None:
    """Rebuild `incidents` with the new statuses and `closed_at`."""
    db.execute("PRAGMA foreign_keys = OFF")
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            allowed = ", ".join(f"'{s}'" for s in STATUSES)
            db.execute(
                "CREATE TABLE incidents_new ("
                " id INTEGER PRIMARY KEY, channel TEXT NOT NULL, thread_ts TEXT NOT NULL,"
                " requester TEXT NOT NULL DEFAULT '', hosts_json TEXT NOT NULL DEFAULT '[]',"
                " error_text TEXT NOT NULL DEFAULT '', lang TEXT NOT NULL DEFAULT 'en',"
                f" status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ({allowed})),"
                " created_at TEXT NOT NULL, updated_at TEXT NOT NULL, closed_at TEXT, closed_by TEXT,"
                " UNIQUE (channel, thread_ts))"
            )
            db.execute(
                "INSERT INTO incidents_new SELECT i.id, i.channel, i.thread_ts, i.requester, i.hosts_json,"
                " i.error_text, i.lang, i.status, i.created_at, i.updated_at,"
                " (SELECT r.resolved_at FROM resolutions r WHERE r.incident_id = i.id),"
                " (SELECT r.resolved_by FROM resolutions r WHERE r.incident_id = i.id) FROM incidents i"
            )
            db.execute("DROP TABLE incidents")
            db.execute("ALTER TABLE incidents_new RENAME TO incidents")
            db.execute("CREATE INDEX incidents_created ON incidents (created_at)")
            db.execute("CREATE INDEX incidents_open ON incidents (status, updated_at)")
            problems = db.execute("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise RuntimeError(f"incident rebuild broke foreign keys: {problems[:3]}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.execute("PRAGMA foreign_keys = ON")

"""Incidents, their candidates, verdicts, resolutions, feedback and draft bookkeeping (issue 5).

No foreign keys point at `pitfalls`: the KB loader may rebuild that table, and an incident must
keep naming the cause it was resolved with even when the entry is later renamed or rejected.
"""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m003_incidents")
def m003_incidents(db: sqlite_utils.Database) -> None:
    """Create the incident tables."""
    # One statement per execute: executescript() would COMMIT the migration's transaction early.
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


_SCHEMA = """
        CREATE TABLE incidents (
            id INTEGER PRIMARY KEY,
            channel TEXT NOT NULL,
            thread_ts TEXT NOT NULL,
            requester TEXT NOT NULL DEFAULT '',
            hosts_json TEXT NOT NULL DEFAULT '[]',
            error_text TEXT NOT NULL DEFAULT '',
            lang TEXT NOT NULL DEFAULT 'en',
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (channel, thread_ts)
        );
        CREATE INDEX incidents_created ON incidents (created_at);
        CREATE TABLE incident_candidates (
            incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
            pitfall_id TEXT NOT NULL,
            rank INTEGER NOT NULL,
            score REAL NOT NULL,
            confidence TEXT NOT NULL DEFAULT '',
            draft INTEGER NOT NULL DEFAULT 0,
            recorded_at TEXT NOT NULL,
            PRIMARY KEY (incident_id, pitfall_id)
        );
        CREATE TABLE incident_verdicts (
            incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
            host TEXT NOT NULL,
            pitfall_id TEXT NOT NULL,
            verdict TEXT NOT NULL CHECK (verdict IN ('confirmed', 'ruled_out', 'inconclusive')),
            benign INTEGER NOT NULL DEFAULT 0,
            reason TEXT NOT NULL DEFAULT '',
            evidence_json TEXT NOT NULL DEFAULT '[]',
            recorded_at TEXT NOT NULL,
            PRIMARY KEY (incident_id, host, pitfall_id)
        );
        CREATE TABLE resolutions (
            incident_id INTEGER PRIMARY KEY REFERENCES incidents (id) ON DELETE CASCADE,
            resolved_by TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('existing', 'draft', 'merge')),
            cause_id TEXT NOT NULL,
            new_cause_json TEXT,
            notes TEXT NOT NULL DEFAULT '',
            learn_state TEXT NOT NULL DEFAULT 'pending' CHECK (learn_state IN ('pending', 'done')),
            learned TEXT NOT NULL DEFAULT '',
            resolved_at TEXT NOT NULL
        );
        CREATE INDEX resolutions_pending ON resolutions (learn_state);
        CREATE TABLE feedback (
            incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
            user TEXT NOT NULL,
            pitfall_id TEXT NOT NULL,
            helpful INTEGER NOT NULL CHECK (helpful IN (0, 1)),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (incident_id, user, pitfall_id)
        );
        CREATE TABLE incident_vectors (
            incident_id INTEGER PRIMARY KEY REFERENCES incidents (id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vector BLOB NOT NULL,
            content_hash TEXT NOT NULL
        );
        CREATE TABLE drafts (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('new', 'merge')),
            incident_id INTEGER REFERENCES incidents (id) ON DELETE SET NULL,
            target_id TEXT,
            similarity REAL,
            status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved', 'rejected')),
            body_json TEXT NOT NULL,
            created_by TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            decided_by TEXT,
            decided_at TEXT,
            file_path TEXT
        );
        CREATE INDEX drafts_incident ON drafts (incident_id);
        """

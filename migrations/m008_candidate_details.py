"""The signals behind each candidate of an answer (signature regexes, shared terms, nearest
examples), kept so that Slack's "Details" button can show them after the answer was posted."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m008_candidate_details")
def m008_candidate_details(db: sqlite_utils.Database) -> None:
    """Add `incident_candidates.details_json`: a JSON list of redacted detail lines (strings; later rows
    hold `Msg.to_json` objects)."""
    db.execute("ALTER TABLE incident_candidates ADD COLUMN details_json TEXT NOT NULL DEFAULT '[]'")

"""Stored verdicts keep their reason's catalogue key and parameters, so a stored incident reads in
any language: `incident_verdicts.reason_msg_json` (`{"key", "params"}`, NULL for older rows, whose
English `reason` text stands)."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m010_verdict_reason_msg")
def m010_verdict_reason_msg(db: sqlite_utils.Database) -> None:
    """Add `incident_verdicts.reason_msg_json`."""
    db.execute("ALTER TABLE incident_verdicts ADD COLUMN reason_msg_json TEXT")

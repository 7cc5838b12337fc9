"""A resolution keeps what the KB learned as a catalogue message, so it reads in any language:
`resolutions.learned_msg_json` (`{"key", "params"}`, NULL for older rows, whose English `learned`
text stands)."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m012_resolution_learned_msg")
def m012_resolution_learned_msg(db: sqlite_utils.Database) -> None:
    """Add `resolutions.learned_msg_json`."""
    db.execute("ALTER TABLE resolutions ADD COLUMN learned_msg_json TEXT")

"""Who vouches for a resolution: `resolutions.vouched` is 1 when a maintainer (in Slack) or the
operator (the CLI and the terminal console, which run as the database's owner) recorded it. A learned
example makes an answer "high" on its own only when its resolution is vouched for or a second person's
agrees (`kb.retrieve`), so one channel member cannot teach the KB a confident wrong cause. Older rows
from the CLI and the console are vouched for; older Slack rows are not (who resolved them was never
checked)."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m016_resolution_vouched")
def m016_resolution_vouched(db: sqlite_utils.Database) -> None:
    """Add `resolutions.vouched`, set for the CLI's and the console's older resolutions."""
    db.execute("ALTER TABLE resolutions ADD COLUMN vouched INTEGER NOT NULL DEFAULT 0")
    db.execute(
        "UPDATE resolutions SET vouched = 1 WHERE resolved_by LIKE 'cli:%' OR incident_id IN"
        " (SELECT id FROM incidents WHERE channel = 'console')"
    )

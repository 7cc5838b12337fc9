"""One timestamp format everywhere: RFC 3339 UTC with a `Z` (`pitstop.core.clock.stamp`).

Rows written before this migration used `+00:00` (the KB tables and the audit log); rewriting
them keeps text comparison on these columns equal to time comparison.
"""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations

_COLUMNS = {
    "pitfalls": ("created_at", "updated_at"),
    "examples": ("created_at",),
    "audit": ("ts",),
}


@migrations(name="m005_stamps")
def m005_stamps(db: sqlite_utils.Database) -> None:
    """Rewrite `+00:00` offsets as `Z`."""
    for table, columns in _COLUMNS.items():
        for column in columns:
            db.execute(
                f"UPDATE {table} SET {column} = substr({column}, 1, length({column}) - 6) || 'Z'"
                f" WHERE {column} LIKE '%+00:00'"
            )

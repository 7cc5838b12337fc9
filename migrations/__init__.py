"""Schema migrations for Pitstop's SQLite database (sqlite-utils `Migrations`).

Each area owns one module; modules register named functions on the one `migrations`
set, in the order they are imported below. A shipped migration is never edited: add
a new function instead.
"""

from __future__ import annotations

from sqlite_utils.migrations import Migrations

migrations = Migrations("pitstop")

# Import order is application order.
from migrations import m001_kb  # noqa: E402,F401
from migrations import m002_audit  # noqa: E402,F401
from migrations import m003_incidents  # noqa: E402,F401

__all__ = ["migrations"]

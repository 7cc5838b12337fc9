"""Open Pitstop's SQLite database: WAL mode, foreign keys, migrations applied."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from pitstop.migrations import migrations


def open_db(path: str | Path, *, migrate: bool = True) -> sqlite_utils.Database:
    """Open (creating if needed) the database at `path` and apply pending migrations.

    One connection per thread: callers that work from several threads open one each.
    """
    path = Path(path)
    if str(path) != ":memory:":
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=True)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA busy_timeout = 30000")
    if str(path) != ":memory:":
        db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    if migrate:
        migrations.apply(db)
    return db


@contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[None]:
    """One write transaction taken up front (BEGIN IMMEDIATE), committed or rolled back as a whole."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")

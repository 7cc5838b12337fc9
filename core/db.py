"""Open Pitstop's SQLite database: WAL mode, foreign keys, migrations applied."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from pitstop.core.config import data_dir, trusted
from pitstop.core.errors import BadDatabase
from pitstop.core.i18n import msg
from pitstop.migrations import migrations


def open_db(path: str | Path, *, migrate: bool = True) -> sqlite_utils.Database:
    """Open (creating if needed) the database at `path` and apply pending migrations.

    One connection per thread: callers that work from several threads open one each.
    """
    path = Path(path)
    memory = str(path) == ":memory:"
    if not memory:
        private_dir(path.parent)
        if path.is_dir():
            raise BadDatabase(msg("security.db.is_dir", path=str(path)))
        _only_mine(path)
        # Never open and close an existing database file by hand: SQLite's locks are POSIX locks, which
        # a process loses on every file of its own when it closes ANY descriptor of that file, and a
        # connection whose locks vanished lets another process delete the WAL under it (lost commits).
        # A new file is created owner-only (0600); SQLite gives the -wal and -shm sidecars its mode.
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
        os.chmod(path, 0o600)
    try:
        conn = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=True)
    except sqlite3.Error as exc:
        raise BadDatabase(msg("security.db.unreadable", path=str(path), reason=str(exc))) from None
    # No sqlite-utils plugins: Pitstop uses none, and finding them scans every installed package's entry
    # points (0.1 s of each process's start), then lets third-party code act on this connection.
    db = sqlite_utils.Database(conn, execute_plugins=False)
    try:
        db.execute("PRAGMA busy_timeout = 30000")
        if not memory:
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        if migrate:
            migrations.apply(db)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "not a database" in str(exc):
            raise BadDatabase(msg("security.db.not_sqlite", path=str(path))) from None
        raise BadDatabase(msg("security.db.unreadable", path=str(path), reason=str(exc))) from None
    if not memory:
        for suffix in ("-wal", "-shm"):  # sidecars left by an older Pitstop that did not restrict them
            with contextlib.suppress(FileNotFoundError, PermissionError):
                os.chmod(f"{path}{suffix}", 0o600)
    return db


def _only_mine(path: Path) -> None:
    """Refuse a database another user could read or steer: its folder (and the one its symlink points
    into, where SQLite keeps `-wal` and `-shm`) must be this user's or root's and closed to others'
    writes (as `trusted` judges an ssh config), and the file and its sidecars, where they exist, this
    user's. In a shared folder such as /tmp another user could otherwise leave a `p.db-wal` open to
    all before the first open, and SQLite would write every commit (pastes, the audit trail, the
    server secret) into their file, which they may also rewrite."""
    me = os.geteuid()
    real = path.resolve()
    for folder in dict.fromkeys((path.absolute().parent, real.parent)):
        info = folder.stat()
        if not trusted(info, (me, 0)):
            raise BadDatabase(
                msg(
                    "security.db.shared_dir",
                    directory=str(folder),
                    mode=f"{info.st_mode & 0o7777:o}",
                    uid=info.st_uid,
                )
            )
    for name in dict.fromkeys((path, real, Path(f"{real}-wal"), Path(f"{real}-shm"))):
        try:
            info = name.lstat()
        except FileNotFoundError:
            continue
        if info.st_uid != me:
            raise BadDatabase(msg("security.db.not_mine", path=str(name), uid=info.st_uid))


def private_dir(directory: Path) -> None:
    """Make sure `directory` exists for Pitstop's state: the default data directory is created (0700);
    any other must already exist, so a mistyped PITSTOP_DB fails clearly instead of creating folders."""
    if directory.is_dir():
        return
    if directory.exists():
        raise BadDatabase(msg("security.db.not_a_dir", directory=str(directory)))
    if directory.resolve() != data_dir().resolve():
        raise BadDatabase(msg("security.db.missing_dir", directory=str(directory)))
    directory.mkdir(parents=True, mode=0o700)
    os.chmod(directory, 0o700)


_WRITERS: dict[str, threading.RLock] = {}  # database file -> this process's writer lock
_WRITERS_LOCK = threading.Lock()


def _writer(db: sqlite_utils.Database) -> threading.RLock:
    """The lock this process's write transactions on `db`'s file take (a private one for :memory:)."""
    row = db.execute("PRAGMA database_list").fetchone()
    name = row[2] if row else ""
    if not name:  # an in-memory database is this connection's alone
        return threading.RLock()
    with _WRITERS_LOCK:
        return _WRITERS.setdefault(name, threading.RLock())


@contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[None]:
    """One write transaction taken up front (BEGIN IMMEDIATE), committed or rolled back as a whole.

    Threads of this process queue for the database on a lock first: one waiting on SQLite's own lock
    polls it from its busy handler, sleeping up to 100 ms between tries, so under a burst of writers
    (Slack's acknowledgements, the outbox's workers) the lock sat free while they slept and a write
    waited seconds (bench/slack_RESULTS.md). Other processes still meet SQLite's lock and busy timeout.
    """
    with _writer(db):
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The rowid an INSERT just made (sqlite3 types `lastrowid` as optional; after an INSERT it is set)."""
    rowid = cursor.lastrowid
    if rowid is None:
        raise BadDatabase(msg("errors.db.no_rowid"))

    return rowid

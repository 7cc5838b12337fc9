"""The audit trail of remote commands: written by diagnose, read by `pitstop audit`.

Every command that ran (or was refused) on a host becomes one row: who asked, from where
(`slack:C123`, `console`, `cli`), the host, the argv, the outcome, exit status, duration and
output size. Messages pass the redactor before they are stored.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from pitstop.collectors.model import CommandResult
from pitstop.core.clock import stamp
from pitstop.core.redact import redact


@dataclass(frozen=True)
class AuditEntry:
    """One audited command."""

    ts: str
    requester: str
    origin: str
    host: str
    collector: str
    argv: tuple[str, ...]
    outcome: str
    exit: int | None
    duration_s: float
    output_bytes: int
    truncated: bool
    message: str

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {**self.__dict__, "argv": list(self.argv)}


def _stamp(moment: datetime) -> str:
    return stamp(moment, millis=True)


def _now() -> str:
    return _stamp(datetime.now(UTC))


def host_checks_since(db_path: Path, user: str, since: datetime) -> int | None:
    """Host checks `user` ran since `since` (one `record` call = one check), read-only; None without a table.

    Opens its own read-only connection, so the authorization policy can ask from any thread.
    """
    if not db_path.is_file():
        return None
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5) as conn:
            row = conn.execute(
                "SELECT COUNT(*) FROM (SELECT DISTINCT host, ts FROM audit WHERE requester = ? AND ts >= ?)",
                (user, _stamp(since)),
            ).fetchone()
    except sqlite3.Error:
        return None
    return int(row[0])


def _size(r: CommandResult) -> int:
    if r.output_bytes is not None:
        return r.output_bytes
    return len(r.stdout.encode()) + len(r.stderr.encode())


class AuditLog:
    """Reads and writes the `audit` table of one database connection (one per thread)."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db

    def record(self, requester: str, origin: str, host: str, results: Iterable[CommandResult]) -> int:
        """Store one row per result in one transaction; return how many were stored."""
        ts = _now()
        rows = [
            (
                ts,
                requester,
                origin,
                host,
                r.collector,
                json.dumps(list(r.argv)),
                r.outcome,
                r.exit,
                float(r.duration_s),
                _size(r),
                int(r.truncated),
                redact(str(r.message)) if r.message else "",
            )
            for r in results
        ]
        if not rows:
            return 0
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(
                "INSERT INTO audit (ts, requester, origin, host, collector, argv_json, outcome, exit, "
                "duration_s, output_bytes, truncated, message) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                rows,
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return len(rows)

    def query(
        self,
        since: datetime | None = None,
        user: str | None = None,
        host: str | None = None,
        limit: int = 1000,
    ) -> list[AuditEntry]:
        """Rows newest first, filtered by time, requester and host."""
        where, params = [], []
        if since is not None:
            where.append("ts >= ?")
            params.append(_stamp(since))
        if user:
            where.append("requester = ?")
            params.append(user)
        if host:
            where.append("host = ?")
            params.append(host)
        sql = (
            "SELECT ts, requester, origin, host, collector, argv_json, outcome, exit, duration_s, "
            "output_bytes, truncated, message FROM audit"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY id DESC LIMIT ?"
        )
        rows = self.db.execute(sql, [*params, limit]).fetchall()
        return [
            AuditEntry(
                ts, req, origin, h, coll, tuple(json.loads(argv)), outcome, exit_, dur, size, bool(trunc), msg
            )
            for ts, req, origin, h, coll, argv, outcome, exit_, dur, size, trunc, msg in rows
        ]

"""The audit trail of remote commands: written by diagnose, read by `pitstop audit`.

Every command that ran (or was refused) on a host becomes one row: who asked, from where
(`slack:C123`, `console`, `cli`), the host, the argv, the outcome, exit status, duration and
output size. Messages pass the redactor before they are stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlite_utils

from pitstop.collectors.model import CommandResult
from pitstop.core.clock import stamp
from pitstop.core.db import immediate
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


def take_host_checks(
    db: sqlite_utils.Database, user: str, hosts: int, limit: int, since: datetime, charge: bool = True
) -> int:
    """Host checks granted to `user` since `since`; when `charge` is set and `hosts` more stay within
    `limit`, grant them too. Counting and granting are one transaction, so requests running at once
    (threads, the bot beside the CLI) cannot all slip under the limit."""
    with immediate(db):
        row = db.execute(
            "SELECT COALESCE(SUM(hosts), 0) FROM host_grants WHERE requester = ? AND ts >= ?",
            (user, _stamp(since)),
        ).fetchone()
        done = int(row[0])
        if charge and done + hosts <= limit:
            db.execute(
                "INSERT INTO host_grants (ts, requester, hosts) VALUES (?, ?, ?)", (_now(), user, hosts)
            )
    return done


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

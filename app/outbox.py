"""The durable work queue: Slack work is written to SQLite (table `outbox`, migration `m007_outbox`)
before Slack's request is acknowledged, and worker threads claim, do and finish it.

Guarantees, with how they are kept:
- Nothing acknowledged is lost: `Outbox.put` commits before the listener returns, and a restarted
  bot takes back the rows a dead process left `running` (`Outbox.reclaim`).
- Nothing is done twice for one delivery: the delivery key is unique in SQLite, so a retry, an
  event pair or a replay inside the retention window finds its row and `put` returns None.
- A claim is one immediate transaction, so two threads or two processes never run the same row.
- A row claimed again (`Entry.retry`) may have reached Slack before the crash: the worker checks
  for its own earlier posts (`pitstop.bot.delivery`) before posting.

Payload strings are redacted before they are stored, and the payload is emptied once the row is done.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import sqlite_utils

from pitstop.core.clock import Clock, stamp, utc_now
from pitstop.core.db import immediate, open_db
from pitstop.core.errors import PitstopError
from pitstop.core.i18n import msg
from pitstop.core.redact import redact, redact_data

log = logging.getLogger(__name__)

RETENTION = timedelta(hours=1)  # longer than Slack's retries (about 5 minutes) and the replay window
LEASE = timedelta(hours=1)  # a row running longer than this on another host is taken back
MAX_ATTEMPTS = 5
BACKOFF_S = (2, 10, 30, 120)  # before the 2nd, 3rd, ... attempt of a row whose work raised
MAX_HOLD_S = 2.0  # the longest a worker waits for acknowledgements before it starts its next row


class QueueFull(PitstopError):
    """Too much acknowledged work is waiting; the delivery is refused, not stored."""


@dataclass(frozen=True)
class Entry:
    """One claimed row: what to do (`kind`, `payload`) and how often it was claimed."""

    id: int
    kind: str
    key: str
    payload: dict[str, Any]
    attempts: int
    created_at: str

    @property
    def retry(self) -> bool:
        """True when an earlier attempt may already have done part of the work."""
        return self.attempts > 1


@dataclass
class _Put:
    """One put waiting for its commit, and what the commit said."""

    kind: str
    key: str
    payload_json: str
    written: bool = False
    row_id: int | None = None
    error: BaseException | None = None


_LIVE: set[str] = set()  # the owner names of this process's Outbox instances


def _owner_id() -> str:
    """A new name for the `owner` column: host, pid and a token telling this process's outboxes apart."""
    owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
    _LIVE.add(owner)
    return owner


def _alive(owner: str) -> bool:
    """Whether the owner still runs (unknowable for another host: assumed alive)."""
    host, pid, _ = (owner.split(":") + ["", ""])[:3]
    if host != socket.gethostname():
        return True
    if not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return owner in _LIVE  # else a process before this one had the same pid (a restarted container)
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Outbox:
    """The outbox store over a database path, with one connection per calling thread."""

    def __init__(self, db_path: Path, *, clock: Clock = utc_now, capacity: int = 1000) -> None:
        self._path = db_path
        self._clock = clock
        self._capacity = capacity
        self._owner = _owner_id()
        self._local = threading.local()
        self._queue: list[_Put] = []  # puts waiting for the next commit
        self._queue_lock = threading.Lock()
        self._committer = threading.Lock()  # held by the thread committing a batch of puts

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection for the calling thread."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = open_db(self._path)
            # An emptied payload (done, failed) is overwritten in the file, not left in a free cell.
            db.execute("PRAGMA secure_delete = ON")
        return db

    def _now(self, later: timedelta = timedelta(0)) -> str:
        return stamp(self._clock() + later, millis=True)

    def put(self, kind: str, key: str, payload: Mapping[str, Any]) -> int | None:
        """Store one delivery's work (strings redacted); None when `key` is already stored.

        QueueFull when `capacity` rows wait; old finished rows are deleted on the way. Returns once the
        row is committed. Puts that arrive while one is being written are committed together in the
        next transaction (group commit): under a burst, one commit stores every waiting request
        instead of each queueing for the database on its own.
        """
        (stored,) = self.put_many(kind, [(key, payload)])
        if isinstance(stored, QueueFull):
            raise stored
        return stored

    def put_many(
        self, kind: str, deliveries: Sequence[tuple[str, Mapping[str, Any]]], *, raw: bool = False
    ) -> list[int | None | QueueFull]:
        """`put` for several (key, payload) deliveries of one kind, committed in one transaction: for
        each its row id, None (key already stored) or the QueueFull that refused it. `raw` stores the
        payloads unredacted: only for signed Slack requests whose handler redacts what it keeps
        (`pitstop.bot.inbox`)."""
        # A raw payload is escaped to ASCII: a signed body may carry a lone surrogate (JSON allows
        # "\ud800"), which SQLite cannot store as UTF-8; the escape reads back to the same string.
        items = [
            _Put(
                kind,
                key,
                json.dumps(payload) if raw else json.dumps(redact_data(payload), ensure_ascii=False),
            )
            for key, payload in deliveries
        ]
        with self._queue_lock:
            self._queue.extend(items)  # at once: one batch takes them all
        with self._committer:
            if not items[0].written:  # no earlier committer took them: commit everything waiting
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._commit(batch)
        for item in items:
            if item.error is not None and not isinstance(item.error, QueueFull):
                raise item.error  # the transaction failed: nothing of it is stored
        return [item.error if isinstance(item.error, QueueFull) else item.row_id for item in items]

    def _commit(self, batch: list[_Put]) -> None:
        """Write `batch` in one immediate transaction; each item gets its row id, None or its error."""
        now = self._now()
        try:
            with immediate(self.db):
                self.db.execute(
                    "DELETE FROM outbox WHERE state IN ('done', 'failed') AND finished_at < ?",
                    [stamp(self._clock() - RETENTION, millis=True)],
                )
                waiting = self.unfinished()
                for item in batch:
                    if self.db.execute("SELECT 1 FROM outbox WHERE key = ?", [item.key]).fetchone():
                        continue
                    if waiting >= self._capacity:
                        item.error = QueueFull(msg("queue.full"))
                        continue
                    cursor = self.db.execute(
                        "INSERT INTO outbox (kind, key, payload_json, created_at, due_at)"
                        " VALUES (?, ?, ?, ?, ?)",
                        [item.kind, item.key, item.payload_json, now, now],
                    )
                    item.row_id, waiting = int(cursor.lastrowid or 0), waiting + 1
        except BaseException as exc:  # rolled back: nothing of the batch is stored
            for item in batch:
                item.row_id, item.error = None, exc
            if not isinstance(exc, Exception):
                raise
        finally:
            for item in batch:
                item.written = True

    def claim(self) -> Entry | None:
        """Take the oldest due pending row for this process (one immediate transaction); None if none."""
        now = self._now()
        with immediate(self.db):
            row = self.db.execute(
                "SELECT id, kind, key, payload_json, attempts, created_at FROM outbox"
                " WHERE state = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT 1",
                [now],
            ).fetchone()
            if row is None:
                return None
            self.db.execute(
                "UPDATE outbox SET state = 'running', attempts = attempts + 1, owner = ?, claimed_at = ?"
                " WHERE id = ?",
                [self._owner, now, row[0]],
            )
        return Entry(row[0], row[1], row[2], json.loads(row[3]), row[4] + 1, row[5])

    def done(self, entry_id: int) -> None:
        """The work is finished: keep the key (deduplication), drop the payload."""
        with immediate(self.db):
            self.db.execute(
                "UPDATE outbox SET state = 'done', payload_json = '{}', error = NULL, finished_at = ?"
                " WHERE id = ?",
                [self._now(), entry_id],
            )

    def failed(self, entry_id: int, error: str) -> None:
        """The work raised: pending again after a pause, or `failed` after the last attempt."""
        with immediate(self.db):
            row = self.db.execute("SELECT attempts FROM outbox WHERE id = ?", [entry_id]).fetchone()
            if row is None:
                return
            attempts = int(row[0])
            if attempts >= MAX_ATTEMPTS:
                self.db.execute(
                    "UPDATE outbox SET state = 'failed', payload_json = '{}', error = ?, finished_at = ?"
                    " WHERE id = ?",
                    [redact(error), self._now(), entry_id],
                )
                return
            pause = timedelta(seconds=BACKOFF_S[min(attempts, len(BACKOFF_S)) - 1])
            self.db.execute(
                "UPDATE outbox SET state = 'pending', error = ?, due_at = ?, owner = NULL WHERE id = ?",
                [redact(error), self._now(pause), entry_id],
            )

    def reclaim(self) -> int:
        """Put back to pending the rows left running by a process that is gone (or held past the lease)."""
        stale = stamp(self._clock() - LEASE, millis=True)
        with immediate(self.db):
            rows = self.db.execute(
                "SELECT id, owner, claimed_at FROM outbox WHERE state = 'running'"
            ).fetchall()
            back = [i for i, owner, claimed in rows if not _alive(owner or "") or (claimed or "") < stale]
            for entry_id in back:
                self.db.execute("UPDATE outbox SET state = 'pending', owner = NULL WHERE id = ?", [entry_id])
        if back:
            log.info("took back %d acknowledged request(s) left unfinished", len(back))
        return len(back)

    def unfinished(self) -> int:
        """How many rows are pending or running."""
        row = self.db.execute("SELECT COUNT(*) FROM outbox WHERE state IN ('pending', 'running')").fetchone()
        return int(row[0])


Handler = Callable[[Entry], None]


class Workers:
    """Threads that drain the outbox: each claims a row, runs its kind's handler, marks it done.

    `start(handlers)` first takes back what a dead process left running, so a restarted bot
    finishes everything that was acknowledged. `wake()` after a `put` starts the work at once;
    without it a thread looks again every `poll_s` (rows put by another process, retries).
    While a request is being acknowledged (`hold()`), no thread starts a new row, for at most
    `max_hold_s`: answering work would otherwise take the CPU and the GIL from the acknowledgements of
    a burst, which Slack times out after 3 s (a row already started runs on).
    """

    def __init__(
        self, outbox: Outbox, workers: int = 4, *, poll_s: float = 1.0, max_hold_s: float = MAX_HOLD_S
    ) -> None:
        self.outbox = outbox
        self._count = workers
        self._poll_s = poll_s
        self._max_hold_s = max_hold_s
        self._handlers: Mapping[str, Handler] = {}
        self._threads: list[threading.Thread] = []
        self._cond = threading.Condition()
        self._signal = 0  # bumped by wake(): a thread that saw no row waits only if nothing changed
        self._busy = 0
        self._held = 0  # requests being acknowledged (hold())
        self._stopping = False

    def start(self, handlers: Mapping[str, Handler]) -> int:
        """Take back orphaned rows and start the threads; returns how many rows were taken back."""
        self._handlers = dict(handlers)
        taken = self.outbox.reclaim()
        for n in range(self._count):
            thread = threading.Thread(target=self._loop, name=f"pitstop-work-{n}", daemon=True)
            thread.start()
            self._threads.append(thread)
        return taken

    def put(self, kind: str, key: str, payload: Mapping[str, Any]) -> bool:
        """Store one delivery's work (`Outbox.put`) and start it; False for a key already stored."""
        if self.outbox.put(kind, key, payload) is None:
            return False
        self.wake()
        return True

    def put_many(
        self, kind: str, deliveries: Sequence[tuple[str, Mapping[str, Any]]], *, raw: bool = False
    ) -> list[int | None | QueueFull]:
        """Store several deliveries' work in one transaction (`Outbox.put_many`) and start it."""
        stored = self.outbox.put_many(kind, deliveries, raw=raw)
        if any(isinstance(row, int) for row in stored):
            self.wake()
        return stored

    @contextmanager
    def hold(self) -> Iterator[None]:
        """While inside, threads start no new row (for up to `max_hold_s`): acknowledgements run first."""
        with self._cond:
            self._held += 1
        try:
            yield
        finally:
            with self._cond:
                self._held -= 1
                if not self._held:
                    self._cond.notify_all()

    def wake(self) -> None:
        """New work was put: let a waiting thread claim it now."""
        with self._cond:
            self._signal += 1
            if not self._held:  # else the last hold() to end wakes them (a burst wakes no one per put)
                self._cond.notify_all()

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: not self._held or self._stopping, self._max_hold_s)
                if self._stopping:
                    return
                seen = self._signal
                self._busy += 1
            entry = None
            try:
                entry = self.outbox.claim()
                if entry is not None:
                    self._run(entry)
            except Exception:  # the database itself failed: log it and keep the thread alive
                log.exception("the outbox could not be read")
            with self._cond:
                self._busy -= 1
                self._cond.notify_all()
                if entry is None:  # nothing to claim: sleep until woken, stopped or `poll_s` passed
                    self._cond.wait_for(lambda: self._signal != seen or self._stopping, self._poll_s)  # noqa: B023

    def _run(self, entry: Entry) -> None:
        handler = self._handlers.get(entry.kind)
        try:
            if handler is None:
                raise LookupError(f"no handler for outbox kind {entry.kind!r}")
            handler(entry)
        except Exception as exc:  # a handler's own error reporting failed: retry later, then give up
            log.exception("outbox row %d (%s) failed", entry.id, entry.kind)
            self.outbox.failed(entry.id, f"{type(exc).__name__}: {exc}")
            return
        self.outbox.done(entry.id)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no row is pending or running and no thread is working; False on timeout."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._busy or self.outbox.unfinished():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, self._poll_s))
        return True

    def close(self) -> None:
        """Let each thread finish its row, then stop them."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join()

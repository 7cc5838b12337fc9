"""The durable work queue's store and workers (app/outbox.py) on a real SQLite file: deduplication by
delivery key, redaction, claims that never hand one row to two threads, retries, and rows left
running by a SIGKILLed process taken back on start."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pitstop.app import outbox as ob
from pitstop.app.outbox import Outbox, QueueFull, Workers
from pitstop.core.db import open_db
from tests.security.secrets import load_corpus

REPO = Path(__file__).resolve().parents[2]


class Clock:
    """A settable clock."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def rows(path: Path) -> list[tuple]:
    return (
        open_db(path)
        .execute("SELECT id, key, state, attempts, payload_json FROM outbox ORDER BY id")
        .fetchall()
    )


def test_the_migration_makes_the_key_unique(tmp_path: Path) -> None:
    db = open_db(tmp_path / "p.db")
    assert "outbox" in db.table_names()
    insert = "INSERT INTO outbox (kind, key, created_at, due_at) VALUES ('answer', 'msg:C1:1', 'x', 'x')"
    db.execute(insert)
    with pytest.raises(Exception, match="UNIQUE"):
        db.execute(insert)


def test_put_deduplicates_on_the_key_and_redacts(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "p.db")
    secrets = load_corpus()[:20]
    first = box.put("answer", "msg:C1:1.000001", {"text": "\n".join(s["text"] for s in secrets), "n": 3})
    assert isinstance(first, int)
    assert box.put("answer", "msg:C1:1.000001", {"text": "again"}) is None  # a retry or the event's twin
    assert box.put("answer", "msg:C1:1.000002", {"text": "other"}) == first + 1
    stored = rows(tmp_path / "p.db")[0][4]
    assert [s["secret"] for s in secrets if s["secret"] in stored] == []
    assert json.loads(stored)["n"] == 3 and box.unfinished() == 2


def test_put_refuses_when_full(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "p.db", capacity=2)
    box.put("answer", "a", {})
    box.put("answer", "b", {})
    with pytest.raises(QueueFull):
        box.put("answer", "c", {})
    assert box.put("answer", "a", {}) is None  # a duplicate is still recognized, not refused


def test_put_many_is_one_batch_with_an_outcome_each_and_raw_keeps_the_text(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "p.db", capacity=3)
    box.put("answer", "a", {})
    token = "xoxb-1234567890-abcdefghij"
    deliveries = [("event:1", {"text": token}), ("a", {}), ("event:1", {}), ("event:2", {}), ("event:3", {})]
    first, duplicate, again, second, refused = box.put_many("event", deliveries, raw=True)
    assert isinstance(first, int) and second == first + 1
    assert duplicate is None and again is None  # already stored, or earlier in the same batch
    assert isinstance(refused, QueueFull) and box.unfinished() == 3
    assert rows(tmp_path / "p.db")[1][1:] == ("event:1", "pending", 0, json.dumps({"text": token}))  # raw


def test_claim_takes_the_oldest_and_done_keeps_only_the_key(tmp_path: Path) -> None:
    clock = Clock()
    box = Outbox(tmp_path / "p.db", clock=clock)
    a, b = box.put("answer", "a", {"x": 1}), box.put("diagnose", "b", {"y": 2})
    entry = box.claim()
    assert entry is not None and (entry.id, entry.kind, entry.payload, entry.attempts) == (
        a,
        "answer",
        {"x": 1},
        1,
    )
    assert not entry.retry
    second = box.claim()
    assert second is not None and second.id == b
    assert box.claim() is None
    box.done(a)
    assert rows(tmp_path / "p.db")[0][2:] == ("done", 1, "{}")
    assert box.put("answer", "a", {}) is None  # inside the retention window the key still dedupes
    clock.now += ob.RETENTION + timedelta(seconds=1)
    assert isinstance(box.put("answer", "c", {}), int)  # a put sweeps old finished rows
    assert [r[1] for r in rows(tmp_path / "p.db")] == ["b", "c"]


def test_concurrent_claims_never_share_a_row(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "p.db")
    for n in range(200):
        box.put("answer", f"k{n}", {"n": n})
    got: list[int] = []
    lock = threading.Lock()

    def drain() -> None:
        while (entry := box.claim()) is not None:
            with lock:
                got.append(entry.id)

    threads = [threading.Thread(target=drain) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(got) == sorted(set(got)) and len(got) == 200


def test_a_failing_row_is_retried_later_then_given_up(tmp_path: Path) -> None:
    clock = Clock()
    box = Outbox(tmp_path / "p.db", clock=clock)
    box.put("answer", "a", {"text": "t"})
    for attempt in range(1, ob.MAX_ATTEMPTS + 1):
        entry = box.claim()
        assert entry is not None and entry.attempts == attempt and entry.retry == (attempt > 1)
        box.failed(entry.id, "SlackApiError: token=xoxb-1234567890-abcdefghijklmnop")
        assert box.claim() is None  # not due yet
        clock.now += timedelta(seconds=max(ob.BACKOFF_S) + 1)
    assert rows(tmp_path / "p.db")[0][2:] == ("failed", ob.MAX_ATTEMPTS, "{}")
    error = open_db(tmp_path / "p.db").execute("SELECT error FROM outbox").fetchone()[0]
    assert "xoxb-1234567890" not in error and box.unfinished() == 0


CLAIMER = """
import sys, time
from pathlib import Path
from pitstop.app.outbox import Outbox
entry = Outbox(Path(sys.argv[1])).claim()
print(entry.id, flush=True)
time.sleep(600)
"""


def _claim_in_child(path: Path) -> tuple[subprocess.Popen, int]:
    child = subprocess.Popen(
        [sys.executable, "-c", CLAIMER, str(path)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    return child, int(child.stdout.readline())


def test_rows_of_a_killed_process_are_taken_back_and_a_live_ones_are_not(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    box = Outbox(path)
    for key in ("killed", "alive", "other-host"):
        box.put("answer", key, {"k": key})
    killed, killed_id = _claim_in_child(path)
    alive, alive_id = _claim_in_child(path)
    try:
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=30)
        other = box.claim()
        assert other is not None
        open_db(path).execute("UPDATE outbox SET owner = 'elsewhere:1:ab' WHERE id = ?", [other.id])
        # Only the killed child's row: the live child and the other host keep theirs.
        assert box.reclaim() == 1
        states = {r[1]: r[2:4] for r in rows(path)}
        assert states == {"killed": ("pending", 1), "alive": ("running", 1), "other-host": ("running", 1)}
        again = box.claim()
        assert again is not None and again.id == killed_id and again.retry and again.attempts == 2
        assert box.claim() is None and alive_id != killed_id
    finally:
        alive.kill()
        alive.wait(timeout=30)
    assert box.reclaim() == 1  # now the second child is gone too


def test_a_lease_past_its_time_is_taken_back_from_another_host(tmp_path: Path) -> None:
    clock = Clock()
    box = Outbox(tmp_path / "p.db", clock=clock)
    box.put("answer", "a", {})
    entry = box.claim()
    assert entry is not None
    box.db.execute("UPDATE outbox SET owner = 'elsewhere:1:ab'")
    assert box.reclaim() == 0
    clock.now += ob.LEASE + timedelta(seconds=1)
    assert box.reclaim() == 1


def test_a_row_of_an_earlier_process_with_this_pid_is_taken_back(tmp_path: Path) -> None:
    """A restarted container often gets the same pid; the row's owner token tells the processes apart."""
    box = Outbox(tmp_path / "p.db")
    box.put("answer", "a", {})
    box.put("answer", "b", {})
    mine, theirs = box.claim(), box.claim()
    assert mine is not None and theirs is not None
    host, pid = socket.gethostname(), os.getpid()
    box.db.execute("UPDATE outbox SET owner = ? WHERE id = ?", [f"{host}:{pid}:dead0000", theirs.id])
    assert box.reclaim() == 1
    assert {r[1]: r[2] for r in rows(tmp_path / "p.db")} == {"a": "running", "b": "pending"}


def _until(predicate, timeout: float = 30.0) -> bool:
    """Wait (not a timing assertion) until `predicate()` holds."""
    done = threading.Event()
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return True
        done.wait(0.02)
    return predicate()


def test_workers_do_each_row_once_retry_failures_and_finish_what_a_restart_finds(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "p.db"
    box = Outbox(path, clock=clock)
    done: list[str] = []
    lock = threading.Lock()
    failures = {"flaky": 1}

    def handle(entry: ob.Entry) -> None:
        if failures.get(entry.key):
            failures[entry.key] -= 1
            raise RuntimeError("Slack is down")
        with lock:
            done.append(entry.key)

    box.put("answer", "left-before-start", {})
    box.put("answer", "flaky", {})
    workers = Workers(box, 3, poll_s=0.05)
    workers.start({"answer": handle})
    for n in range(30):
        assert box.put("answer", f"k{n}", {}) is not None
        workers.wake()
    assert _until(lambda: box.db.execute("SELECT error FROM outbox WHERE key = 'flaky'").fetchone()[0])
    assert not workers.wait_idle(0.2)  # the failed row waits out its pause
    clock.now += timedelta(seconds=ob.BACKOFF_S[0] + 1)
    assert workers.wait_idle(30)
    workers.close()
    assert sorted(done) == sorted({*(f"k{n}" for n in range(30)), "left-before-start", "flaky"})
    assert len(done) == len(set(done)) and box.unfinished() == 0
    assert {r[3] for r in rows(path) if r[1] == "flaky"} == {2}


def test_puts_from_many_threads_are_committed_together_and_each_once(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    box = Outbox(path, capacity=150)
    assert box.unfinished() == 0  # the database exists, migrated, before the threads open it
    results: dict[str, list[object]] = {}
    lock = threading.Lock()
    start = threading.Barrier(16, timeout=120)

    def putter(t: int) -> None:
        other = open_db(path)  # another connection: a put's row is committed by the time put returns
        start.wait()
        for n in range(20):
            key = f"k{(t * 20 + n) % 200}"  # 320 puts of 200 keys: 120 duplicates
            try:
                got: object = box.put("answer", key, {"t": t, "n": n})
            except QueueFull:
                got = "full"
            if isinstance(got, int):
                assert other.execute("SELECT key FROM outbox WHERE id = ?", [got]).fetchone() == (key,)
            with lock:
                results.setdefault(key, []).append(got)

    threads = [threading.Thread(target=putter, args=(t,)) for t in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = [got for outcomes in results.values() for got in outcomes if isinstance(got, int)]
    assert len(stored) == len(set(stored)) == 150 == len(rows(path))  # capacity reached, never passed
    for key, outcomes in results.items():
        ids = [got for got in outcomes if isinstance(got, int)]
        assert len(ids) <= 1, key  # a key is stored once; its other puts say duplicate (None) or full
        if ids:  # once full, the queue stays full here (nothing finishes): a stored key met no refusal
            assert "full" not in outcomes, key
    assert sum(o == "full" for outcomes in results.values() for o in outcomes) >= 50


def test_a_hold_keeps_workers_from_starting_rows_until_it_ends(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "p.db")
    done: list[str] = []
    workers = Workers(box, 2, poll_s=600, max_hold_s=600)  # they wake only when told
    workers.start({"answer": lambda entry: done.append(entry.key)})
    assert workers.wait_idle(30)  # both found nothing and wait
    with workers.hold():
        assert workers.put("answer", "a", {})
        assert not workers.wait_idle(0.5)  # stored and woken, but held
        assert done == [] and box.unfinished() == 1
    assert workers.wait_idle(30)
    workers.close()
    assert done == ["a"]

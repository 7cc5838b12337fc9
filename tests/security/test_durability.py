"""Durability: a writer SIGKILLed in the middle of incident writes and index updates leaves a consistent
database, loses nothing it acknowledged, never leaves a half-written faiss file; and a second process
(the CLI) reads and writes the same database while the writer (the bot) runs."""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import faiss
import pytest

from pitstop.collectors.audit import AuditLog
from pitstop.collectors.model import CommandResult
from pitstop.core.db import open_db
from tests.bot.conftest import copy_kb
from tests.security.scale import SCALE

REPO = Path(__file__).resolve().parents[2]
READY_S = 180  # the child loads the embedding model on a shared 2-core machine


@dataclass
class Acks:
    """What the killed writer acknowledged."""

    incidents: dict[int, str] = field(default_factory=dict)  # id -> thread_ts
    examples: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> (pitfall, text)

    def add(self, line: str) -> None:
        kind, ident, rest = line.rstrip("\n").split(" ", 2)
        if kind == "incident":
            self.incidents[int(ident)] = rest
        elif kind == "example":
            pitfall, text = rest.split(" ", 1)
            self.examples[int(ident)] = (pitfall, text)


class Writer:
    """The child process and a thread that reads its acknowledgements as they arrive."""

    def __init__(self, db: Path, tag: str) -> None:
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.security.durability_child", str(db), tag],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_ready(self) -> None:
        line = self.lines.get(timeout=READY_S)
        assert line == "ready\n", f"writer failed to start: {line!r} (exit {self.proc.poll()})"

    def run_until(self, acks: Acks, count: int, during: Any = None) -> None:
        """Collect `count` acknowledgements (calling `during()` between them), then kill mid-write."""
        for n in range(count):
            line = self.lines.get(timeout=60)
            assert line is not None, f"writer died on its own (exit {self.proc.poll()})"
            acks.add(line)
            if during is not None:
                during(n)
        threading.Event().wait(random.uniform(0, 0.05))  # land anywhere inside the next write
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        while (line := self.lines.get(timeout=30)) is not None:  # flushed before death: acknowledged
            acks.add(line)
        assert self.proc.returncode == -signal.SIGKILL


def assert_consistent(db_path: Path, acks: Acks) -> None:
    """Integrity, foreign keys, every acknowledged row present, the faiss file whole."""
    db = open_db(db_path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        threads = dict(db.execute("SELECT id, thread_ts FROM incidents WHERE channel = ?", ["CDURABLE"]))
        assert {i: threads.get(i) for i in acks.incidents} == acks.incidents
        rows = {
            eid: (pitfall, text)
            for eid, pitfall, text in db.execute(
                "SELECT e.id, e.pitfall_id, e.text FROM examples e JOIN embeddings v ON v.example_id = e.id "
                "WHERE e.source = 'incident'"
            ).fetchall()
        }
        assert {e: rows.get(e) for e in acks.examples} == acks.examples
    finally:
        db.close()
    index_path = Path(f"{db_path}.faiss")
    index = faiss.read_index(str(index_path))  # a half-written file would not load
    meta = json.loads(Path(f"{index_path}.json").read_text(encoding="utf-8"))
    assert index.ntotal > 0 and meta["dim"] == index.d


@pytest.mark.slow
@pytest.mark.xdist_group("sigkill")  # never beside test_outbox_sigkill.py: one worker runs both
def test_sigkill_during_writes_loses_nothing_acknowledged(
    kb_path: Path, embedder: Any, tmp_path: Path, monkeypatch, capsys
) -> None:
    from pitstop.cli.main import main
    from pitstop.kb.service import KnowledgeBase

    db_path = copy_kb(kb_path, tmp_path / "pitstop.db")
    acks = Acks()
    audit_rows = [CommandResult("uname", ("uname", "-a"), "ok", 0, "Linux", "", 0.01)]

    def cli_at_the_same_time(n: int) -> None:
        """While the bot-like writer runs, the CLI reads incidents and the audit log and writes audit rows."""
        if n % 4:
            return
        AuditLog(open_db(db_path)).record("cli-user", "cli", f"gpu{n}", audit_rows)
        assert main(["incidents", "list", "--db", str(db_path), "--json"]) == 0
        assert main(["audit", "--db", str(db_path), "--json"]) == 0

    counts = [12] + [random.randint(5, 15) for _ in range(2 * SCALE - 1)]
    for cycle, count in enumerate(counts):
        writer = Writer(db_path, f"cycle{cycle}")
        writer.wait_ready()
        writer.run_until(acks, count, during=cli_at_the_same_time if cycle == 0 else None)
        assert_consistent(db_path, acks)
    capsys.readouterr()
    print(
        f"\ndurability: {len(counts)} SIGKILLs survived; {len(acks.incidents)} incidents and "
        f"{len(acks.examples)} examples acknowledged, none lost"
    )
    assert len(acks.incidents) >= 7 and len(acks.examples) >= 7
    audited = open_db(db_path).execute("SELECT COUNT(*) FROM audit WHERE requester = ?", ["cli-user"])
    assert audited.fetchone()[0] == 3  # n = 0, 4, 8 of the first cycle

    # After the crashes the KB opens, its index agrees with SQLite, and learned examples are found.
    kb = KnowledgeBase.open(db_path, embedder=embedder)
    searchable = kb.db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
    assert kb.index_meta().count == searchable
    last_id = max(acks.examples)
    pitfall, text = acks.examples[last_id]
    assert kb.nearest(text, top=1, statuses=("curated", "draft"))[0].pitfall_id == pitfall


def test_index_files_are_replaced_atomically(tmp_path: Path) -> None:
    """The faiss cache is written to a temporary file and renamed: a reader sees the old or the new file."""
    import numpy as np

    from pitstop.kb.index import VectorIndex

    path = tmp_path / "kb.faiss"
    vectors = np.eye(4, dtype="float32")
    VectorIndex.build(np.arange(4), vectors, "m", "f1").save(path)
    before = os.stat(path).st_ino
    VectorIndex.build(np.arange(2), vectors[:2], "m", "f2").save(path)
    assert os.stat(path).st_ino != before  # a new file took the name, the old one was never rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb.faiss", "kb.faiss.json"]  # no temp left
    assert VectorIndex.load(path, "m", 4, "f2").meta.count == 2
    assert VectorIndex.load(path, "m", 4, "f1") is None  # a stale sidecar is ignored, never trusted

"""Helpers for the learning tests: a writable copy of the session's built KB, and a fixed clock."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pitstop.core.clock import utc_now
from pitstop.core.db import open_db
from pitstop.incidents.model import NewCause
from pitstop.incidents.store import Incidents
from pitstop.kb.embed import Embedder
from pitstop.kb.service import KnowledgeBase

# A report in a team's own words whose cause is site knowledge the curated KB cannot have (the
# nightly backup eats the RAM), and a colleague's paraphrase a week later (written for these tests).
PASTE = "the nightly eval job on gpu-17 dies at 02:00 every night while the backup runs"
PARAPHRASE = "gpu-17's eval crashes each night around 2am during the backup window"
CAUSE = "host-oom-killer"

# A cause no curated entry describes (nearest entry ~0.45 cosine): resolving with it makes a draft.
AV = NewCause(
    title="On-access antivirus scans the dataset",
    what="The security team installed an on-access antivirus agent that scans every file the loader opens",
    fix="Excluded /data and /scratch from on-access scanning",
    symptoms=(
        "epoch time doubled after the security agent rollout, high sys CPU in dataloader workers",
        "fanotify: the av-agent process holds files open while training reads them",
    ),
)
# A cause the KB already has in other words (~0.78 to bios-above-4g-decoding-disabled): a merge proposal.
ABOVE_4G = NewCause(
    title="Above 4G decoding was off",
    what="A BIOS setting disabled Above 4G Decoding so the GPU BAR could not be mapped",
    fix="Enabled Above 4G Decoding in the BIOS",
    symptoms=("NVRM: This PCI I/O region assigned to your NVIDIA device is invalid",),
)


def copy_kb(source: Path, directory: Path, embedder: Embedder) -> KnowledgeBase:
    """Open a private copy of a built KB database (SQLite backup plus its faiss cache files)."""
    target = directory / "pitstop.db"
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    for suffix in (".faiss", ".faiss.json"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return KnowledgeBase.open(target, embedder=embedder)


def incidents_for(
    kb: KnowledgeBase | None, path: Path | None = None, clock: Clock | None = None
) -> Incidents:
    """An incident store on its own connection to the KB's database, as the bot opens it."""
    return Incidents(open_db(path or kb.db_path), kb=kb, clock=clock or utc_now)


class Clock:
    """A clock that stands still until moved."""

    def __init__(self, start: datetime = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move forward by a timedelta's keyword arguments."""
        self.now += timedelta(**delta)

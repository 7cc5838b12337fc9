"""Helpers for the learning tests: a writable copy of the session's built KB, and a fixed clock."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kb.db import open_db
from kb.embed import Embedder
from kb.incidents import Incidents, utc_now
from kb.service import KnowledgeBase


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

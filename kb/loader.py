"""Load the bundled entry files (`kb/pitfalls/*.yaml`) and their mined examples (`kb/examples/`,
the sibling folder; see kb.mined) into SQLite when they changed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from pitstop.kb import store
from pitstop.kb.mined import load_examples
from pitstop.kb.schema import load_pitfalls

BUNDLE_KEY = "bundle_hash"


@dataclass(frozen=True)
class SyncReport:
    """What a load changed."""

    entries: int
    changed: int
    retired: int
    skipped: bool  # True when the files were unchanged since the last load


def examples_dir(directory: Path) -> Path:
    """The mined-examples folder that goes with an entries folder."""
    return directory.parent / "examples"


def bundle_hash(directory: Path) -> str:
    """Hash of every entry file's and mined-examples file's name and bytes."""
    digest = hashlib.sha256(f"rows {store.ROW_RULES}".encode())
    for folder in (directory, examples_dir(directory)):
        for path in sorted(folder.glob("*.yaml")):
            digest.update(f"{folder.name}/{path.name}".encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def sync_entries(db: sqlite_utils.Database, directory: Path, force: bool = False) -> SyncReport:
    """Upsert the bundled entries; curated entries whose file is gone become 'rejected'.

    Raises ValueError listing every invalid file (nothing is written then).
    """
    digest = bundle_hash(directory)
    if not force and store.get_meta(db, BUNDLE_KEY) == digest:
        return SyncReport(entries=0, changed=0, retired=0, skipped=True)
    entries = load_pitfalls(directory)
    ids = {entry.id for entry in entries}
    mined, problems = load_examples(examples_dir(directory), ids)
    if problems:
        raise ValueError("invalid mined examples:\n" + "\n".join(problems))
    with db.conn:
        db.execute("BEGIN IMMEDIATE")
        changed = sum(store.upsert_pitfall(db, entry, "curated") for entry in entries)
        gone = [
            row[0]
            for row in db.execute("SELECT id FROM pitfalls WHERE status = 'curated'")
            if row[0] not in ids
        ]
        for pitfall_id in gone:
            store.set_status(db, pitfall_id, "rejected")
        store.sync_mined(db, ((m.pitfall_id, m.text, m.source) for m in mined))
        store.refresh_documents(db)
        store.set_meta(db, BUNDLE_KEY, digest)
    return SyncReport(entries=len(entries), changed=changed, retired=len(gone), skipped=False)

"""Stored signature matches (`pitstop.kb.specificity`): which example texts each entry's signature
matches, so a signature's specificity is read at query time instead of scanning every text."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m013_signature_hits")
def m013_signature_hits(db: sqlite_utils.Database) -> None:
    """Create kb_signatures and signature_hits, and mark every example as not scanned yet."""
    db.execute(
        "CREATE TABLE kb_signatures ("
        " id INTEGER PRIMARY KEY,"
        " pitfall_id TEXT NOT NULL,"
        " pattern TEXT NOT NULL,"
        " UNIQUE (pitfall_id, pattern))"
    )
    db.execute(
        "CREATE TABLE signature_hits ("
        " signature INTEGER NOT NULL REFERENCES kb_signatures(id) ON DELETE CASCADE,"
        " example_id INTEGER NOT NULL REFERENCES examples(id) ON DELETE CASCADE,"
        " PRIMARY KEY (signature, example_id)) WITHOUT ROWID"
    )
    db.execute("CREATE INDEX signature_hits_example ON signature_hits (example_id)")
    db.execute("ALTER TABLE examples ADD COLUMN signatures_scanned INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX examples_unscanned ON examples (id) WHERE signatures_scanned = 0")

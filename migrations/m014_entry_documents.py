"""One FTS5 document per searchable entry (`pitstop.kb.store.refresh_documents`): the entry-level
BM25 signal ranks whole entries (title, summary, cause and every example together) instead of their
best single row. Every existing entry is marked stale, so the KB writes its document on first load."""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations


@migrations(name="m014_entry_documents")
def m014_entry_documents(db: sqlite_utils.Database) -> None:
    """Create entries_fts and mark every entry's document as to be written."""
    db.execute(
        "CREATE VIRTUAL TABLE entries_fts USING fts5("
        "pitfall_id UNINDEXED, terms, tokenize='unicode61 remove_diacritics 2')"
    )
    db.execute("ALTER TABLE pitfalls ADD COLUMN document_stale INTEGER NOT NULL DEFAULT 1")
    db.execute("CREATE INDEX pitfalls_document_stale ON pitfalls (id) WHERE document_stale = 1")

"""One FTS5 document per searchable entry (`pitstop.kb.store.refresh_documents`): the entry-level
BM25 signal ranks whole entries (title, summary, cause and every example together) instead of their
best single row. Every existing entry is marked stale, so the KB writes its document on first load."""

from __future__ import annotations

import sqlite3

import sqlite_utils

from pitstop.migrations import migrations

# FTS5 keeps this much of a write's postings in memory before it flushes them as a segment (its default
# is 1 MiB): the documents are written all at once at a build, and fewer, larger segments to merge
# took a third off the insert's CPU at 10k entries (bench/RESULTS.md, "The entry index, again").
HASH_BYTES = 8 << 20


@migrations(name="m014_entry_documents")
def m014_entry_documents(db: sqlite_utils.Database) -> None:
    """Create entries_fts and mark every entry's document as to be written."""
    db.execute(
        "CREATE VIRTUAL TABLE entries_fts USING fts5("
        "pitfall_id UNINDEXED, terms, tokenize='unicode61 remove_diacritics 2')"
    )
    try:
        db.execute(f"INSERT INTO entries_fts(entries_fts, rank) VALUES ('hashsize', {HASH_BYTES})")
    except sqlite3.OperationalError:  # an SQLite without the option: its default
        pass
    db.execute("ALTER TABLE pitfalls ADD COLUMN document_stale INTEGER NOT NULL DEFAULT 1")
    db.execute("CREATE INDEX pitfalls_document_stale ON pitfalls (id) WHERE document_stale = 1")

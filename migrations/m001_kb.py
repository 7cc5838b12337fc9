"""Knowledge-base tables: pitfalls, their examples, cached embeddings, and two FTS5 indexes.

`docs_fts` (trigram) matches codes and partial tokens; `words_fts` (unicode61 over words plus CJK
character bigrams) gives word-level BM25 that also works for two-character Chinese terms, which
trigrams cannot match. `term_df` is a snapshot of each term's document count in each index (from the
fts5vocab tables, whose own lookups cost as much as the term is common), so a query on a large KB
keeps its rarest terms within a work budget.
"""

from __future__ import annotations

import sqlite_utils

from pitstop.migrations import migrations

FTS_COLUMNS = "pitfall_id UNINDEXED, example_id UNINDEXED, title, summary, symptoms, cause"

STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS pitfalls (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        title_zh TEXT NOT NULL DEFAULT '',
        layer TEXT NOT NULL,
        severity TEXT NOT NULL,
        benign INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '',
        summary_zh TEXT NOT NULL DEFAULT '',
        cause TEXT NOT NULL DEFAULT '',
        body_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'curated'
            CHECK (status IN ('curated', 'draft', 'rejected')),
        provenance TEXT NOT NULL DEFAULT '',
        content_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    """CREATE INDEX IF NOT EXISTS pitfalls_status ON pitfalls(status)""",
    """CREATE TABLE IF NOT EXISTS examples (
        id INTEGER PRIMARY KEY,
        pitfall_id TEXT NOT NULL REFERENCES pitfalls(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'symptom',
        source TEXT NOT NULL DEFAULT 'curated'
            CHECK (source IN ('curated', 'incident', 'import')),
        incident_id INTEGER,
        provenance TEXT NOT NULL DEFAULT '',
        content_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    """CREATE INDEX IF NOT EXISTS examples_pitfall ON examples(pitfall_id)""",
    """CREATE TABLE IF NOT EXISTS embeddings (
        example_id INTEGER PRIMARY KEY REFERENCES examples(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        content_hash TEXT NOT NULL
    )""",
    """CREATE INDEX IF NOT EXISTS embeddings_hash ON embeddings(model, content_hash)""",
    """CREATE TABLE IF NOT EXISTS kb_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5({FTS_COLUMNS}, tokenize='trigram')""",
    f"""CREATE VIRTUAL TABLE IF NOT EXISTS words_fts USING fts5(
        {FTS_COLUMNS}, tokenize='unicode61 remove_diacritics 2')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS docs_vocab USING fts5vocab(docs_fts, 'row')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS words_vocab USING fts5vocab(words_fts, 'row')""",
    """CREATE TABLE IF NOT EXISTS term_df (
        fts TEXT NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL, PRIMARY KEY (fts, term)
    ) WITHOUT ROWID""",
)


@migrations(name="m001_kb_tables")
def kb_tables(db: sqlite_utils.Database) -> None:
    """Create pitfalls, examples, embeddings, kb_meta and the FTS5 tables."""
    # One statement at a time: executescript() would COMMIT the migration's transaction.
    for statement in STATEMENTS:
        db.execute(statement)

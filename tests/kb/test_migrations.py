"""Migration m001_kb: fresh database, reopen, upgrade of an existing file, FTS tokenizers."""

from __future__ import annotations

import sqlite3

from pitstop.core.db import open_db
from pitstop.migrations import migrations

KB_TABLES = {"pitfalls", "examples", "embeddings", "kb_meta", "docs_fts", "words_fts"}


def _applied(db) -> list[str]:
    return [m.name for m in migrations.applied(db)]


def test_fresh_database_has_kb_tables(tmp_path):
    db = open_db(tmp_path / "fresh.db")
    assert KB_TABLES <= set(db.table_names())
    assert "m001_kb_tables" in _applied(db)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reopening_applies_nothing_twice(tmp_path):
    path = tmp_path / "again.db"
    first = _applied(open_db(path))
    db = open_db(path)
    assert _applied(db) == first
    assert len(_applied(db)) == len(set(_applied(db)))


def test_empty_file_is_upgraded(tmp_path):
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    assert KB_TABLES <= set(open_db(path).table_names())


def test_upgrade_keeps_existing_data(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes(text TEXT)")
    conn.execute("INSERT INTO notes VALUES ('kept')")
    conn.commit()
    conn.close()
    db = open_db(path)
    assert KB_TABLES <= set(db.table_names())
    assert db.execute("SELECT text FROM notes").fetchall() == [("kept",)]


def test_trigram_index_matches_substrings_and_chinese(tmp_path):
    db = open_db(tmp_path / "fts.db")
    db.execute(
        "INSERT INTO docs_fts(pitfall_id, title, summary, symptoms, cause) VALUES (?, ?, ?, ?, ?)",
        ("p", "Driver/library version mismatch", "", "训练时显存不够用了", ""),
    )
    hits = lambda q: db.execute("SELECT pitfall_id FROM docs_fts WHERE docs_fts MATCH ?", (q,)).fetchall()  # noqa: E731
    assert hits('"mismat"') == [("p",)]
    assert hits('"显存不够"') == [("p",)]
    assert hits('"bananas"') == []

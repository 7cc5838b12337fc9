"""The FTS indexes after a content change (kb.store.refresh_lexical): merged into one segment, with
the same rows, scores and order as before, and fresh term counts."""

from __future__ import annotations

from pathlib import Path

from pitstop.kb import store
from pitstop.kb.embed import Embedder
from pitstop.kb.service import KnowledgeBase
from tests.kb.entries import make_entry

QUERY = '"driver" OR "xid" OR "79" OR "fell" OR "bus" OR "nvlink" OR "ecc"'


def segments(kb: KnowledgeBase, table: str) -> int:
    return kb.db.execute(f"SELECT count(DISTINCT segid) FROM {table}_idx").fetchone()[0]


def ranked(kb: KnowledgeBase, table: str) -> list[tuple[int, float]]:
    return kb.db.execute(
        f"SELECT rowid, bm25({table}, 0, 0, 3, 1.5, 2, 0.5) AS s FROM {table} WHERE {table} MATCH ? "
        "ORDER BY s LIMIT 300",
        (QUERY if table == "words_fts" else '"nvlink" OR "xid 79"',),
    ).fetchall()


def test_a_content_change_merges_each_fts_index_into_one_segment_ranking_as_before(
    tmp_path: Path, embedder: Embedder
):
    kb = KnowledgeBase.open(tmp_path / "kb.db", entries_dir=None, embedder=embedder)
    symptoms = ("Xid 79: GPU has fallen off the bus", "NVLink errors after the driver update", "ECC xid 48")
    for n in range(6):  # one transaction each: one segment each (FTS5 merges four at a time)
        kb.upsert_pitfall(
            make_entry(f"entry-{n}", (), tuple(f"{s} on node {n}" for s in symptoms[: n % 3 + 1]))
        )
    before = {table: ranked(kb, table) for table in store.FTS_TABLES}
    assert all(segments(kb, table) > 1 for table in store.FTS_TABLES)
    assert len(before["words_fts"]) == 6 and before["docs_fts"]

    kb.ask("Xid 79 GPU has fallen off the bus")  # the content changed: the index is rebuilt
    assert all(segments(kb, table) == 1 for table in store.FTS_TABLES)
    assert {table: ranked(kb, table) for table in store.FTS_TABLES} == before
    assert store.term_df(kb.db, "words_fts", ["xid", "nvlink"]) == {"xid": 6, "nvlink": 4}
    kb.close()

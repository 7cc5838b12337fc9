"""The entry-level index (`entries_fts`, migration m014): one document per searchable entry, the same
terms `kb.baseline` counts, kept in step with builds, learned examples and rejected entries, and
ranked as the fused `entry` signal."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import sqlite_utils

from pitstop.core.db import open_db
from pitstop.kb import store
from pitstop.kb.baseline import BM25
from pitstop.kb.embed import Embedder
from pitstop.kb.evaluate import load_cases
from pitstop.kb.preprocess import prepare
from pitstop.kb.retrieve import Tuning
from pitstop.kb.service import KnowledgeBase
from pitstop.migrations import migrations
from tests.kb.entries import make_entry

OWN_CASES = Path(__file__).resolve().parents[2] / "bench" / "eval" / "own-cases.jsonl"
# the sixth pass's choice for the entry signal (bench/RESULTS.md); shipped off (weight 0)
WITH_ENTRY = {"signature": 1.0, "words": 0.5, "trigram": 0.5, "dense": 1.0, "entry": 1.0}


def documents(db: sqlite_utils.Database) -> dict[str, Counter[str]]:
    """Entry id -> term counts of its stored document."""
    rows = db.execute("SELECT pitfall_id, terms FROM entries_fts").fetchall()
    assert len(rows) == len({pid for pid, _ in rows}), "one row per entry"
    return {pid: Counter(terms.split()) for pid, terms in rows}


@pytest.fixture
def small_kb(tmp_path: Path, embedder: Embedder) -> KnowledgeBase:
    kb = KnowledgeBase.open(tmp_path / "kb.db", entries_dir=None, embedder=embedder)
    kb.upsert_pitfall(make_entry("ring-stall", ("ring stall",), ("zorvex timeout on the ring",)))
    kb.upsert_pitfall(make_entry("cable-flap", ("cable flap",), ("link flapped on port 3",)))
    yield kb
    kb.close()


def test_the_migration_creates_the_index_and_marks_old_entries_stale(tmp_path):
    path = tmp_path / "old.db"
    old = sqlite_utils.Database(path)
    migrations.apply(old, stop_before="m014_entry_documents")
    old.execute(
        "INSERT INTO pitfalls(id, title, layer, severity, summary, cause, body_json, status, content_hash, "
        "created_at, updated_at) VALUES ('p', 'Quorvian meltdown', 'driver', 'high', 's', 'c', '{}', "
        "'curated', 'h', 't', 't')"
    )
    old.conn.commit()
    old.close()
    db = open_db(path)
    assert "entries_fts" in db.table_names()
    assert db.execute("SELECT id FROM pitfalls WHERE document_stale = 1").fetchall() == [("p",)]
    with db.conn:
        assert store.refresh_documents(db) == 1
    assert documents(db) == {"p": Counter(["quorvian", "meltdown"])}
    assert not store.documents_stale(db)


def test_the_built_kb_has_the_baselines_documents(kb):
    db = kb.db
    bm25 = BM25.from_db(db)
    stored = documents(db)
    assert set(stored) == store.pitfall_ids(db) and len(stored) >= 100
    assert stored == dict(zip(bm25.ids, bm25.counts, strict=True))


def test_a_learned_example_is_in_its_entrys_document_at_once(small_kb):
    assert "quillonate" not in documents(small_kb.db)["cable-flap"]
    small_kb.add_example("cable-flap", "the quillonate transceiver kept renegotiating", source="incident")
    after = documents(small_kb.db)
    assert after["cable-flap"]["quillonate"] == 1
    assert "quillonate" not in after["ring-stall"]
    ranked = small_kb.retriever._entry(prepare("quillonate"), small_kb._get_catalog())
    assert [pid for pid, _, _ in ranked] == ["cable-flap"]


def test_a_rejected_entry_loses_its_document_and_a_changed_one_is_rewritten(small_kb):
    small_kb.upsert_pitfall(make_entry("ring-stall", ("ring stall",), ("zorvex timeout", "brantic hang")))
    small_kb.ask("zorvex")  # the catalog load refreshes nothing: the write already did
    assert documents(small_kb.db)["ring-stall"]["brantic"] == 1
    small_kb.upsert_pitfall(make_entry("cable-flap", ("cable flap",), status="rejected"))
    assert set(documents(small_kb.db)) == {"ring-stall"}


def test_the_entry_signal_ranks_the_whole_entry_not_its_best_row(small_kb):
    """`words` ranks by an entry's best row (its own text, or one example); the entry's document adds up
    what all its rows say."""
    paste = "quillon mervale tarpex brantic"
    small_kb.upsert_pitfall(make_entry("one-row", ("one row",), ("quillon mervale tarpex stuck",)))
    small_kb.upsert_pitfall(make_entry("spread", ("spread",), ("quillon on node 1",)))
    for text in ("mervale on node 2", "tarpex on node 3", "brantic on node 4"):
        small_kb.add_example("spread", text, source="incident")
    catalog, prepared = small_kb._get_catalog(), prepare(paste)
    assert small_kb.retriever._words(prepared, catalog)[0][0] == "one-row"
    entry = small_kb.retriever._entry(prepared, catalog)
    assert [pid for pid, _, _ in entry][:2] == ["spread", "one-row"]
    small_kb.retriever.tuning = replace(small_kb.retriever.tuning, weights=WITH_ENTRY)
    answer = small_kb.ask(paste)
    spread_match = next(m for m in answer.results if m.id == "spread")
    assert any("whole text ranks #1" in str(w) for w in spread_match.why)


@pytest.mark.parametrize("case_id", ["o192", "o336"])
def test_the_entry_signal_puts_the_right_cause_first_where_the_rows_did_not(kb_path, embedder, case_id):
    """Two of the project's own cases that the fusion without the entry signal (the shipped one: its
    weight is 0) ranks second; at the weights the sixth pass chose for it they come first."""
    case = next(c for c in load_cases(OWN_CASES) if c.id == case_id)
    before = Tuning()
    with_entry = replace(before, weights=WITH_ENTRY)
    ranked = {}
    for name, tuning in (("with entry", with_entry), ("before", before)):
        kb = KnowledgeBase.open(kb_path, embedder=embedder, tuning=tuning)
        ranked[name] = [m.id for m in kb.ask(case.query).results]
        kb.close()
    assert ranked["with entry"][0] in case.slugs, ranked
    assert ranked["before"][0] not in case.slugs and set(ranked["before"][:3]) & set(case.slugs), ranked

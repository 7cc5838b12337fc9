"""The entry-level index (`entries_fts`, migration m014): one document per searchable entry (the terms
`kb.baseline` counts plus the word index's whole Chinese words), kept in step with builds, learned
examples and rejected entries, ranked as the fused `entry` signal, and not run at weight 0."""

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
from pitstop.kb.retrieve import Retriever, Tuning, _Evidence
from pitstop.kb.service import KnowledgeBase
from pitstop.kb.tokens import CJK_RUN, WORD, _known_words, document_text, informative, word_text
from pitstop.migrations import migrations
from tests.kb.entries import make_entry

OWN_CASES = Path(__file__).resolve().parents[2] / "bench" / "eval" / "own-cases.jsonl"
# the sixth pass's choice for the entry signal (bench/RESULTS.md), and the fusion before it
WITH_ENTRY = {"signature": 1.0, "words": 0.5, "trigram": 0.5, "dense": 1.0, "entry": 1.0}
WITHOUT = {"signature": 1.5, "words": 1.5, "trigram": 0.5, "dense": 1.0, "entry": 0.0}


def document_terms(text: str) -> list[str]:
    """The reference `document_text` is checked against: one term at a time, the word index's terms
    (`word_text`) without stopwords."""
    return [t for t in (w.lower() for w in WORD.findall(word_text(text))) if informative(t)]


def documents(db: sqlite_utils.Database) -> dict[str, Counter[str]]:
    """Entry id -> term counts of its stored document."""
    rows = db.execute("SELECT pitfall_id, terms FROM entries_fts").fetchall()
    assert len(rows) == len({pid for pid, _ in rows}), "one row per entry"
    return {pid: Counter(terms.split()) for pid, terms in rows}


def indexed(db: sqlite_utils.Database) -> dict[str, Counter[str]]:
    """Entry id -> term counts as FTS5 itself tokenized the stored document."""
    db.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.entry_terms USING fts5vocab(main, entries_fts, instance)"
    )
    owner = dict(db.execute("SELECT id, c0 FROM entries_fts_content").fetchall())
    out: dict[str, Counter[str]] = {}
    for term, rowid in db.execute("SELECT term, doc FROM temp.entry_terms"):
        out.setdefault(owner[rowid], Counter())[term] += 1
    return out


def whole_words(text: str) -> Counter[str]:
    """The known whole Chinese words the word index finds in `text` (beside its bigrams)."""
    known = _known_words()
    return Counter(
        w for run in CJK_RUN.findall(text) if len(run) > 1 for w in known.findall(run) if informative(w)
    )


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
    assert store.documents_stale(db)
    with db.conn:
        assert store.refresh_documents(db) == 1
    assert documents(db) == {"p": Counter(["quorvian", "meltdown"])}
    assert not store.documents_stale(db)
    assert store.get_meta(db, store.DOCUMENTS_KEY) == store.documents_version()


def test_documents_written_by_other_rules_are_all_rewritten(small_kb, monkeypatch):
    """A new `documents_version` (its rules, or the word index's known words) makes every entry stale,
    and the next catalog load rewrites them: also a database whose entries_fts an older build wrote."""
    db = small_kb.db
    small_kb._get_catalog()
    before = documents(db)
    assert not store.documents_stale(db)
    with db.conn:
        db.execute("DELETE FROM entries_fts")  # as if another version had left it out of step
    monkeypatch.setattr(store, "DOCUMENT_RULES", store.DOCUMENT_RULES + 1)
    assert store.documents_stale(db)
    small_kb._invalidate()
    small_kb._get_catalog()
    assert documents(db) == before and not store.documents_stale(db)


def test_the_built_kb_has_the_baselines_documents_and_the_whole_chinese_words(kb):
    """Each stored document is `document_terms` of the entry's text: what kb.baseline counts (bigrams, no
    stopwords) plus the whole Chinese ops words the word index keeps beside the bigrams; FTS5 splits the
    stored text into exactly those terms."""
    db = kb.db
    texts = dict(store.entry_documents(db))
    stored = documents(db)
    assert set(stored) == store.pitfall_ids(db) == set(texts) and len(stored) >= 100
    assert stored == {pid: Counter(document_terms(text)) for pid, text in texts.items()}
    assert indexed(db) == stored
    bm25 = BM25.from_db(db)
    baseline = dict(zip(bm25.ids, bm25.counts, strict=True))
    assert all(stored[pid] == baseline[pid] + whole_words(texts[pid]) for pid in stored)
    assert sum(sum(whole_words(text).values()) for text in texts.values()) > 100  # Chinese entries have them


def test_document_text_holds_the_terms_of_document_terms():
    for text in (
        "NCCL WARN a timeout of the ring: Xid 79 on GPU 3_x",
        "训练跑一段时间后宿主机看不到显卡了，nvidia-smi 报 GPU 掉卡",
        "的 了 卡 a I",
        "",
    ):
        assert Counter(document_text(text).split()) == Counter(document_terms(text)), text


def test_a_chinese_paste_matches_the_entry_document_by_a_whole_word(small_kb):
    """The paste and the document share the whole word 宿主机 (its bigrams 宿主 and 主机 are in another
    entry too, twice): the whole word ranks this entry first, as it does the entry's row in `words`."""
    small_kb.upsert_pitfall(make_entry("host-lost", ("host lost",), ("重启后宿主机看不到显卡",)))
    small_kb.upsert_pitfall(make_entry("bigrams", ("bigrams",), ("宿主 进程 主机 名字 宿主 主机",)))
    assert documents(small_kb.db)["host-lost"]["宿主机"] == 1
    assert "宿主机" not in documents(small_kb.db)["bigrams"]
    whole = small_kb.db.execute("SELECT pitfall_id FROM entries_fts WHERE entries_fts MATCH '\"宿主机\"'")
    assert whole.fetchall() == [("host-lost",)]
    catalog, prepared = small_kb._get_catalog(), prepare("宿主机")
    assert [pid for pid, _, _ in small_kb.retriever._entry(prepared, catalog)] == ["host-lost", "bigrams"]
    assert small_kb.retriever._words(prepared, catalog)[0][0] == "host-lost"


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


def test_the_confidence_is_judged_at_the_calibrated_weights_whatever_ranks(kb_path, embedder):
    """The shipped ranking (five signals, its own weights and k) re-orders entries; the label of an
    entry is what the four signals at `Tuning.judged` and `judged_k` say of it, so an entry first under
    both fusions gets the same confidence from both."""
    shipped = Tuning()
    assert shipped.weights["entry"] > 0 and "entry" not in shipped.judged
    calibrated = replace(shipped, weights=dict(shipped.judged), rrf_k=shipped.judged_k)
    pastes = [
        "Xid 79 GPU has fallen off the bus",
        "NCCL WARN Call to ibv_reg_mr failed",
        "训练时显卡掉卡",
        "RuntimeError: CUDA error: out of memory",
        "nvidia-smi: Failed to initialize NVML: Driver/library version mismatch",
    ]
    labels = {}
    for name, tuning in (("shipped", shipped), ("calibrated", calibrated)):
        kb = KnowledgeBase.open(kb_path, embedder=embedder, tuning=tuning)
        labels[name] = [(a.results[0].id, a.results[0].confidence) for a in map(kb.ask, pastes)]
        kb.close()
    same_first = [
        (s, c) for s, c in zip(labels["shipped"], labels["calibrated"], strict=True) if s[0] == c[0]
    ]
    assert len(same_first) >= 3, labels
    assert all(s[1] == c[1] for s, c in same_first), labels
    assert any(s[1] != "low" for s, _ in same_first), labels


def test_the_agreement_is_taken_at_the_calibrated_k_not_the_ranking_k(small_kb):
    """An entry the signature and entry signals rank first and the others second or third agrees 0.87
    at the calibrated k 5 ("medium") but 0.91 at the ranking's k 8: the label must be "medium"."""
    small_kb.retriever.tuning = Tuning()
    assert small_kb.retriever.tuning.rrf_k != small_kb.retriever.tuning.judged_k
    ranks = {"signature": 1, "words": 2, "trigram": 3, "dense": 3, "entry": 1}
    item = _Evidence(ranks=ranks, signature_chars=20.0, similarity=0.8)
    [(pid, score)] = small_kb.retriever._fuse({"x": item}, tuple(ranks))
    assert pid == "x" and small_kb.retriever._confidence(item, score) == "medium"


def test_at_weight_0_the_entry_signal_is_not_run_and_the_answer_is_the_four_signal_one(kb_path, embedder):
    """A zero weight skips the signal (no entries_fts query); ranking and confidence are then exactly those
    of the four-signal fusion (weights equal to `Tuning.judged`: the discount added back as before)."""
    calls: list[str] = []
    entry = Retriever._entry

    def counted(self, prepared, catalog):
        calls.append(prepared.clean)
        return entry(self, prepared, catalog)

    pastes = ["Xid 79 GPU has fallen off the bus", "NCCL WARN Call to ibv_reg_mr failed", "训练时显卡掉卡"]
    kb = KnowledgeBase.open(kb_path, embedder=embedder, tuning=replace(Tuning(), weights=WITHOUT))
    try:
        Retriever._entry = counted  # type: ignore[method-assign]
        off = [kb.ask(p) for p in pastes]
        assert calls == []
        kb.retriever.tuning = replace(kb.retriever.tuning, weights={**WITHOUT, "entry": 1.0})
        kb.ask(pastes[0])
        assert len(calls) == 1
    finally:
        Retriever._entry = entry  # type: ignore[method-assign]
        kb.close()
    four = {k: v for k, v in WITHOUT.items() if k != "entry"}
    kb = KnowledgeBase.open(kb_path, embedder=embedder, tuning=replace(Tuning(), weights=four))
    try:
        for paste, answer in zip(pastes, off, strict=True):
            again = kb.ask(paste)
            assert [(m.id, m.score, m.confidence) for m in again.results] == [
                (m.id, m.score, m.confidence) for m in answer.results
            ]
            assert all("whole text ranks" not in str(w) for m in answer.results for w in m.why)
    finally:
        kb.close()


@pytest.mark.parametrize("case_id", ["o217", "o290", "o360"])
def test_the_entry_signal_puts_the_right_cause_first_where_the_rows_did_not(kb_path, embedder, case_id):
    """Three of the project's own cases (one Chinese) that the four-signal fusion ranks second on
    today's KB and the shipped five-signal fusion ranks first."""
    case = next(c for c in load_cases(OWN_CASES) if c.id == case_id)
    shipped = Tuning()
    ranked = {}
    for name, tuning in (
        ("with entry", shipped),
        ("before", replace(shipped, weights=dict(shipped.judged), rrf_k=shipped.judged_k)),
    ):
        kb = KnowledgeBase.open(kb_path, embedder=embedder, tuning=tuning)
        ranked[name] = [m.id for m in kb.ask(case.query).results]
        kb.close()
    assert ranked["with entry"][0] in case.slugs, ranked
    assert ranked["before"][0] not in case.slugs and set(ranked["before"][:3]) & set(case.slugs), ranked

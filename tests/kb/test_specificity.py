"""Stored signature matches (kb.specificity): equal to scanning every text, and never stale after a
build, a learned example, a resolution, an import, a removed text or a rejected entry."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pitstop.core.db import open_db
from pitstop.kb import signatures, specificity, store
from pitstop.kb.embed import Embedder
from pitstop.kb.evaluate import load_cases
from pitstop.kb.retrieve import Catalog
from pitstop.kb.schema import Pitfall
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import copy_kb, incidents_for
from tests.kb.entries import make_entry

SHARED = "couldn't communicate with the NVIDIA driver"


def scanned(kb: KnowledgeBase) -> tuple[tuple[int, int], ...]:
    """(own, all) matches per catalog signature, by searching every searchable example text."""
    texts = kb.db.execute(
        "SELECT e.pitfall_id, e.text FROM examples e JOIN pitfalls p ON p.id = e.pitfall_id "
        "WHERE p.status IN ('curated', 'draft')"
    ).fetchall()
    out = []
    for sig in kb._get_catalog().signatures:
        matched = [pid for pid, text in texts if sig.regex.search(text) is not None]
        out.append((matched.count(sig.pitfall_id), len(matched)))
    return tuple(out)


def stored(kb: KnowledgeBase) -> tuple[tuple[int, int], ...]:
    return kb._get_catalog().hits


def entry(pitfall_id: str, signature: str, symptoms: tuple[str, ...], status: str = "curated") -> Pitfall:
    return make_entry(pitfall_id, (signature,), symptoms, status=status)


@pytest.fixture
def small_kb(tmp_path: Path, embedder: Embedder) -> KnowledgeBase:
    kb = KnowledgeBase.open(tmp_path / "kb.db", entries_dir=None, embedder=embedder)
    kb.upsert_pitfall(entry("module-not-loaded", r"couldn.t communicate with the NVIDIA driver", (SHARED,)))
    symptoms = (f"{SHARED} after the update", "DKMS build failed for kernel 6.8")
    kb.upsert_pitfall(entry("dkms-not-built", r"DKMS build failed", symptoms))
    yield kb
    kb.close()


def test_the_scanner_finds_what_searching_each_signature_finds():
    patterns = [
        r"\bXid\s*(?:\(PCI:[\w:.]+\))?\s*[:=]?\s*79\b",
        r"[[:digit:]]+ errors",  # a POSIX class: parsed differently by Python's parser, so no prefilter
        r"(?:abc|de)fgh",
        r"status code",
        r"掉卡|显存不足",
        r"(?<!\d)5[01]\d(?!\d).{0,30}not",  # a lookaround: the fallback engine
        r"\[[U_]*_[U_]*\]",  # no literal worth prefiltering on: searched on every text
    ]
    compiled = [signatures.compile_signature(p) for p in patterns]
    texts = [
        "NVRM: XID (PCI:0000:3b:00): 79, pid=1",
        "7 errors",
        "DEFGH",
        "STATUS CODE",
        "ſtatus code",  # long s: RE2 folds it to s
        "\u212a",  # Kelvin sign
        "训练时掉卡了",
        "510 not 535",
        "md0 : active raid1 [U_]",
        "nothing here",
    ]
    whole, literals = signatures.Scanner(compiled), signatures.Scanner(compiled, whole=False)
    for text in texts:
        expected = [i for i, c in enumerate(compiled) if c.search(text) is not None]
        assert whole.matching(text) == literals.matching(text) == expected, text
    assert literals.matching("ſtatus code") == [3]  # the casefolded prefilter keeps RE2's case folding


def test_a_paste_searched_only_with_the_prefilters_candidates_matches_as_with_every_signature(kb, shared_dir):
    """The retriever searches a paste only with `Catalog.prefilter`'s candidates: the same first matches
    as trying every signature, on the dev pastes and on example texts of the bundled KB."""
    catalog = kb._get_catalog()
    compiled = [sig.regex for sig in catalog.signatures]
    pastes = [case.query for case in load_cases(shared_dir / "eval" / "dev-cases.jsonl")]
    texts = [row[0] for row in kb.db.execute("SELECT text FROM examples ORDER BY id LIMIT 400")]
    hits = 0
    for text in pastes + texts:
        every, _ = signatures.first_matches(compiled, text, 60.0)
        candidates = sorted(catalog.prefilter().candidates(text))
        only, _ = signatures.first_matches(compiled, text, 60.0, candidates)
        assert [(i, m.start(), m.end()) for i, m in only] == [(i, m.start(), m.end()) for i, m in every]
        assert len(candidates) < len(compiled) / 4  # the point: most signatures are never tried
        assert catalog.candidates(text) == candidates  # what the retriever searches, once built
        hits += len(every)
    assert hits > 200  # the bundled signatures match these texts (290 when written)


def test_stored_counts_of_the_bundled_kb_equal_a_scan_of_every_text(kb):
    assert stored(kb) == scanned(kb)
    assert sum(total for _, total in stored(kb)) > 500  # the bundled signatures match real texts


def test_a_reopened_kb_reads_the_stored_counts_without_scanning(small_kb, embedder):
    small_kb.ask(SHARED)
    reopened = KnowledgeBase.open(small_kb.db_path, entries_dir=None, embedder=embedder)
    catalog = Catalog.from_pitfalls(store.load_pitfalls(reopened.db))
    assert specificity.refresh(reopened.db, catalog) == set()  # nothing left to scan
    assert stored(reopened) == scanned(reopened) == ((1, 1), (1, 2))  # dkms-not-built's, then the shared one
    reopened.close()


def test_a_learned_example_updates_the_counts_at_once(small_kb):
    small_kb.ask(SHARED)
    before = stored(small_kb)
    small_kb.add_example("dkms-not-built", f"nvidia-smi: {SHARED}", source="incident")
    assert stored(small_kb) == scanned(small_kb) == ((1, 1), (1, 3))
    assert stored(small_kb) != before
    shared = small_kb._get_catalog().specificity(1)
    assert shared == pytest.approx((2 / 4) ** 0.5)


def test_an_import_scans_new_signatures_and_texts(small_kb):
    small_kb.ask(SHARED)
    small_kb.upsert_pitfall(
        entry("secure-boot", r"Key was rejected", ("modprobe: Key was rejected",), status="draft"),
        examples=[f"{SHARED}: Key was rejected by service"],
        source="import",
    )
    assert stored(small_kb) == scanned(small_kb)
    assert stored(small_kb) == ((1, 1), (1, 3), (2, 2))


def test_a_removed_text_and_a_rejected_entry_stop_counting(small_kb):
    small_kb.ask(SHARED)
    small_kb.upsert_pitfall(entry("dkms-not-built", r"DKMS build failed", ("DKMS build failed",)))
    assert stored(small_kb) == scanned(small_kb) == ((1, 1), (1, 1))
    small_kb.add_example("dkms-not-built", SHARED, source="incident")
    small_kb.upsert_pitfall(entry("dkms-not-built", r"DKMS build failed", (), status="rejected"))
    assert stored(small_kb) == scanned(small_kb) == ((1, 1),)


def test_a_resolution_updates_the_counts(kb_path, embedder, tmp_path):
    kb = copy_kb(kb_path, tmp_path, embedder)
    paste = "nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver"
    incidents = incidents_for(kb)
    iid = incidents.record_answer(channel="C1", thread_ts="1.0", user="U1", text=paste, answer=kb.ask(paste))
    before = stored(kb)
    incidents.resolve(iid, user="U2", cause_id="secure-boot-blocks-nvidia-module")
    assert stored(kb) != before
    assert stored(kb) == scanned(kb)
    kb.close()


def test_a_new_matching_rule_recomputes_every_stored_match(small_kb, monkeypatch):
    small_kb.ask(SHARED)
    db = small_kb.db
    db.execute("DELETE FROM signature_hits")  # a stale store under the old rules
    monkeypatch.setattr(specificity, "RULES", "test")
    catalog = replace(small_kb._get_catalog(), hits=())
    assert specificity.refresh(db, catalog) is None
    assert specificity.weigh(db, catalog).hits == scanned(small_kb)


def test_the_migration_marks_every_example_unscanned(tmp_path):
    db = open_db(tmp_path / "m.db")
    columns = {row[1] for row in db.execute("PRAGMA table_info(examples)")}
    assert "signatures_scanned" in columns
    assert {"kb_signatures", "signature_hits"} <= set(db.table_names())

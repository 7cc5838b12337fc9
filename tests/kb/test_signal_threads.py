"""Where a question's work runs (kb.retrieve.Retriever.ask): the trigram query on a worker beside the
word query, and each thread's KB connection with the larger page cache (kb.service.CACHE_KIB)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from pitstop.kb.preprocess import prepare
from pitstop.kb.service import CACHE_KIB, KnowledgeBase

PASTE = "多机训练 NCCL watchdog timeout, cudaErrorLaunchFailure on enp4s0"


def test_the_trigram_query_runs_on_a_worker_beside_the_word_query(
    kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
):
    retriever = kb.retriever
    seen: dict[str, tuple[str, object]] = {}
    for signal in ("_words", "_trigram"):
        inner = getattr(retriever, signal)

        def record(prepared, catalog, inner=inner, signal=signal):  # noqa: ANN001, ANN202
            found = inner(prepared, catalog)
            seen[signal] = (threading.current_thread().name, found)
            return found

        monkeypatch.setattr(retriever, signal, record)
    answer = kb.ask(PASTE)
    assert seen["_words"][0] == threading.current_thread().name
    assert seen["_trigram"][0].startswith("kb-dense") and seen["_trigram"][1]
    monkeypatch.undo()
    # the worker's ranking is the one this thread computes, and asking again answers the same
    assert seen["_trigram"][1] == retriever._trigram(prepare(PASTE), retriever._catalog())  # noqa: SLF001
    assert [(m.id, m.score) for m in kb.ask(PASTE).results] == [(m.id, m.score) for m in answer.results]


def test_every_thread_s_kb_connection_caches_more_pages(kb: KnowledgeBase):
    def cache_size() -> int:
        return kb.db.execute("PRAGMA cache_size").fetchone()[0]

    with ThreadPoolExecutor(1) as pool:
        other = pool.submit(cache_size).result()
    assert cache_size() == other == -CACHE_KIB != -2000  # SQLite's default: 2,000 KiB

"""Hostile learning inputs: "Not it" votes, imported bundles, drafts (red-team review hred5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitstop.kb.embed import Embedder
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import copy_kb, incidents_for

QUERY = "NCCL WARN Cuda failure 'unknown error' on rank 3 after the driver update"


@pytest.fixture
def fresh_kb(kb_path: Path, embedder: Embedder, tmp_path: Path) -> KnowledgeBase:
    kb = copy_kb(kb_path, tmp_path, embedder)
    yield kb
    kb.close()


def scores(kb: KnowledgeBase, text: str) -> dict[str, float]:
    return {m.id: m.score for m in kb.ask(text, top=10).results}


def test_one_user_voting_not_it_from_many_incidents_demotes_nothing(fresh_kb):
    """One person who pastes the same error in three threads and says "Not it" in each is one voice:
    the demotion needs MIN_NOT_IT distinct people, not distinct (incident, user) pairs."""
    before = scores(fresh_kb, QUERY)
    target = next(iter(before))
    store = incidents_for(fresh_kb)
    for n in range(3):
        text = QUERY.replace("rank 3", f"rank {n + 4}")
        iid = store.record_answer(
            channel="C1", thread_ts=f"{n}.0", user="U9", text=text, answer=fresh_kb.ask(text)
        )
        store.feedback(iid, user="U9", pitfall_id=target, helpful=False)
    assert scores(fresh_kb, QUERY) == before
    answer = fresh_kb.ask(QUERY, top=10)
    assert not any("demoted" in str(w) for m in answer.results for w in m.why)

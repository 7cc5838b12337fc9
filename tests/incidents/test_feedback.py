"""Feedback: idempotent votes, and repeated "Not it" on near-identical questions demotes a cause a little."""

from __future__ import annotations

import pytest

from pitstop.core.errors import NotFound
from pitstop.kb.feedback import MAX_DEMOTION, STEP, FeedbackAdjuster
from pitstop.kb.preprocess import prepare
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import incidents_for

QUERY = "NCCL WARN Cuda failure 'unknown error' on rank 3 after the driver update"


def vote(kb: KnowledgeBase, thread: str, text: str, users: list[str], pitfall_id: str, helpful: bool) -> int:
    store = incidents_for(kb)
    iid = store.record_answer(channel="C1", thread_ts=thread, user="U0", text=text, answer=kb.ask(text))
    for user in users:
        store.feedback(iid, user=user, pitfall_id=pitfall_id, helpful=helpful)
    return iid


def scores(kb: KnowledgeBase, text: str) -> dict[str, float]:
    return {m.id: m.score for m in kb.ask(text, top=10).results}


def test_votes_are_idempotent_per_incident_user_and_cause(fresh_kb):
    store = incidents_for(fresh_kb)
    iid = vote(fresh_kb, "1.0", QUERY, ["U1", "U1"], "nvml-driver-library-mismatch", helpful=True)
    store.feedback(iid, user="U2", pitfall_id="nvml-driver-library-mismatch", helpful=False)
    store.feedback(iid, user="U1", pitfall_id="nvml-driver-library-mismatch", helpful=False)
    rows = store.db.execute(
        "SELECT user, helpful FROM feedback WHERE incident_id = ? ORDER BY user", [iid]
    ).fetchall()
    assert rows == [("U1", 0), ("U2", 0)]
    with pytest.raises(NotFound, match="#777"):
        store.feedback(777, user="U1", pitfall_id="nvml-driver-library-mismatch", helpful=True)


def test_repeated_not_it_on_near_identical_questions_demotes_modestly_with_a_reason(fresh_kb):
    before = scores(fresh_kb, QUERY)
    target = next(iter(before))
    vote(fresh_kb, "2.0", QUERY.replace("rank 3", "rank 5"), ["U1"], target, helpful=False)
    assert scores(fresh_kb, QUERY) == before, "one vote is not a pattern"

    vote(fresh_kb, "3.0", QUERY.replace("rank 3", "rank 6"), ["U2"], target, helpful=False)
    answer = fresh_kb.ask(QUERY, top=10)
    demoted = next(m for m in answer.results if m.id == target)
    assert demoted.score == pytest.approx(max(0.0, before[target] - 2 * STEP), abs=1e-3)
    assert any("demoted by 0.10" in str(why) and "2 'Not it'" in str(why) for why in demoted.why)
    others = {m.id: m.score for m in answer.results if m.id != target}
    assert all(others[pid] == before[pid] for pid in others if pid in before)

    unrelated = "RAID virtual drive in write-through, checkpoints slow"
    assert not any("demoted" in str(why) for m in fresh_kb.ask(unrelated, top=10).results for why in m.why)


def test_this_was_it_votes_cancel_and_the_effect_is_capped(fresh_kb, embedder):
    target = next(iter(scores(fresh_kb, QUERY)))
    vote(fresh_kb, "4.0", QUERY, [f"N{i}" for i in range(10)], target, helpful=False)
    adjuster = FeedbackAdjuster(lambda: fresh_kb.db, embedder)
    assert adjuster(prepare(QUERY))[target].delta == -MAX_DEMOTION
    vote(fresh_kb, "5.0", QUERY, [f"Y{i}" for i in range(10)], target, helpful=True)
    assert target not in adjuster(prepare(QUERY))
    cached = fresh_kb.db.execute("SELECT count(*) FROM incident_vectors").fetchone()[0]
    assert cached == 2


def test_a_demoting_ask_embeds_the_paste_once_and_demotes_as_with_its_own_embedding(fresh_kb, monkeypatch):
    target = next(iter(scores(fresh_kb, QUERY)))
    vote(fresh_kb, "6.0", QUERY, ["N1", "N2"], target, helpful=False)
    alone = FeedbackAdjuster(lambda: fresh_kb.db, fresh_kb.embedder)(
        prepare(QUERY)
    )  # embeds the paste itself
    assert alone[target].delta == -2 * STEP
    embedded: list[str] = []
    encode = fresh_kb.embedder.encode
    monkeypatch.setattr(fresh_kb.embedder, "encode", lambda texts: embedded.extend(texts) or encode(texts))
    answer = fresh_kb.ask(QUERY, top=10)
    demoted = next(m for m in answer.results if m.id == target)
    assert any("demoted by 0.10" in str(why) for why in demoted.why)
    assert embedded and len(embedded) == len(set(embedded)), embedded  # the dense signal's vector is reused


@pytest.mark.parametrize("cause", ["no-such-pitfall'; drop table x;--", "", "NVML-DRIVER-LIBRARY-MISMATCH"])
def test_feedback_for_a_cause_the_kb_does_not_hold_is_refused_and_not_stored(fresh_kb, cause):
    store = incidents_for(fresh_kb)
    iid = vote(fresh_kb, "2.0", QUERY, [], "nvml-driver-library-mismatch", helpful=True)
    with pytest.raises(NotFound, match="no cause"):
        store.feedback(iid, user="U1", pitfall_id=cause, helpful=True)
    assert store.db.execute("SELECT COUNT(*) FROM feedback").fetchone()[0] == 0

"""One person's resolution cannot teach the KB a confident wrong cause (kb.retrieve._Learned).

A channel member resolves a CUDA out-of-memory paste as "GPU has fallen off the bus", a cause the
answer never offered. The next, nearly identical paste must not answer that cause confidently nor
put it above the cause the KB is more sure of. A maintainer's resolution, or two people's, may.
"""

from __future__ import annotations

import pytest

from pitstop.incidents.model import NewCause
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import incidents_for

PASTE = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB"
    " total capacity; 76.10 GiB already allocated)"
)
NEXT = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU 1; 79.15 GiB"
    " total capacity; 75.90 GiB already allocated)"
)
OOM = "cuda-oom-allocator"
WRONG = "xid79-gpu-fell-off-bus"
OFFERED = "gpu-stale-process-holding-memory"  # the answer's second candidate for PASTE


def resolve(kb: KnowledgeBase, cause: str, *people: str, vouched: bool = False) -> None:
    """Each person resolves their own incident with (a variant of) PASTE as `cause`."""
    store = incidents_for(kb)
    for n, person in enumerate(people):
        text = PASTE.replace("GPU 0", f"GPU {n}")
        iid = store.record_answer(channel="C1", thread_ts=f"{n}.0", user="U1", text=text, answer=kb.ask(text))
        store.resolve(iid, user=person, cause_id=cause, vouched=vouched)


def resolve_new(kb: KnowledgeBase, cause: NewCause, *, vouched: bool = False) -> str:
    """One person says "none of these" to PASTE's answer and describes `cause`; returns the draft id."""
    store = incidents_for(kb)
    iid = store.record_answer(channel="C1", thread_ts="7.0", user="U1", text=PASTE, answer=kb.ask(PASTE))
    return store.resolve(iid, user="U2", new_cause=cause, vouched=vouched).resolution.cause_id


def answer(kb: KnowledgeBase) -> dict[str, tuple[int, str, str]]:
    """Entry -> (rank, confidence, its first reason) for NEXT."""
    results = kb.ask(NEXT, top=5).results
    return {m.id: (rank, m.confidence, str(m.reasons[0])) for rank, m in enumerate(results, start=1)}


def test_preconditions(fresh_kb):
    offered = [m.id for m in fresh_kb.ask(PASTE).results]
    assert WRONG not in offered and offered[1] == OFFERED
    before = answer(fresh_kb)
    assert before[OOM][:2] == (1, "high") and WRONG not in before


def test_one_persons_correction_ranks_below_a_more_confident_cause_and_is_not_confident(fresh_kb):
    resolve(fresh_kb, WRONG, "U2")
    after = answer(fresh_kb)
    assert after[WRONG][1] == "low"
    # still first; "medium" now, as the new example takes the dense signal's first rank from it
    assert after[OOM][:2] == (1, "medium")
    assert after[WRONG][0] == 2  # it still rose from nowhere: the correction is heard, not believed
    assert "not yet confirmed by a maintainer" in after[WRONG][2]


def test_one_person_twice_is_still_one_person(fresh_kb):
    resolve(fresh_kb, WRONG, "U2", "U2")
    assert answer(fresh_kb)[WRONG][1] != "high"


@pytest.mark.parametrize(
    ("people", "vouched"), [(("U2",), True), (("U2", "U3"), False)], ids=["maintainer", "two-people"]
)
def test_a_maintainer_or_two_people_make_a_near_paste_confident(fresh_kb, people, vouched):
    resolve(fresh_kb, WRONG, *people, vouched=vouched)
    after = answer(fresh_kb)
    assert after[WRONG][:2] == (1, "high")
    assert "resolved as this in incident #" in after[WRONG][2]


def test_one_person_confirming_an_offered_cause_is_medium(fresh_kb):
    resolve(fresh_kb, OFFERED, "U2")
    after = answer(fresh_kb)
    assert after[OFFERED][:2] == (1, "medium")


def test_older_resolutions_from_the_cli_and_the_console_stay_vouched_for_and_slacks_do_not(tmp_path):
    from pitstop.core.db import open_db
    from pitstop.migrations import migrations

    old = open_db(tmp_path / "old.db", migrate=False)
    migrations.apply(old, stop_before="m016_resolution_vouched")
    for iid, channel, user in ((1, "C111", "U2"), (2, "console", "alice"), (3, "C111", "cli:alice")):
        old.execute(
            "INSERT INTO incidents (id, channel, thread_ts, created_at, updated_at, status)"
            " VALUES (?, ?, ?, '2026-11-01T00:00:00Z', '2026-11-01T00:10:00Z', 'resolved')",
            [iid, channel, f"{iid}.0"],
        )
        old.execute(
            "INSERT INTO resolutions (incident_id, resolved_by, kind, cause_id, resolved_at)"
            " VALUES (?, ?, 'existing', 'mtu-mismatch', '2026-11-01T00:10:00Z')",
            [iid, user],
        )
    old.conn.close()
    new = open_db(tmp_path / "old.db")
    rows = new.execute("SELECT incident_id, vouched FROM resolutions ORDER BY incident_id").fetchall()
    assert [tuple(r) for r in rows] == [(1, 0), (2, 1), (3, 1)]


def test_an_unreviewed_draft_copying_the_error_is_not_confident_nor_above_a_reviewed_cause(fresh_kb):
    """ "None of these" with a made-up cause whose symptoms copy the error: the draft is found (that is
    what the next paste of a new cause needs), but it was "high" and first for every out-of-memory
    paste; an unreviewed draft is "medium" at most, below a reviewed entry at least as confident."""
    made_up = NewCause(
        "Cosmic rays flip the allocator",
        "cosmic rays",
        "pray",
        ("torch.cuda.OutOfMemoryError: CUDA out of memory", "CUDA out of memory. Tried to allocate"),
    )
    draft = resolve_new(fresh_kb, made_up)
    after = answer(fresh_kb)
    assert after[draft][1] == "medium" and after[draft][0] > after[OOM][0]


def test_a_maintainers_new_cause_may_rank_first_but_stays_unreviewed(fresh_kb):
    made_up = NewCause("Allocator arena leak", "a leak", "restart", (PASTE,))
    draft = resolve_new(fresh_kb, made_up, vouched=True)
    top = fresh_kb.ask(PASTE, top=5).results[0]
    assert (top.id, top.confidence, top.draft) == (draft, "medium", True)

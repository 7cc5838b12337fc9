"""Red-team round 6: the host-name boost, the warm ask server, eval and kb files, the console, hostile
hosts (see docs/SECURITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import copy_kb, incidents_for

# --- (a) the host-name boost -------------------------------------------------------------------

OOM_PASTE = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB"
    " total capacity; 76.10 GiB already allocated)"
)
OOM = "cuda-oom-allocator"
HOST = "gpu-host-42"


@pytest.fixture
def kb(kb_path: Path, embedder, tmp_path: Path) -> KnowledgeBase:
    kb = copy_kb(kb_path, tmp_path, embedder)
    yield kb
    kb.close()


def resolve_on_host(kb: KnowledgeBase, cause: str, person: str, n: int, host: str = HOST) -> int:
    store = incidents_for(kb)
    iid = store.record_answer(
        channel="C1",
        thread_ts=f"{n}.0",
        user="U1",
        text=f"slow training {n}",
        answer=kb.ask("slow"),
        hosts=(host,),
    )
    store.resolve(iid, user=person, cause_id=cause)
    return iid


def ranked(kb: KnowledgeBase, paste: str) -> dict[str, tuple[int, float, str, list[str]]]:
    results = kb.ask(paste, top=5).results
    return {m.id: (rank, m.score, m.confidence, [str(w) for w in m.why]) for rank, m in enumerate(results, 1)}


def test_one_persons_host_resolutions_do_not_outrank_a_confident_cause(kb):
    """One channel member resolves five incidents on a host as a wrong cause: every later paste naming
    the host got +0.2 per incident (1.0 here) and put that cause above the signature's "high" one."""
    paste = f"on {HOST}: {OOM_PASTE}"
    before = ranked(kb, paste)
    assert before[OOM][:1] == (1,) and before[OOM][2] == "high"
    wrong = next(pid for pid, (rank, *_) in before.items() if rank == 2)
    for n in range(5):
        resolve_on_host(kb, wrong, "U9", n)
    after = ranked(kb, paste)
    assert after[OOM][0] == 1 and after[OOM][2] == "high"
    assert after[wrong][0] == 2 and after[wrong][2] != "high"
    assert any(f"host {HOST} had this cause" in w for w in after[wrong][3])  # heard, not believed


def test_the_host_boost_counts_once_however_many_incidents(kb):
    """Two people (so the boost is trusted) resolve five incidents on the host: one HOST_BOOST, not five."""
    from pitstop.kb.feedback import HOST_BOOST, PRIOR_MAX

    paste = f"on {HOST}: {OOM_PASTE}"
    before = ranked(kb, paste)
    cause = next(pid for pid, (rank, *_) in before.items() if rank == 3)
    for n in range(5):
        resolve_on_host(kb, cause, ("U8", "U9")[n % 2], n)
    after = ranked(kb, paste)
    assert after[cause][1] <= before[cause][1] + HOST_BOOST + PRIOR_MAX + 0.002


@pytest.mark.parametrize(
    ("host", "named"),
    [
        ("gpu-host-42", "gpu-host-42.other-site"),  # another domain's host of that short name
        ("10.0.0.1", "10.0.0.1.5"),
        ("10.0.0.1", "10.0.0.10"),
        ("gpu-host-42", "xgpu-host-42"),
        ("gpu-host-42", "gpu-host-42-b"),
    ],
)
def test_a_longer_name_is_not_the_host(host, named):
    from pitstop.kb.feedback import _names

    assert not _names(f"nccl timeout on {named} again", host)
    assert _names(f"nccl timeout on {host.upper()}. again".lower(), host)  # a full stop, any case

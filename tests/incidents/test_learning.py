"""Resolve -> learn: the closed loop, drafts searchable at once, merge proposals, restart, eval learning."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.incidents import learning
from pitstop.incidents.learning_eval import run, split_half
from pitstop.incidents.model import NewCause
from pitstop.kb.embed import Embedder
from pitstop.kb.evaluate import Case, load_cases
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import ABOVE_4G, AV, CAUSE, PARAPHRASE, PASTE, copy_kb, incidents_for


@pytest.fixture
def fresh_kb(kb_path: Path, embedder: Embedder, tmp_path: Path) -> KnowledgeBase:
    kb = copy_kb(kb_path, tmp_path, embedder)
    yield kb
    kb.close()


def ranked(kb: KnowledgeBase, text: str) -> list[str]:
    return [m.id for m in kb.ask(text, top=10).results]


def test_closed_loop_a_resolved_miss_ranks_first_for_a_paraphrase_even_after_restart(fresh_kb, embedder):
    assert ranked(fresh_kb, PARAPHRASE)[0] != CAUSE, "precondition: the curated KB misses this paraphrase"
    store = incidents_for(fresh_kb)
    iid = store.record_answer(
        channel="C1", thread_ts="1.0", user="U1", text=PASTE, answer=fresh_kb.ask(PASTE)
    )
    store.resolve(iid, user="U2", cause_id=CAUSE)

    top = fresh_kb.ask(PARAPHRASE).results[0]
    assert top.id == CAUSE
    assert any("nearest incident" in why for why in top.why)

    fresh_kb.close()
    reopened = KnowledgeBase.open(fresh_kb.db_path, embedder=embedder)
    assert ranked(reopened, PARAPHRASE)[0] == CAUSE
    assert incidents_for(reopened).get(iid).resolution.cause_id == CAUSE
    reopened.close()


def test_a_new_cause_becomes_a_draft_searchable_at_once(fresh_kb):
    store = incidents_for(fresh_kb)
    text = "epochs suddenly take twice as long on every node since Monday"
    iid = store.record_answer(channel="C1", thread_ts="2.0", user="U1", text=text, answer=fresh_kb.ask(text))
    resolution = store.resolve(iid, user="U2", new_cause=AV).resolution
    assert (resolution.kind, resolution.cause_id) == ("draft", "on-access-antivirus-scans-the-dataset")
    assert "unreviewed" in resolution.learned

    top = fresh_kb.ask(
        "since the security team's agent rollout our epochs take twice as long, loaders burn sys CPU"
    ).results[0]
    assert (top.id, top.draft) == ("on-access-antivirus-scans-the-dataset", True)
    entry = fresh_kb.get("on-access-antivirus-scans-the-dataset")
    assert entry.status == "draft" and f"incident #{iid}" in entry.provenance


def test_a_new_cause_close_to_an_existing_entry_proposes_a_merge(fresh_kb):
    store = incidents_for(fresh_kb)
    text = "checkpoint writes crawl since the vendor visit"
    iid = store.record_answer(channel="C1", thread_ts="3.0", user="U1", text=text, answer=fresh_kb.ask(text))
    resolution = store.resolve(iid, user="U2", new_cause=ABOVE_4G).resolution
    assert (resolution.kind, resolution.cause_id) == ("merge", "bios-above-4g-decoding-disabled")
    assert f"kb approve merge-{iid}" in resolution.learned
    assert [p.id for p in fresh_kb.all() if p.status == "draft"] == []


def test_draft_ids_are_unique_and_fall_back_for_non_latin_titles(fresh_kb):
    store = incidents_for(fresh_kb)
    ids = []
    for n, title in enumerate(("UPS output sags under load", "UPS output sags under load", "机房空调坏了")):
        iid = store.record_answer(
            channel="C1",
            thread_ts=f"4.{n}",
            user="U1",
            text=f"case {n} nodes rebooted",
            answer=fresh_kb.ask("nodes rebooted"),
        )
        cause = NewCause(title, f"{title}: a cause nobody wrote down before {n}", "fixed it", ())
        ids.append(store.resolve(iid, user="U2", new_cause=cause).resolution.cause_id)
    assert ids[:2] == ["ups-output-sags-under-load", "ups-output-sags-under-load-2"]
    assert ids[2].startswith("incident-") and ids[2].endswith("-cause")


def test_learning_is_idempotent(fresh_kb):
    store = incidents_for(fresh_kb)
    iid = store.record_answer(
        channel="C1", thread_ts="5.0", user="U1", text=PASTE, answer=fresh_kb.ask(PASTE)
    )
    learned = store.resolve(iid, user="U2", cause_id=CAUSE).resolution.learned
    assert learning.learn(fresh_kb, store.db, iid, clock=store.clock) == learned
    assert (
        fresh_kb.db.execute("SELECT count(*) FROM examples WHERE incident_id = ?", [iid]).fetchone()[0] == 1
    )


def test_split_half_is_per_cause_and_deterministic(shared_dir):
    cases = load_cases(shared_dir / "eval" / "dev-cases.jsonl")
    train, test = split_half(cases)
    assert (len(train), len(test)) == (3, 41)
    assert {c.slugs[0] for c in train} == {
        "nccl-watchdog-collective-timeout",
        "disk-full-or-inodes-exhausted",
        "nvidia-kernel-module-not-loaded",
    }
    assert {c.slugs[0] for c in train} <= {c.slugs[0] for c in test}
    assert split_half(list(reversed(cases))) == (train, test)


def test_eval_learning_raises_recall_on_paraphrases(fresh_kb):
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "learning"
    train = load_cases(fixtures / "paraphrase-train.jsonl")[:6] + [
        Case("x", "en", "Xid 79", ("no-such-cause",))
    ]
    test = load_cases(fixtures / "paraphrase-test.jsonl")[:6]
    report = run(fresh_kb, incidents_for(fresh_kb), train, test)
    assert (report.train, report.learned, report.skipped) == (7, 6, ("x",))
    assert report.after.recall_at_1 > report.before.recall_at_1
    assert set(report.to_json()["after"]) >= {"recall_at_1", "recall_at_3"}


def test_eval_learning_cli_needs_two_files_or_a_split(capsys):
    assert main(["eval", "learning"]) == 2
    assert "TRAIN.jsonl TEST.jsonl, or --split" in capsys.readouterr().err
    assert main(["eval", "learning", "--split", "/nonexistent/cases.jsonl"]) == 2
    assert "cannot read /nonexistent/cases.jsonl" in capsys.readouterr().err

"""Resolve -> learn: the closed loop, drafts searchable at once, merge proposals, restart, eval learning."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.core.errors import UsageError
from pitstop.incidents import learning
from pitstop.incidents.learning_eval import run, split_half
from pitstop.incidents.model import NewCause
from pitstop.kb.evaluate import Case, load_cases
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import ABOVE_4G, AV, CAUSE, PARAPHRASE, PASTE, incidents_for


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
    assert any("nearest incident" in str(why) for why in top.why)

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
    assert "unreviewed" in str(resolution.learned)

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
    assert f"kb approve merge-{iid}" in str(resolution.learned)
    assert [p.id for p in fresh_kb.all() if p.status == "draft"] == []


def test_a_new_cause_close_to_an_entry_the_team_turned_down_is_a_draft(fresh_kb):
    store = incidents_for(fresh_kb)
    text = "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid: BAR1 is 0M @ 0x0"
    answer = fresh_kb.ask(text)
    # The entry the description duplicates was offered and the team said "none of these": a draft, no merge.
    assert "bios-above-4g-decoding-disabled" in [m.id for m in answer.results]
    iid = store.record_answer(channel="C1", thread_ts="3.5", user="U1", text=text, answer=answer)
    resolution = store.resolve(iid, user="U2", new_cause=ABOVE_4G, vouched=True).resolution
    assert resolution.kind == "draft"
    assert fresh_kb.ask(text).results[0].id == resolution.cause_id  # a maintainer's: first, unreviewed


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
    train = load_cases(fixtures / "paraphrase-train.jsonl") + [Case("x", "en", "Xid 79", ("no-such-cause",))]
    test = load_cases(fixtures / "paraphrase-test.jsonl")
    report = run(fresh_kb, incidents_for(fresh_kb), train, test)
    assert (report.train, report.learned, report.skipped) == (32, 31, ("x",))
    assert report.after.recall_at_1 > report.before.recall_at_1
    assert set(report.to_json()["after"]) >= {"recall_at_1", "recall_at_3"}


def test_eval_learning_cli_needs_two_files_or_a_split(capsys):
    assert main(["eval", "learning"]) == 2
    assert "TRAIN.jsonl TEST.jsonl, or --split" in capsys.readouterr().err
    assert main(["eval", "learning", "--split", "/nonexistent/cases.jsonl"]) == 5  # BadFile
    assert "cannot read the evaluation case file /nonexistent/cases.jsonl" in capsys.readouterr().err


def test_a_resolution_outranks_curated_symptoms_and_says_which_incident(fresh_kb):
    store = incidents_for(fresh_kb)
    iid = store.record_answer(
        channel="C1", thread_ts="9.0", user="U1", text=PASTE, answer=fresh_kb.ask(PASTE)
    )
    store.resolve(iid, user="U2", cause_id=CAUSE)
    top = fresh_kb.ask(PARAPHRASE).results[0]
    assert top.id == CAUSE and f"resolved as this in incident #{iid}" in str(top.why[0])
    assert any(f"this team resolved 1 incident(s) as this, latest #{iid}" in str(why) for why in top.why)


CAUSE_RAID = "raid-write-through-cache"


def test_a_host_named_in_the_paste_recalls_its_earlier_cause(fresh_kb):
    text = "training on node gpu-host-42 got slow, checkpoints take forever"
    store = incidents_for(fresh_kb)
    iid = store.record_answer(
        channel="C1",
        thread_ts="8.0",
        user="U1",
        text="RAID write-through",
        answer=fresh_kb.ask("RAID"),
        hosts=("gpu-host-42",),
    )
    store.resolve(iid, user="U2", cause_id="raid-write-through-cache")
    named = {m.id: m for m in fresh_kb.ask(text, top=10).results}
    assert any(f"host gpu-host-42 had this cause in incident #{iid}" in str(w) for w in named[CAUSE_RAID].why)
    other = {m.id: m for m in fresh_kb.ask(text.replace("gpu-host-42", "gpu-host-7"), top=10).results}
    if CAUSE_RAID in other:  # another host's paste gets no host boost
        assert named[CAUSE_RAID].score > other[CAUSE_RAID].score
        assert not any("host " in str(w) for w in other[CAUSE_RAID].why)


def test_eval_learning_counts_a_new_cause_when_its_draft_is_ranked(fresh_kb):
    new = {"title": AV.title, "what": AV.what, "fix": AV.fix, "symptoms": list(AV.symptoms)}
    train = [Case("n1", "en", AV.symptoms[0], ("new:av",), new_cause=new)]
    test = [
        Case("t1", "en", "since the security agent rollout our epochs take twice as long", ("new:av",)),
        Case("t2", "en", "How long should I boil an egg?", ()),
    ]
    report = run(fresh_kb, incidents_for(fresh_kb), train, test)
    assert report.learned == 1 and set(report.drafts) == {"new:av"}
    assert report.new_causes.n == 1 and report.new_causes.recall_at_3 == 1.0
    assert report.before.recall_at_3 == 0.0
    with pytest.raises(UsageError, match="needs a new_cause"):
        run(fresh_kb, incidents_for(fresh_kb), [Case("n2", "en", "x y z", ("new:b",))], test[:1])

"""Hostile learning inputs: "Not it" votes, imported bundles, drafts (red-team review hred5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import incidents_for

QUERY = "NCCL WARN Cuda failure 'unknown error' on rank 3 after the driver update"


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


# --- kb import: what an untrusted deployment's bundle may carry ------------------------------------


def bundle(*entries: dict, examples: tuple[dict, ...] = ()) -> dict:
    return {
        "format": "pitstop-learned",
        "version": 1,
        "origin": "site-x",
        "entries": list(entries),
        "examples": list(examples),
    }


def entry(kb: KnowledgeBase, **changes) -> dict:
    """A valid entry another site could send: a curated one under a new id, with `changes`."""
    data = {k: v for k, v in kb.get("host-oom-killer").to_dict().items() if k not in ("status", "provenance")}
    return {**data, "id": "site-x-memory-pressure", **changes}


def test_the_regex_parameters_listed_are_those_the_checks_compile():
    from pitstop.collectors.checks.registry import CHECKS
    from pitstop.kb.schema import REGEX_PARAMS

    documented = {p for spec in CHECKS.values() for p, what in spec.params.items() if "regex" in what.lower()}
    assert documented == set(REGEX_PARAMS)


@pytest.mark.parametrize(
    "params",
    [
        {"pattern": r"(?:\w|\w)*!"},  # exponential on any word of a kernel log line
        {"pattern": r".*.*.*.*.*!"},  # polynomial: 2.7 s on a 100-character line in Python's re
        {"xid": [79], "unless_pattern": r"(a+)+$"},
        {"pattern": "x", "health_pattern": r"(\d|\d)+z"},
    ],
)
def test_an_imported_entry_with_a_backtracking_check_regex_is_refused(fresh_kb, params):
    """Check parameters run on Python's `re` over a host's whole kernel log: the GIL is held and the
    search cannot be stopped, so one such draft would freeze the bot at its next "Run checks"."""
    from pitstop.core.errors import BadFile
    from pitstop.incidents.exchange import import_learned

    hostile = entry(fresh_kb, checks=[{"check": "kernel_log_match", "params": params}])
    with pytest.raises(BadFile, match="check 'kernel_log_match'"):
        import_learned(fresh_kb, fresh_kb.db, bundle(hostile))
    assert fresh_kb.db.execute(
        "SELECT count(*) FROM pitfalls WHERE id = 'site-x-memory-pressure'"
    ).fetchone() == (0,)


def test_an_id_that_differs_from_a_curated_one_by_a_trailing_newline_is_refused(fresh_kb, tmp_path):
    """`^...$` let 'host-oom-killer\\n' through: a second entry that reads exactly like the curated
    one, approved into 'host-oom-killer\\n.yaml', which the loader accepts as its own id."""
    from pitstop.core.errors import BadFile
    from pitstop.incidents.exchange import import_learned
    from pitstop.kb.schema import validate_entry

    twin = entry(fresh_kb, id="host-oom-killer\n")
    assert any("must be lowercase letters" in p for p in validate_entry(twin))
    with pytest.raises(BadFile):
        import_learned(fresh_kb, fresh_kb.db, bundle(twin))
    assert fresh_kb.db.execute(
        "SELECT count(*) FROM pitfalls WHERE id LIKE 'host-oom-killer%'"
    ).fetchone() == (1,)


def test_an_imported_entry_cannot_take_the_id_of_a_future_merge_proposal(fresh_kb):
    """Merge proposals are named `merge-<incident>`; an imported draft named so took the name first
    (`INSERT ... ON CONFLICT DO NOTHING`), so the incident's proposal was never stored and
    `pitstop kb approve merge-N`, as the resolution told the maintainer, approved the stranger's entry."""
    from pitstop.core.errors import BadFile
    from pitstop.incidents import drafts
    from pitstop.incidents.exchange import import_learned
    from tests.incidents.learning_support import ABOVE_4G

    squatters = [entry(fresh_kb, id=f"merge-{n}", title=f"Squatter {n}") for n in range(1, 4)]
    with pytest.raises(BadFile, match="merge-1"):
        import_learned(fresh_kb, fresh_kb.db, bundle(*squatters))
    store = incidents_for(fresh_kb)
    text = "checkpoint writes crawl since the vendor visit"
    iid = store.record_answer(channel="C1", thread_ts="3.0", user="U1", text=text, answer=fresh_kb.ask(text))
    resolution = store.resolve(iid, user="U2", new_cause=ABOVE_4G).resolution
    assert resolution.kind == "merge"
    proposal = drafts.get_draft(fresh_kb.db, f"merge-{iid}")
    assert (proposal.kind, proposal.target_id) == ("merge", "bios-above-4g-decoding-disabled")


def test_a_new_cause_titled_like_a_merge_proposal_does_not_take_its_id(fresh_kb):
    """A title "Merge N" made the draft id `merge-N`, the name incident N's merge proposal needs later
    (it was silently never stored, and `kb approve merge-N` approved the squatter's draft)."""
    from tests.incidents.learning_support import ABOVE_4G, AV

    store = incidents_for(fresh_kb)
    first = store.record_answer(
        channel="C1", thread_ts="5.0", user="U1", text="x", answer=fresh_kb.ask("gpu")
    )
    squat = store.record_answer(
        channel="C1", thread_ts="5.1", user="U9", text="y", answer=fresh_kb.ask("gpu")
    )
    squatted = store.resolve(squat, user="U9", new_cause=replace(AV, title=f"Merge {first + 2}"))
    assert squatted.resolution.cause_id == f"merge-{first + 2}-cause"
    text = "checkpoint writes crawl since the vendor visit"
    victim = store.record_answer(
        channel="C1", thread_ts="5.2", user="U1", text=text, answer=fresh_kb.ask(text)
    )
    assert victim == first + 2
    store.resolve(victim, user="U2", new_cause=ABOVE_4G)
    from pitstop.incidents import drafts

    assert drafts.get_draft(fresh_kb.db, f"merge-{victim}").kind == "merge"


# --- drafts: a pending draft whose name a curated entry now has ----------------------------------


def superseded(kb: KnowledgeBase) -> str:
    """An imported draft whose id the next Pitstop release ships as a curated entry: the loader
    (kb.store.upsert_pitfall with status 'curated', as kb.loader.sync_entries does) takes the row."""
    from pitstop.incidents.exchange import import_learned
    from pitstop.kb import store
    from pitstop.kb.schema import Pitfall

    hostile = entry(kb, id="ib-subnet-manager-moved", title="Stranger's words", summary="Stranger's summary")
    assert import_learned(kb, kb.db, bundle(hostile)).entries_added == 1
    release = Pitfall.from_dict({**entry(kb, id="ib-subnet-manager-moved"), "title": "The release's entry"})
    with kb.db.conn:
        store.upsert_pitfall(kb.db, release, "curated")
    kb._invalidate()
    assert kb.get("ib-subnet-manager-moved").title == "The release's entry"
    return "ib-subnet-manager-moved"


def test_rejecting_a_superseded_draft_leaves_the_curated_entry_alone(fresh_kb):
    from pitstop.incidents import drafts
    from pitstop.incidents.learning import pitfall_exists

    pid = superseded(fresh_kb)
    drafts.reject(fresh_kb, fresh_kb.db, pid, user="maint")
    assert drafts.get_draft(fresh_kb.db, pid).status == "rejected"
    assert pitfall_exists(fresh_kb.db, pid), "rejecting the stranger's draft retired the curated entry"
    kept = fresh_kb.get(pid)
    assert (kept.title, kept.status) == ("The release's entry", "curated")


def test_editing_or_approving_a_superseded_draft_is_refused(fresh_kb, tmp_path):
    from pitstop.core.errors import UsageError
    from pitstop.incidents import drafts

    pid = superseded(fresh_kb)
    with pytest.raises(UsageError, match="curated"):
        drafts.edit(fresh_kb, fresh_kb.db, pid, {"title": "Edited over the curated entry"})
    with pytest.raises(UsageError, match="curated"):
        drafts.approve(fresh_kb, fresh_kb.db, pid, user="maint", directory=tmp_path / "elsewhere")
    kept = fresh_kb.get(pid)
    assert (kept.title, kept.status) == ("The release's entry", "curated")
    assert not (tmp_path / "elsewhere").exists()


SECRET = "xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"


def test_an_imported_entry_is_redacted_before_it_is_stored(fresh_kb):
    """docs/LEARNING.md: everything stored passes redact, imported bundles included; the examples did,
    the entries (title, summary, symptoms, fix, provenance...) did not."""
    from pitstop.incidents.exchange import import_learned

    leaky = entry(
        fresh_kb,
        summary=f"the exporter ran with SLACK_BOT_TOKEN={SECRET}",
        symptoms=[f"401 for token {SECRET}"],
        fix=[f"rotate {SECRET}"],
        fix_zh=[f"轮换 {SECRET}"],
        provenance=f"copied from a paste with {SECRET}",
    )
    import_learned(fresh_kb, fresh_kb.db, bundle(leaky))
    dump = "\n".join(
        str(row)
        for table in ("pitfalls", "examples", "drafts", "docs_fts")
        for row in fresh_kb.db.execute(f"SELECT * FROM {table}")  # noqa: S608 - fixed names
    )
    assert "AbCdEfGhIjKlMnOp" not in dump
    assert fresh_kb.get("site-x-memory-pressure").summary.startswith("the exporter ran with")


@pytest.mark.parametrize("kind", ["deep", "nested-in-an-entry", "huge"])
def test_a_hostile_bundle_file_is_one_sentence_and_exit_5(tmp_path, kind):
    """A bundle nested 200,000 deep raised RecursionError out of json (a traceback, exit 1), one
    nested 900 deep inside an entry out of the walks over it; a bundle of any size was read whole."""
    import subprocess
    import sys

    path = tmp_path / "bundle.json"
    head = '{"format": "pitstop-learned", "version": 1, "examples": [], "entries": '
    if kind == "deep":
        path.write_text(head + "[" * 200_000 + "]" * 200_000 + "}")
    elif kind == "nested-in-an-entry":  # parses, then broke the recursion of the walks over the entry
        params = '{"a": ' + "[" * 900 + "]" * 900 + "}"
        path.write_text(
            head + '[{"id": "site-x-deep", "checks": [{"check": "x", "params": ' + params + "}]}]}"
        )
    else:
        with path.open("w") as handle:
            handle.write(head + "[")
            handle.truncate((64 << 20) + 10)  # exchange.MAX_BUNDLE_BYTES
    done = subprocess.run(
        [sys.executable, "-m", "pitstop", "kb", "import", str(path), "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 5, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_long_origin_is_not_copied_into_every_imported_row(fresh_kb):
    """The origin is prefixed to every imported example's and entry's provenance: a 1 MB origin and 20
    one-line examples wrote 20 MB (a 64 MB bundle could write terabytes)."""
    from pitstop.incidents.exchange import import_learned

    hostile = bundle(
        examples=tuple(
            {"pitfall_id": "host-oom-killer", "text": f"oom on gpu-{n}", "provenance": "p" * 100_000}
            for n in range(20)
        )
    )
    hostile["origin"] = "o" * 1_000_000
    assert import_learned(fresh_kb, fresh_kb.db, hostile).examples_added == 20
    longest = fresh_kb.db.execute(
        "SELECT max(length(provenance)) FROM examples WHERE source = 'import'"
    ).fetchone()
    assert longest[0] <= 1_000


def test_an_imported_example_is_no_longer_than_what_a_resolution_here_would_learn(fresh_kb):
    """A resolution learns the retriever's cleaned view of a paste (at most 12,000 characters); an
    imported example was stored whole, a megabyte of text in the examples and both FTS tables."""
    from pitstop.incidents.exchange import import_learned

    text = "NCCL WARN Cuda failure 'unknown error'\n" + "training step took longer than usual\n" * 30_000
    report = import_learned(
        fresh_kb, fresh_kb.db, bundle(examples=({"pitfall_id": "host-oom-killer", "text": text},))
    )
    assert report.examples_added == 1
    stored = fresh_kb.db.execute("SELECT max(length(text)) FROM examples WHERE source = 'import'").fetchone()[
        0
    ]
    assert stored <= 16_000


def test_an_imported_entry_does_not_take_the_id_a_pending_resolution_reserved(fresh_kb):
    """A resolution recorded without the KB (or cut short by a crash) has reserved its draft's id; an
    import then took it, and learn_pending's draft was silently dropped (ON CONFLICT DO NOTHING) while
    its body overwrote the imported entry: the searchable entry and the reviewed draft differed."""
    from pitstop.core.db import open_db
    from pitstop.incidents import drafts
    from pitstop.incidents.exchange import import_learned
    from pitstop.incidents.store import Incidents
    from tests.incidents.learning_support import AV

    offline = Incidents(open_db(fresh_kb.db_path), kb=None)
    text = "epochs twice as slow since Monday"
    iid = offline.record_answer(
        channel="C1", thread_ts="7.0", user="U1", text=text, answer=fresh_kb.ask(text)
    )
    reserved = offline.resolve(iid, user="U2", new_cause=AV).resolution.cause_id
    report = import_learned(
        fresh_kb, fresh_kb.db, bundle(entry(fresh_kb, id=reserved, title="The other site's"))
    )
    assert (report.entries_added, report.entries_known) == (0, 1)
    incidents_for(fresh_kb).learn_pending()
    draft = drafts.get_draft(fresh_kb.db, reserved)
    assert (draft.incident_id, draft.title) == (iid, AV.title)
    assert fresh_kb.get(reserved).title == AV.title

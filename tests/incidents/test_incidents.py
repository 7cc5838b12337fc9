"""Incidents: answers and diagnoses open/update one incident per thread; one resolve path; races."""

from __future__ import annotations

import json
import multiprocessing
import threading

import pytest

from pitstop.cli.main import main
from pitstop.collectors.model import Evidence, Verdict
from pitstop.core.db import open_db
from pitstop.core.errors import NotFound, UsageError
from pitstop.incidents.model import NewCause
from pitstop.incidents.store import AlreadyResolved, Incidents
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import Clock, incidents_for

SECRET_PASTE = (
    "NCCL WARN NET/IB : Got completion from peer with error 12, opcode 0, len 0, vendor err 129\n"
    "export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789\n"
    "curl -H 'Authorization: Bearer abcdef0123456789xyz' https://user:pa55word@registry.example/v2/"
)


def diagnosis(verdict: str, line: str) -> list[tuple[str, Verdict]]:
    """One host's verdict, as a diagnosis hands it to `record_diagnosis`."""
    return [
        (
            "gpu-node-3",
            Verdict(
                "fabric-manager-not-running",
                verdict,
                "service state",
                (
                    Evidence(
                        "systemctl status nvidia-fabricmanager",
                        (line,),
                        "ssh gpu-node-3 systemctl status nvidia-fabricmanager",
                    ),
                ),
            ),
        )
    ]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def incidents(fresh_kb: KnowledgeBase, clock: Clock) -> Incidents:
    return incidents_for(fresh_kb, clock=clock)


def test_answer_opens_an_incident_with_redacted_text_and_candidates(fresh_kb, incidents):
    answer = fresh_kb.ask(SECRET_PASTE)
    iid = incidents.record_answer(
        channel="C1", thread_ts="100.1", user="U1", text=SECRET_PASTE, answer=answer
    )
    incident = incidents.get(iid)
    assert (incident.status, incident.requester, incident.channel, incident.thread_ts) == (
        "open",
        "U1",
        "C1",
        "100.1",
    )
    for secret in ("hf_abcdefghij", "abcdef0123456789xyz", "pa55word"):
        assert secret not in incident.error_text
        assert secret not in json.dumps(incident.to_json())
    assert "error 12" in incident.error_text and "[REDACTED]" in incident.error_text
    assert [c.pitfall_id for c in incident.candidates] == [m.id for m in answer.results]
    assert incident.candidates[0].score == pytest.approx(answer.results[0].score)
    assert incident.resolution is None


def test_a_thread_keeps_one_incident_and_new_threads_open_new_ones(fresh_kb, incidents, clock):
    first = incidents.record_answer(
        channel="C1", thread_ts="1.0", user="U1", text="Xid 79 on gpu3", answer=fresh_kb.ask("Xid 79 on gpu3")
    )
    created = incidents.get(first).created_at
    clock.advance(minutes=5)
    again = incidents.record_answer(
        channel="C1",
        thread_ts="1.0",
        user="U2",
        text="also NVRM: GPU has fallen off the bus",
        answer=fresh_kb.ask("NVRM: GPU has fallen off the bus"),
    )
    other = incidents.record_answer(
        channel="C1", thread_ts="2.0", user="U1", text="Xid 79 on gpu3", answer=fresh_kb.ask("Xid 79 on gpu3")
    )
    assert again == first and other != first
    incident = incidents.find_by_thread("C1", "1.0")
    assert incident.id == first and incident.created_at == created and incident.updated_at > created
    assert "Xid 79 on gpu3" in incident.error_text and "fallen off the bus" in incident.error_text
    assert incident.requester == "U1"
    assert incidents.find_by_thread("C1", "9.9") is None
    assert [i.id for i in incidents.list()] == [other, first]


def test_diagnosis_records_verdicts_with_redacted_evidence_and_hosts(incidents):
    iid = incidents.record_diagnosis(
        channel="C2",
        thread_ts="5.5",
        user="U3",
        hosts=["gpu-node-3"],
        verdicts=diagnosis("inconclusive", "Active: unknown"),
        text="cudaErrorSystemNotReady on gpu-node-3",
    )
    again = incidents.record_diagnosis(
        channel="C2",
        thread_ts="5.5",
        user="U3",
        hosts=["gpu-node-4"],
        verdicts=diagnosis("confirmed", "Active: failed (Result: exit-code) token=abc123secretvalue"),
    )
    assert again == iid
    incident = incidents.get(iid)
    assert incident.hosts == ("gpu-node-3", "gpu-node-4")
    assert incident.error_text == "cudaErrorSystemNotReady on gpu-node-3"
    ((host, verdict),) = incident.verdicts
    assert (host, verdict.pitfall, verdict.verdict) == (
        "gpu-node-3",
        "fabric-manager-not-running",
        "confirmed",
    )
    assert verdict.evidence[0].lines == ("Active: failed (Result: exit-code) token=[REDACTED]",)


def test_resolving_with_an_existing_cause_adds_the_text_as_an_example(fresh_kb, incidents):
    iid = incidents.record_answer(
        channel="C1", thread_ts="3.0", user="U1", text=SECRET_PASTE, answer=fresh_kb.ask(SECRET_PASTE)
    )
    incident = incidents.resolve(
        iid, user="U9", cause_id="nccl-ib-completion-error-12", notes="bad cable, pw=x"
    )
    r = incident.resolution
    assert incident.status == "resolved"
    assert (r.kind, r.cause_id, r.resolved_by, r.learn_state) == (
        "existing",
        "nccl-ib-completion-error-12",
        "U9",
        "done",
    )
    rows = list(fresh_kb.db.query("SELECT * FROM examples WHERE incident_id = ?", [iid]))
    assert len(rows) == 1 and rows[0]["pitfall_id"] == "nccl-ib-completion-error-12"
    assert rows[0]["source"] == "incident" and f"incident #{iid}" in rows[0]["provenance"]
    assert "error 12" in rows[0]["text"] and "hf_abcdefghij" not in rows[0]["text"]
    assert f"example #{rows[0]['id']}" in str(r.learned)


def test_bad_resolutions_are_refused_and_change_nothing(fresh_kb, incidents):
    iid = incidents.record_answer(
        channel="C1", thread_ts="4.0", user="U1", text="Xid 79", answer=fresh_kb.ask("Xid 79")
    )
    with pytest.raises(UsageError):
        incidents.resolve(iid, user="U1")
    with pytest.raises(UsageError):
        incidents.resolve(
            iid, user="U1", cause_id="xid79-gpu-fell-off-bus", new_cause=NewCause("t", "w", "f")
        )
    with pytest.raises(NotFound, match="no-such-cause"):
        incidents.resolve(iid, user="U1", cause_id="no-such-cause")
    with pytest.raises(UsageError, match="title"):
        incidents.resolve(iid, user="U1", new_cause=NewCause(" ", "", ""))
    with pytest.raises(NotFound, match="#999"):
        incidents.resolve(999, user="U1", cause_id="xid79-gpu-fell-off-bus")
    assert incidents.get(iid).status == "open"
    assert incidents.db.execute("SELECT count(*) FROM resolutions").fetchone()[0] == 0


def test_a_second_resolution_is_refused_and_the_first_stands(fresh_kb, incidents):
    iid = incidents.record_answer(
        channel="C1", thread_ts="6.0", user="U1", text="Xid 79 again", answer=fresh_kb.ask("Xid 79 again")
    )
    incidents.resolve(iid, user="U1", cause_id="xid79-gpu-fell-off-bus")
    with pytest.raises(AlreadyResolved, match="already resolved by U1"):
        incidents.resolve(iid, user="U2", cause_id="pcie-aer-errors")
    assert incidents.get(iid).resolution.cause_id == "xid79-gpu-fell-off-bus"
    assert (
        fresh_kb.db.execute("SELECT count(*) FROM examples WHERE incident_id = ?", [iid]).fetchone()[0] == 1
    )


def test_simultaneous_resolutions_from_threads_leave_exactly_one(fresh_kb, incidents):
    iid = incidents.record_answer(
        channel="C1",
        thread_ts="7.0",
        user="U1",
        text="GPU has fallen off the bus",
        answer=fresh_kb.ask("GPU has fallen off the bus"),
    )
    causes = ["xid79-gpu-fell-off-bus", "pcie-aer-errors", "psu-failure-redundancy-lost", "fan-failure"]
    start = threading.Barrier(len(causes))
    outcomes: dict[str, str] = {}

    def resolve(cause: str) -> None:
        store = incidents_for(fresh_kb)  # one connection per thread, as the bot does
        start.wait()
        try:
            store.resolve(iid, user=f"U-{cause}", cause_id=cause)
            outcomes[cause] = "won"
        except AlreadyResolved:
            outcomes[cause] = "refused"

    threads = [threading.Thread(target=resolve, args=(c,)) for c in causes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [c for c, o in outcomes.items() if o == "won"]
    assert len(winners) == 1 and sorted(outcomes.values()).count("refused") == 3
    assert incidents.get(iid).resolution.cause_id == winners[0]
    examples = fresh_kb.db.execute("SELECT pitfall_id FROM examples WHERE incident_id = ?", [iid]).fetchall()
    assert examples == [(winners[0],)]
    assert fresh_kb.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _resolve_in_process(
    path: str,
    iid: int,
    cause: str,
    start: multiprocessing.synchronize.Barrier,
    results: multiprocessing.Queue,
) -> None:
    store = Incidents(open_db(path))  # no KB in this process: learning stays pending
    start.wait()
    try:
        store.resolve(iid, user=f"P-{cause}", cause_id=cause)
        results.put((cause, "won"))
    except AlreadyResolved:
        results.put((cause, "refused"))


def test_simultaneous_resolutions_from_processes_and_pending_learning(fresh_kb, incidents):
    iid = incidents.record_answer(
        channel="C1",
        thread_ts="8.0",
        user="U1",
        text="GPU has fallen off the bus",
        answer=fresh_kb.ask("GPU has fallen off the bus"),
    )
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(2), ctx.Queue()
    procs = [
        ctx.Process(target=_resolve_in_process, args=(str(fresh_kb.db_path), iid, cause, start, results))
        for cause in ("xid79-gpu-fell-off-bus", "pcie-aer-errors")
    ]
    for p in procs:
        p.start()
    outcomes = dict(results.get(timeout=60) for _ in procs)
    for p in procs:
        p.join(timeout=60)
    assert sorted(outcomes.values()) == ["refused", "won"]
    winner = next(c for c, o in outcomes.items() if o == "won")
    resolution = incidents.get(iid).resolution
    assert (resolution.cause_id, resolution.learn_state) == (winner, "pending")
    assert incidents.learn_pending() == 1
    assert incidents.learn_pending() == 0
    assert incidents.get(iid).resolution.learn_state == "done"
    assert fresh_kb.db.execute("SELECT pitfall_id FROM examples WHERE incident_id = ?", [iid]).fetchall() == [
        (winner,)
    ]


def test_list_filters_and_unknown_ids(fresh_kb, incidents, clock):
    old = incidents.record_answer(
        channel="C1", thread_ts="1", user="U1", text="Xid 79", answer=fresh_kb.ask("Xid 79")
    )
    clock.advance(days=3)
    new = incidents.record_answer(
        channel="C1", thread_ts="2", user="U1", text="Xid 48", answer=fresh_kb.ask("Xid 48")
    )
    incidents.resolve(old, user="U1", cause_id="xid79-gpu-fell-off-bus")
    assert [i.id for i in incidents.list(status="open")] == [new]
    assert [i.id for i in incidents.list(status="resolved")] == [old]
    assert [i.id for i in incidents.list(since=incidents.get(new).created_at)] == [new]
    with pytest.raises(UsageError):
        incidents.list(status="closed")
    with pytest.raises(NotFound):
        incidents.get(12345)


def test_cli_lists_shows_and_resolves_through_the_same_path(fresh_kb, incidents, capsys):
    iid = incidents.record_answer(
        channel="C7",
        thread_ts="70.1",
        user="U1",
        text="Xid 79 on gpu-node-2",
        answer=fresh_kb.ask("Xid 79 on gpu-node-2"),
    )
    db = ["--db", str(fresh_kb.db_path)]
    assert main(["incidents", "list", "--json", *db]) == 0
    assert [i["id"] for i in json.loads(capsys.readouterr().out)["incidents"]] == [iid]
    assert (
        main(
            ["incidents", "resolve", str(iid), "--cause", "xid79-gpu-fell-off-bus", "--user", "cli:ops", *db]
        )
        == 0
    )
    assert "resolved as 'xid79-gpu-fell-off-bus'" in capsys.readouterr().out
    assert main(["incidents", "show", str(iid), *db]) == 0
    shown = capsys.readouterr().out
    assert "resolved" in shown and "cli:ops" in shown
    assert main(["incidents", "resolve", str(iid), "--cause", "pcie-aer-errors", *db]) == 5
    assert "already resolved" in capsys.readouterr().err
    assert main(["incidents", "show", "4242", *db]) == 3

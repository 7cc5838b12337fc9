"""diagnose end to end on the lab: verdicts, only-needed collectors, failures kept apart, audit, CLI."""

from __future__ import annotations

import asyncio
import gc
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

pytest.importorskip("pitstop.collectors.checks.registry")  # the facts engineer's module; diagnose needs it

from pitstop.app import checking  # noqa: E402
from pitstop.app import diagnose as diagnose_mod  # noqa: E402
from pitstop.app.diagnose import DiagnoseRequest, diagnose  # noqa: E402
from pitstop.cli import main as cli  # noqa: E402
from pitstop.cli.diagnose import render  # noqa: E402
from pitstop.collectors.audit import AuditLog  # noqa: E402
from pitstop.collectors.inventory import Host, Inventory  # noqa: E402
from pitstop.core.clock import parse_since  # noqa: E402
from pitstop.core.config import local_user
from pitstop.core.db import open_db  # noqa: E402
from pitstop.core.errors import NotFound, UsageError  # noqa: E402
from pitstop.kb.service import KnowledgeBase  # noqa: E402
from pitstop.lab.scenario import shipped_scenarios  # noqa: E402

pytestmark = pytest.mark.lab
PITFALLS = Path(__file__).resolve().parents[2] / "kb" / "pitfalls"
# three real entries, with the checks the scenarios decide (set here so the test does not depend on
# the state of the bundled entries' `checks:` fields)
CHECKED = {
    "fabric-manager-not-running": [{"check": "fabric_manager_state"}],
    "wrong-gpu-sku-delivered": [{"check": "gpu_sku"}],
    "driver-below-required-branch": [{"check": "driver_branch"}],
}


@pytest.fixture(scope="session")
def mini_kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    entries = tmp_path_factory.mktemp("entries")
    for pid, checks in CHECKED.items():
        data = yaml.safe_load((PITFALLS / f"{pid}.yaml").read_text(encoding="utf-8"))
        data["checks"] = checks
        (entries / f"{pid}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return KnowledgeBase.open(tmp_path_factory.mktemp("kbdb") / "pitstop.db", entries_dir=entries)


def _diagnose(inv: Inventory, kb: KnowledgeBase, hosts: str, db=None, **kw):
    return asyncio.run(
        diagnose(
            DiagnoseRequest(hosts=hosts, requester="U1", origin="slack:C9", **kw), inventory=inv, kb=kb, db=db
        )
    )


def test_sweep_gives_the_scenarios_verdicts(lab_inventory: Inventory, mini_kb: KnowledgeBase) -> None:
    hosts = "fabric-manager-down,h100-pcie-for-sxm5,driver-515,h100-sxm5-healthy"
    report = _diagnose(lab_inventory, mini_kb, hosts)
    by = {h.host: {v.pitfall: v.verdict for v in h.verdicts} for h in report.hosts}
    assert all(h.status == "ok" for h in report.hosts)
    assert by["fabric-manager-down"]["fabric-manager-not-running"] == "confirmed"
    assert by["h100-pcie-for-sxm5"]["wrong-gpu-sku-delivered"] == "confirmed"
    assert by["driver-515"]["driver-below-required-branch"] == "confirmed"
    assert by["h100-sxm5-healthy"] == dict.fromkeys(CHECKED, "ruled_out")
    doc = report.to_json()
    healthy = doc["hosts"][3]
    assert healthy["verdicts"] == []  # a sweep lists what it confirms ...
    assert healthy["summary"]["ruled_out"] == 3  # ... and counts the rest
    fm = doc["hosts"][0]["verdicts"][0]
    assert fm["pitfall"] == "fabric-manager-not-running" and fm["evidence"][0]["lines"]
    assert {"argv", "outcome", "exit", "duration_s"} <= set(doc["hosts"][0]["commands"][0])


def _without_durations(doc: dict) -> dict:
    for host in doc["hosts"]:
        host.pop("duration_s")
        for command in host["commands"]:
            command.pop("duration_s")
    return doc


def test_a_large_sweep_checked_in_the_worker_reports_as_inline(
    lab_inventory: Inventory, mini_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    # past KEEP_OUTPUTS_HOSTS a sweep keeps evidence only on confirmed verdicts, leaned where the checks
    # run: the worker process must give the report the inline checks give
    names = [s.name for s in shipped_scenarios()][: diagnose_mod.KEEP_OUTPUTS_HOSTS + 1]
    hosts = ",".join(names)
    monkeypatch.setattr(checking, "WORKER_FROM_HOSTS", 10_000)
    inline = _diagnose(lab_inventory, mini_kb, hosts)
    monkeypatch.setattr(checking, "WORKER_FROM_HOSTS", 1)
    worker = _diagnose(lab_inventory, mini_kb, hosts)
    assert all(h.status == "ok" for h in worker.hosts)
    assert any(h.confirmed for h in worker.hosts) and all(
        e.lines for h in worker.hosts for v in h.confirmed for e in v.evidence
    )
    assert all(not v.evidence for h in worker.hosts for v in h.verdicts if v.verdict != "confirmed")
    assert _without_durations(worker.to_json()) == _without_durations(inline.to_json())


def test_the_sweep_garbage_collector_settings_are_put_back() -> None:
    # the CLI freezes what it loaded and collects less often during a sweep; a process that goes on
    # (a test run, a console) must get its own settings back and its frozen objects collectable again
    before = gc.get_threshold()
    with checking.sweep_gc():
        assert gc.get_threshold() == checking.SWEEP_GC_THRESHOLD != before
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_only_the_needed_collectors_run(lab_inventory: Inventory, mini_kb: KnowledgeBase) -> None:
    report = _diagnose(
        lab_inventory,
        mini_kb,
        "fabric-manager-down",
        error_text="nvidia-fabricmanager failed to start, NVSwitch fabric not initialized",
    )
    assert report.candidates and report.collectors
    ran = {c.collector for c in report.hosts[0].commands}
    assert ran == set(report.collectors) and "lspci" not in ran
    verdicts = {v.pitfall: v.verdict for v in report.hosts[0].verdicts}
    assert verdicts["fabric-manager-not-running"] == "confirmed"
    assert set(verdicts) == {c["id"] for c in report.candidates}
    text = render(report)
    assert "CONFIRMED    fabric-manager-not-running" in text and "rerun: " in text
    assert "systemctl status nvidia-fabricmanager --no-pager: " in text  # the evidence line's command


def test_failing_hosts_never_hide_healthy_ones_and_everything_is_audited(
    lab_inventory: Inventory, mini_kb: KnowledgeBase, tmp_path: Path
) -> None:
    dead = Host("dead", "127.0.0.1", port=1)
    inv = replace(lab_inventory, hosts={**lab_inventory.hosts, "dead": dead})
    db = open_db(tmp_path / "audit.db")
    report = _diagnose(inv, mini_kb, "dead,fabric-manager-down", db=db)
    dead_r, fm = report.hosts
    assert (dead_r.status, dead_r.verdicts, dead_r.commands) == ("unreachable", (), ())
    assert "connection refused" in str(dead_r.error)
    assert fm.status == "ok" and fm.confirmed
    rows = AuditLog(db).query()
    assert len(rows) == len(fm.commands) and {r.host for r in rows} == {"fabric-manager-down"}
    assert {(r.requester, r.origin) for r in rows} == {("U1", "slack:C9")}
    assert {r.argv for r in rows} == {c.argv for c in fm.commands}
    assert AuditLog(db).query(user="someone-else") == []
    assert AuditLog(db).query(since=datetime.now(UTC) + timedelta(minutes=1)) == []


def test_bad_requests_are_clear(lab_inventory: Inventory, mini_kb: KnowledgeBase) -> None:
    with pytest.raises(NotFound, match="unknown host 'fabric-manager-dwn'.*did you mean fabric-manager-down"):
        _diagnose(lab_inventory, mini_kb, "fabric-manager-dwn")
    with pytest.raises(UsageError, match="limit is 1024"):
        _diagnose(lab_inventory, mini_kb, "node[1-10000]")
    with pytest.raises(UsageError, match="--since"):
        _diagnose(lab_inventory, mini_kb, "driver-515", since="yesterday-ish")


def test_parse_since() -> None:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert parse_since("24h", now) == now - timedelta(hours=24)
    assert parse_since("90m", now) == now - timedelta(minutes=90)
    assert parse_since("2d", now) == now - timedelta(days=2)
    assert parse_since("2026-11-29", now) == datetime(2026, 11, 29, tzinfo=UTC)
    assert parse_since("2026-11-29T08:00:00+08:00", now) == datetime(2026, 11, 29, 0, tzinfo=UTC)
    assert parse_since(None, now) is None


def test_cli_diagnose_and_audit(lab_fleet, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI with the bundled KB: authz first, JSON out, and every command it ran in `pitstop audit`."""
    db, policy = tmp_path / "cli.db", tmp_path / "policy.yaml"
    policy.write_text(
        yaml.safe_dump(
            {"rules": [{"name": "me", "users": [local_user()], "origins": ["cli"], "hosts": ["*"]}]}
        )
    )
    args = ["--inventory", str(lab_fleet.inventory), "--db", str(db)]
    assert cli.main(["diagnose", "nope", *args]) == 3
    assert "unknown host 'nope'" in capsys.readouterr().err
    assert cli.main(["diagnose", "h100-sxm5-healthy", *args]) == 4  # no policy: nobody runs collectors
    capsys.readouterr()
    code = cli.main(["diagnose", "h100-sxm5-healthy", *args, "--policy", str(policy), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code in (0, 10) and doc["hosts"][0]["status"] == "ok" and doc["mode"] == "sweep"
    assert cli.main(["audit", "--db", str(db), "--host", "h100-sxm5-healthy", "--jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == len(doc["hosts"][0]["commands"])
    assert all(r["origin"] == "cli" and r["requester"] == local_user() for r in rows)

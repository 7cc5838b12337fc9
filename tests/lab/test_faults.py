"""Faults diagnose must survive, on real lab hosts: each gives a per-host, per-command status and a clear
message, the run ends within diagnose's own time bound, and the healthy host is always reported.

One diagnose sweep runs over all fault hosts at once (a real KnowledgeBase built from the two entries in
tests/lab/kb, whose checks need the collectors the faults break).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from pitstop.app import diagnose as dg
from pitstop.collectors import runner
from pitstop.collectors.inventory import Inventory
from pitstop.kb.service import KnowledgeBase
from pitstop.lab import fleet, keys
from pitstop.lab.audit import catalog_violations, read_audit

pytestmark = pytest.mark.lab
LAB_KB = Path(__file__).parent / "kb"
HEALTHY = "h100-sxm5-healthy"
KILL_AFTER_S = 1.5


@dataclass(frozen=True)
class FaultRun:
    report: dg.DiagnoseReport
    elapsed_s: float
    bound_s: float
    presented_fingerprint: str

    def host(self, name: str) -> dg.HostReport:
        return next(h for h in self.report.hosts if h.host == name)

    def command(self, host: str, collector: str):
        return next(c for c in self.host(host).commands if c.collector == collector)


@pytest.fixture(scope="module")
def silent_port() -> Iterator[tuple[str, int]]:
    """A TCP port on loopback that accepts connections and never says a word (no SSH banner)."""
    server = socket.socket()
    server.bind(("127.0.0.252", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.253", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


def _fault_inventory(lab: fleet.Fleet, inv: Inventory, silent: tuple[str, int], tmp: Path) -> Inventory:
    """The lab inventory plus hosts that fail on the way in; `changed-key` presents ib-port-down's key."""
    stranger = keys.ensure_key(tmp / "stranger", "not-authorized")
    ib = lab.host("ib-port-down")
    other = keys.ensure_key(tmp / "other-host-key", "someone-else")
    lines = lab.known_hosts.read_text().splitlines()
    changed = [
        keys.known_hosts_line(ib.address, ib.port, other.public_line)
        if line.startswith(f"[{ib.address}]:{ib.port} ")
        else line
        for line in lines
    ]
    known = tmp / "known_hosts"
    known.write_text("\n".join(changed) + "\n")
    base = inv.get(HEALTHY)
    extra = {
        "refused": replace(base, name="refused", address="127.0.0.253", port=_closed_port()),
        "silent": replace(base, name="silent", address=silent[0], port=silent[1]),
        "wrong-key": replace(
            inv.get("raid-writethrough"), name="wrong-key", identity_files=(str(stranger.private_path),)
        ),
        "changed-key": replace(inv.get("ib-port-down"), name="changed-key"),
    }
    names = [HEALTHY, "fault-mixed", "fault-slow", "fault-down"]
    hosts = {**{n: inv.get(n) for n in names}, **extra}
    return Inventory(hosts=hosts, groups={}, known_hosts=str(known), connect_timeout=3)


@pytest.fixture(scope="module")
def fault_run(
    lab_fleet: fleet.Fleet,
    lab_inventory: Inventory,
    silent_port: tuple[str, int],
    tmp_path_factory: pytest.TempPathFactory,
) -> FaultRun:
    tmp = tmp_path_factory.mktemp("faults")
    inv = _fault_inventory(lab_fleet, lab_inventory, silent_port, tmp)
    kb = KnowledgeBase.open(tmp / "pitstop.db", entries_dir=LAB_KB)
    fleet.kill_host(lab_fleet, "fault-down")

    async def go() -> dg.DiagnoseReport:
        async def kill_later() -> None:
            await asyncio.sleep(KILL_AFTER_S)
            await asyncio.to_thread(fleet.kill_host, lab_fleet, "fault-slow")

        killer = asyncio.ensure_future(kill_later())
        report = await dg.diagnose(dg.DiagnoseRequest(hosts=",".join(inv.hosts)), inventory=inv, kb=kb)
        await killer
        return report

    start = time.monotonic()
    report = asyncio.run(go())
    elapsed = time.monotonic() - start
    bound = dg.host_bound(runner.lanes_for(len(inv.hosts)), report.collectors, inv.connect_timeout)
    presented = lab_fleet.host_key("ib-port-down")  # what the host really shows, unlike known_hosts
    return FaultRun(report, elapsed, bound, keys.fingerprint(presented.public_line))


def test_every_host_is_reported_within_the_bound(fault_run: FaultRun) -> None:
    names = [h.host for h in fault_run.report.hosts]
    assert sorted(names) == sorted(
        [HEALTHY, "fault-mixed", "fault-slow", "fault-down", "refused", "silent", "wrong-key", "changed-key"]
    )
    assert fault_run.elapsed_s <= fault_run.bound_s + 5
    json.dumps(fault_run.report.to_json())  # the whole report serializes, faults included
    for h in fault_run.report.hosts:
        assert h.status == "ok" or h.error, f"{h.host}: a failed host must say why"
        for c in h.commands:
            assert c.outcome == "ok" or c.message, f"{h.host}/{c.collector}: no message for {c.outcome}"


def test_the_healthy_host_is_not_hidden(fault_run: FaultRun) -> None:
    healthy = fault_run.host(HEALTHY)
    assert healthy.status == "ok" and healthy.verdicts
    outcomes = {c.collector: c.outcome for c in healthy.commands}
    assert outcomes["nvidia_smi"] == outcomes["kernel_log"] == outcomes["storcli"] == "ok"
    assert outcomes["megacli"] == "missing"  # this node has storcli, not MegaCli


@pytest.mark.parametrize(
    ("host", "status", "words"),
    [
        ("refused", "unreachable", "refused"),
        ("fault-down", "unreachable", "refused"),
        ("silent", "unreachable", ""),
        ("wrong-key", "auth_failed", ""),
        ("changed-key", "host_key_mismatch", ""),
    ],
)
def test_hosts_that_cannot_be_reached(fault_run: FaultRun, host: str, status: str, words: str) -> None:
    h = fault_run.host(host)
    assert (h.status, h.commands) == (status, ())
    assert words.lower() in str(h.error).lower() and host in str(h.error)


def test_changed_host_key_names_the_presented_fingerprint(fault_run: FaultRun) -> None:
    assert fault_run.presented_fingerprint in str(fault_run.host("changed-key").error)


def test_hang_huge_garbage_exit_missing(fault_run: FaultRun, lab_fleet: fleet.Fleet) -> None:
    hang = fault_run.command("fault-mixed", "driver_version")
    assert hang.outcome == "timeout" and "timed out" in str(hang.message)
    huge = fault_run.command("fault-mixed", "kernel_log")
    journal = (lab_fleet.host_root / "scenarios" / "fault-mixed" / "journalctl-k.txt").read_text()
    assert huge.outcome == "ok" and huge.truncated and huge.stdout.endswith(journal)
    assert len(huge.stdout.encode()) <= 8 * 1024 * 1024 and "truncated" in str(huge.message)
    garbage = fault_run.command("fault-mixed", "nvidia_smi")
    assert garbage.outcome == "ok" and "\ufffd" in garbage.stdout
    assert "NVIDIA-SMI 535.161.08" in garbage.stdout
    sel = fault_run.command("fault-mixed", "ipmi_sel")
    assert (sel.outcome, sel.exit) == ("nonzero", 1) and "status 1" in str(sel.message)
    for name in ("storcli", "docker_info"):
        missing = fault_run.command("fault-mixed", name)
        assert missing.outcome == "missing" and "not installed" in str(missing.message)
    assert fault_run.command("fault-mixed", "cpupower").outcome == "ok"  # slow, but within its timeout


def test_sshd_killed_mid_run(fault_run: FaultRun) -> None:
    h = fault_run.host("fault-slow")
    lost = [c for c in h.commands if c.outcome == "error"]
    assert h.status != "ok" or lost, "killing sshd mid-run must show up"
    assert all(c.message for c in lost) and (h.error or lost)


def test_the_audit_log_holds_only_catalog_commands(lab_fleet: fleet.Fleet, fault_run: FaultRun) -> None:
    records = read_audit(lab_fleet.audit_log)
    assert any(r.host == "fault-mixed" for r in records)
    assert catalog_violations(records) == []

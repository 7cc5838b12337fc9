"""The lab itself: real sshd hosts serve scenario files for the catalog's argv, inject faults, audit.

Commands go over real SSH (asyncssh, strict known_hosts) to the session's `lab_fleet`.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncssh
import pytest
import yaml

from pitstop.collectors import catalog
from pitstop.lab import keys, timeshift
from pitstop.lab.audit import LAB_TEST_PREFIX, read_audit
from pitstop.lab.fleet import Fleet
from pitstop.lab.scenario import SCENARIO_FILES, Scenario, load_scenario, shipped_scenarios
from pitstop.lab.sshd import LabError, SshdSpec, find_sshd, start_all

pytestmark = pytest.mark.lab
HEALTHY = "h100-sxm5-healthy"
ANY_DAY = datetime(2030, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Ran:
    exit: int | None
    stdout: bytes
    stderr: bytes


def ssh(lab: Fleet, host: str, command: str, stdin: bytes | None = None, timeout: float = 30) -> Ran:
    """Run one command on a lab host over real SSH, checking its key against the lab's known_hosts.

    The command is marked as the lab tests' own (LAB_TEST_PREFIX), so the audit check tells it apart
    from what Pitstop sends.
    """

    async def go() -> Ran:
        h = lab.host(host)
        async with asyncssh.connect(
            h.address,
            h.port,
            username=lab.user,
            known_hosts=str(lab.known_hosts),
            client_keys=[str(lab.identity_file)],
            agent_path=None,
        ) as conn:
            r = await conn.run(LAB_TEST_PREFIX + command, input=stdin, encoding=None, timeout=timeout)
            return Ran(r.exit_status, r.stdout or b"", r.stderr or b"")

    return asyncio.run(go())


def argv_of(name: str, scenario: Scenario | None = None) -> str:
    """The catalog's argv for a collector, quoted as the runner sends it. A host-derived parameter is
    read from the scenario's own output of its source command, as the runner reads it on a real host."""
    collector = catalog.get(name)
    param = None
    if collector.param:
        param = collector.param.example
        if collector.param.source:
            param = "eno1np0"
            source_file = catalog.get(collector.param.source).lab_file
            if scenario is not None and source_file in scenario.files and collector.param.extract:
                found = collector.param.extract(scenario.files[source_file].read_text())
                param = found[0] if found else param
    return shlex.join(catalog.render(collector, param=param).argv)


_WHOLE_FILE = sorted(
    c for c in SCENARIO_FILES if not (catalog.get(c).param and not catalog.get(c).param.source)
)


@pytest.mark.parametrize("collector", _WHOLE_FILE)  # the Slurm commands print the asked job's lines
def test_each_catalog_command_serves_its_scenario_file(lab_fleet: Fleet, collector: str) -> None:
    name = SCENARIO_FILES[collector]
    scenario = next(s for s in map(load_scenario, shipped_scenarios()) if name in s.files)
    r = ssh(lab_fleet, scenario.name, argv_of(collector, scenario))
    assert (r.exit, r.stderr) == (0, b"")
    assert r.stdout == (lab_fleet.host_root / "scenarios" / scenario.name / name).read_bytes()
    written = scenario.files[name].read_text()
    assert _dated(r.stdout.decode()) == _dated(written)  # the same text, up to one shift of its timestamps


def _dated(text: str) -> str:
    """`text` with its newest timestamp moved to one fixed date: equal for texts that differ by a shift."""
    return timeshift.plan([text], ANY_DAY).apply(text)


def test_missing_file_means_not_installed(lab_fleet: Fleet) -> None:
    r = ssh(lab_fleet, "fault-mixed", argv_of("storcli") + "; echo rc=$?")
    assert r.stdout == b"rc=127\n" and b"storcli64: not found" in r.stderr
    r = ssh(lab_fleet, "h100-pcie-for-sxm5", argv_of("ibstat") + "; " + argv_of("fabricmanager_status"))
    assert b"ibstat: not found" in r.stderr
    assert b"nvidia-fabricmanager.service could not be found" in r.stderr and r.exit == 4


def test_nvidia_smi_error_file_fails_every_call(lab_fleet: Fleet) -> None:
    for argv in (argv_of("nvidia_smi"), argv_of("nvidia_smi_q"), "nvidia-smi -q -d ECC"):
        r = ssh(lab_fleet, "driver-library-mismatch", argv)
        assert r.exit == 9
        assert r.stdout.startswith(b"Failed to initialize NVML: Driver/library version mismatch")


def test_sections_and_gpu_index_are_derived_from_the_full_query(lab_fleet: Fleet) -> None:
    r = ssh(lab_fleet, "row-remap-pending", "nvidia-smi -q -d ROW_REMAPPER,ECC")
    text = r.stdout.decode()
    assert r.exit == 0 and text.count("Remapped Rows") == 8 and text.count("    ECC Errors") == 8
    assert "Temperature" not in text and "Product Name" not in text
    assert "Driver Version" in text  # the header stays
    one = ssh(lab_fleet, "row-remap-pending", "nvidia-smi -q -i 5 -d ROW_REMAPPER").stdout.decode()
    assert one.count("GPU 00000000:") == 1 and "GPU 00000000:AB:00.0" in one
    assert re.search(r"^        Pending +: Yes$", one, re.M)


def test_faults_garbage_and_exit(lab_fleet: Fleet) -> None:
    garbage = ssh(lab_fleet, "fault-mixed", argv_of("nvidia_smi")).stdout
    with pytest.raises(UnicodeDecodeError):
        garbage.decode("utf-8")
    r = ssh(lab_fleet, "fault-mixed", argv_of("ipmi_sel"))
    assert r.exit == 1 and b"System Boot Initiated" in r.stdout
    # huge output and hangs through the runner: tests/collectors/test_faults.py


def test_hang_is_stopped_by_the_remote_timeout(lab_fleet: Fleet) -> None:
    r = ssh(lab_fleet, "fault-mixed", "timeout -k 1 1 cat /proc/driver/nvidia/version; echo rc=$?")
    assert r.stdout == b"rc=124\n"


def test_torch_probe_is_canned_and_other_python_runs_for_real(lab_fleet: Fleet) -> None:
    probe = shlex.join(catalog.render(catalog.get("torch_probe")).argv)
    assert ssh(lab_fleet, "torch-cpu-only", probe).stdout == b"2.3.1+cpu None False\n"
    r = ssh(lab_fleet, HEALTHY, "python3 -", stdin=b"import os; print(os.environ['PITSTOP_LAB_HOST'])\n")
    assert (r.exit, r.stdout) == (0, b"h100-sxm5-healthy\n")


def test_sessions_run_unprivileged(lab_fleet: Fleet) -> None:
    who = ssh(lab_fleet, HEALTHY, "id -un").stdout.decode().strip()
    assert who == lab_fleet.user
    if os.geteuid() == 0:
        assert who == "pitstop-lab"


def test_every_command_is_audited_with_its_host(lab_fleet: Fleet) -> None:
    marker = "echo audit-marker 'two words'"
    ssh(lab_fleet, "ib-port-down", marker)
    records = read_audit(lab_fleet.audit_log)
    assert any(r.host == "ib-port-down" and r.command == LAB_TEST_PREFIX + marker for r in records)
    assert all(r.host in {h.name for h in lab_fleet.hosts} for r in records)


def test_inventory_addresses_and_expectations(lab_fleet: Fleet, lab_inventory) -> None:
    addresses = {(h.address, h.port) for h in lab_fleet.hosts}
    assert len(addresses) == len(lab_fleet.hosts)
    assert all(a.startswith("127.0.0.") for a, _ in addresses)
    pcie = lab_inventory.get("h100-pcie-for-sxm5")
    assert pcie.expect["form_factor"] == "SXM5" and pcie.expect["gpu_count"] == 4
    assert "h100" in pcie.groups and "lab" in pcie.groups
    data = yaml.safe_load(lab_fleet.inventory.read_text())
    assert data["known_hosts"] == str(lab_fleet.known_hosts) and data["ssh_config"] is False


def test_a_port_in_use_fails_clearly_and_leaves_no_sshd_behind(lab_fleet: Fleet, tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.250", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    specs = []
    for name, address in (("free", "127.0.0.249"), ("taken", "127.0.0.250")):
        workdir = tmp_path / name
        workdir.mkdir()
        key = keys.ensure_key(tmp_path / f"key-{name}", name).private_path
        specs.append(
            SshdSpec(
                name,
                address,
                port,
                key,
                workdir,
                tmp_path / "authorized_keys",
                "nobody",
                Path("/bin/false"),
                {"A": "b"},
            )
        )
    try:
        with pytest.raises(LabError, match="taken: .*Address already in use"):
            start_all(specs, find_sshd())
    finally:
        busy.close()
    config = str(tmp_path / "free" / "sshd_config").encode()
    running = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _cmdline(p).count(config)]
    assert running == [], "the sshd that did start must be stopped again"


def _cmdline(proc: Path) -> bytes:
    try:
        return (proc / "cmdline").read_bytes()
    except OSError:
        return b""


def test_large_concurrent_commands_are_audited_whole(lab_fleet: Fleet) -> None:
    commands = [f": {str(i) * 20000}" for i in range(10)]  # far beyond one write() of the shell's buffer

    async def go() -> None:
        h = lab_fleet.host("torch-cpu-only")
        async with asyncssh.connect(
            h.address,
            h.port,
            username=lab_fleet.user,
            agent_path=None,
            known_hosts=str(lab_fleet.known_hosts),
            client_keys=[str(lab_fleet.identity_file)],
        ) as conn:
            await asyncio.gather(*(conn.run(LAB_TEST_PREFIX + c, timeout=30) for c in commands))

    asyncio.run(go())
    seen = {r.command for r in read_audit(lab_fleet.audit_log) if r.host == "torch-cpu-only"}
    assert {LAB_TEST_PREFIX + c for c in commands} <= seen

"""`pitstop lab up|down|audit` as a person runs them: real processes, real sshd, clear errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pitstop.lab import fleet
from pitstop.lab.scenario import SCENARIOS_DIR
from pitstop.lab.sshd import LabError, find_sshd

pytestmark = pytest.mark.lab


def pitstop(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pitstop", *args], capture_output=True, text=True, timeout=120, env=env
    )


@pytest.fixture
def state_dir(tmp_path: Path):
    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    yield tmp_path / "lab"
    pitstop("lab", "--state-dir", str(tmp_path / "lab"), "down")  # after a failure too


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_up_copies_audit_down(state_dir: Path, tmp_path: Path) -> None:
    port = fleet.default_port() + 50  # inside this process's range (tests/conftest.py)
    out = tmp_path / "inv.yaml"
    up = pitstop(
        "lab",
        "--state-dir",
        str(state_dir),
        "up",
        str(SCENARIOS_DIR / "torch-cpu-only"),
        "--copies",
        "3",
        "--inventory",
        str(out),
        "--port",
        str(port),
    )
    assert up.returncode == 0, up.stderr
    assert "3 lab hosts up" in up.stdout and "torch-cpu-only-003" in up.stdout
    inventory = yaml.safe_load(out.read_text())
    hosts = {h["name"]: h for h in inventory["hosts"]}
    assert sorted(hosts) == ["torch-cpu-only-001", "torch-cpu-only-002", "torch-cpu-only-003"]
    h = hosts["torch-cpu-only-002"]
    assert h["port"] >= port  # --port is the first port tried
    ssh = [
        "ssh",
        "-F",
        "/dev/null",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        f"UserKnownHostsFile={inventory['known_hosts']}",
        "-i",
        h["identity_file"],
        "-p",
        str(h["port"]),
        "-l",
        h["user"],
        h["address"],
    ]
    r = subprocess.run([*ssh, "uname -a"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Linux hgx-h100-07 5.15.0-105-generic")
    shell = subprocess.run(
        [*ssh[:-1], "-T", ssh[-1]], input="id\n", capture_output=True, text=True, timeout=30
    )
    assert shell.returncode == 1 and "offers no interactive shell" in shell.stderr

    audit = pitstop("lab", "--state-dir", str(state_dir), "audit")
    assert audit.stdout.splitlines() == [
        "torch-cpu-only-002 uname -a",
        "torch-cpu-only-002 (interactive shell refused)",
    ]

    pids = [int(p) for p in (state_dir / "sshd").glob("*/sshd.pid") for p in [p.read_text().strip()]]
    assert len(pids) == 3 and all(alive(p) for p in pids)
    down = pitstop("lab", "--state-dir", str(state_dir), "down")
    assert down.returncode == 0 and "3 lab hosts stopped" in down.stdout
    assert not any(alive(p) for p in pids)
    # the audit log outlives the hosts
    assert pitstop("lab", "--state-dir", str(state_dir), "audit").stdout == audit.stdout


def test_the_printed_diagnose_command_is_allowed_and_confirms(state_dir: Path, tmp_path: Path) -> None:
    """`lab up` writes a lab-only policy and prints a command that works as pasted (issue 6 default-deny)."""
    up = pitstop("lab", "--state-dir", str(state_dir), "up", str(SCENARIOS_DIR / "raid-writethrough"))
    assert up.returncode == 0, up.stderr
    hint = next(line for line in up.stdout.splitlines() if line.startswith("try: "))[len("try: ") :]
    assert "PITSTOP_POLICY=" in hint and hint.endswith("pitstop diagnose raid-writethrough")
    env = {k: v for k, v in os.environ.items() if k not in ("PITSTOP_INVENTORY", "PITSTOP_POLICY")}
    env |= {
        "PITSTOP_DB": str(tmp_path / "pitstop.db"),
        "PATH": f"{Path(sys.executable).parent}:{env['PATH']}",
    }  # `pitstop` beside this python
    r = subprocess.run(["sh", "-c", hint], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 10, r.stdout + r.stderr  # 10: a cause is confirmed
    assert re.search(r"^CONFIRMED +raid-write-through-cache on 1 host: raid-writethrough$", r.stdout, re.M), (
        r.stdout
    )
    policy = yaml.safe_load((state_dir / "policy.yaml").read_text())
    assert [rule["hosts"] for rule in policy["rules"]] == [["raid-writethrough"]]  # the lab hosts only
    plain = subprocess.run(
        ["sh", "-c", hint.replace("PITSTOP_POLICY=", "IGNORED=")],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert plain.returncode == 4 and "No authorization policy" in plain.stderr  # default deny still holds


def test_errors_are_messages_not_tracebacks(state_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "faults.yaml").write_text("melt: [uname]\n")
    r = pitstop("lab", "--state-dir", str(state_dir), "up", str(bad))
    assert r.returncode == 2 and "unknown fault 'melt'" in r.stderr and "Traceback" not in r.stderr
    r = pitstop("lab", "--state-dir", str(state_dir), "down")
    assert r.returncode == 1 and "no lab is running" in r.stderr and "Traceback" not in r.stderr


def test_missing_sshd_says_how_to_install(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path))
    code = (
        "import pitstop.lab.sshd as s; s.SSHD_CANDIDATES = ();"
        "from pitstop.cli.main import main; raise SystemExit(main(['lab', 'up']))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 1 and "apt-get install openssh-server" in r.stderr

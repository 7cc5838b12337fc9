"""Start and stop a fleet of lab hosts: real sshd processes on 127.0.0.x serving scenario outputs.

Layout: the state directory (client side) holds the client key, host keys, known_hosts, the
inventory, `state.json` and each sshd's config, pid file and log. The host root holds what the lab
hosts' sessions read and write: the fake tools, the scenario files, authorized_keys and the audit
log (a directory, see lab/audit.py). As root the sessions run as the unprivileged
`pitstop-lab` user and the host root is a world-readable directory under /tmp; otherwise they run
as the invoking user inside the state dir.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from pitstop.core.config import write_private_text
from pitstop.core.i18n import msg
from pitstop.lab import bastion, keys, timeshift
from pitstop.lab.scenario import SCENARIO_FILES, Scenario
from pitstop.lab.sshd import LabError, SshdSpec, find_sshd, free_port, start_all, stop_pids

FAKEBIN = Path(__file__).parent / "fakebin"
FAKE_TOOLS = (
    "nvidia-smi",
    "journalctl",
    "dmesg",
    "lspci",
    "ip",
    "ethtool",
    "ibstat",
    "ibv_devinfo",
    "numactl",
    "lscpu",
    "cpupower",
    "storcli64",
    "MegaCli64",
    "lsblk",
    "df",
    "ipmitool",
    "systemctl",
    "nvidia-ctk",
    "nvidia-container-cli",
    "docker",
    "uname",
    "cat",
    "python3",
    "scontrol",
    "sacct",
    "hostname",
    "getent",
    "ss",
    "stat",
    "systemd-analyze",
    "ldconfig",
    "ofed_info",
    "show_gids",
)
LAB_USER = "pitstop-lab"
LAB_HOME = Path("/var/lib/pitstop-lab")
DEFAULT_PORT = 2222
PORT_ENV = "PITSTOP_LAB_PORT"  # overrides DEFAULT_PORT: the test suite gives each of its processes a range
ADDRESSES = tuple(f"127.0.0.{n}" for n in range(2, 252))  # loopback only; more hosts take more ports
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class LabHost:
    """One running lab host."""

    name: str
    scenario: str
    address: str
    port: int
    pid: int


@dataclass(frozen=True)
class Fleet:
    """A running lab: where its files are and which hosts it runs."""

    state_dir: Path
    host_root: Path
    user: str
    identity_file: Path
    known_hosts: Path
    inventory: Path
    audit_log: Path
    hosts: tuple[LabHost, ...]
    chain: tuple[LabHost, ...] = ()  # the bastion chain (lab/bastion.py), in the ssh config only
    ssh_config: Path | None = None

    def host(self, name: str) -> LabHost:
        """The lab host called `name` (bastion chain hosts included)."""
        for host in self.hosts + self.chain:
            if host.name == name:
                return host
        raise KeyError(f"no lab host {name!r}")

    def host_key(self, name: str) -> keys.KeyPair:
        """The host key pair of lab host `name`."""
        return keys.ensure_key(self.state_dir / "keys" / f"host-{name}", name)


def default_state_dir() -> Path:
    """`$PITSTOP_HOME/lab` when PITSTOP_HOME is set, else `./.lab`."""
    home = os.environ.get("PITSTOP_HOME")
    return Path(home) / "lab" if home else Path(".lab")


def default_port() -> int:
    """The first port a lab tries: `$PITSTOP_LAB_PORT` when set, else DEFAULT_PORT."""
    value = os.environ.get(PORT_ENV, "").strip()
    if not value:
        return DEFAULT_PORT
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise LabError(msg("errors.lab.port_env", name=PORT_ENV, value=value))
    return int(value)


def _lab_user() -> str:
    """The account lab sessions run as: `pitstop-lab` when root (created unlocked), else oneself."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.getuid()).pw_name
    try:
        pwd.getpwnam(LAB_USER)
    except KeyError:
        _run(
            [
                "useradd",
                "--system",
                "--shell",
                "/bin/sh",
                "--home-dir",
                str(LAB_HOME),
                "--no-create-home",
                LAB_USER,
            ]
        )
    if _shadow_locked(LAB_USER):
        # sshd refuses accounts whose password starts with "!"; "*" allows key login, no password
        _run(["usermod", "-p", "*", LAB_USER])
    pw = pwd.getpwnam(LAB_USER)
    LAB_HOME.mkdir(mode=0o755, exist_ok=True)
    os.chown(LAB_HOME, pw.pw_uid, pw.pw_gid)
    return LAB_USER


def _shadow_locked(user: str) -> bool:
    try:
        lines = Path("/etc/shadow").read_text().splitlines()
    except OSError:
        return False
    return any(line.split(":")[0] == user and line.split(":")[1].startswith("!") for line in lines)


def _run(argv: list[str]) -> None:
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise LabError(msg("errors.lab.command_failed", command=" ".join(argv), stderr=result.stderr.strip()))


def _make_host_root(state_dir: Path, user: str) -> Path:
    if os.geteuid() == 0:
        root = Path(tempfile.mkdtemp(prefix="pitstop-lab-"))
        root.chmod(0o755)
    else:
        root = state_dir / "host"
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
    lib = root / "lib"
    (lib / "bin").mkdir(parents=True)
    for item in FAKEBIN.iterdir():
        shutil.copy(item, lib / item.name)
        (lib / item.name).chmod(0o755)
    for tool in FAKE_TOOLS:
        (lib / "bin" / tool).symlink_to("../fake")
    audit = root / "audit"
    audit.mkdir(mode=0o755)
    pw = pwd.getpwnam(user)
    os.chown(audit, pw.pw_uid, pw.pw_gid)
    return root


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link where possible (fast, and readable without access to the source's directory)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def install_scenario(scenario: Scenario, root: Path, now: datetime) -> Path:
    """Lay out what a host of `scenario` serves under `root`: its outputs, their timestamps moved so the
    newest lies just before `now` (lab/timeshift.py), and its compiled faults."""
    target = root / "scenarios" / scenario.name
    target.mkdir(parents=True)
    texts = {name: p.read_bytes().decode("utf-8", "surrogateescape") for name, p in scenario.files.items()}
    shift = timeshift.plan(texts.values(), now)
    for name, path in scenario.files.items():
        moved = shift.apply(texts[name])
        if moved == texts[name]:
            _link_or_copy(path, target / name)
        else:
            (target / name).write_bytes(moved.encode("utf-8", "surrogateescape"))
    if scenario.faults:
        (target / ".faults").mkdir()
        for fault in scenario.faults:
            with open(target / ".faults" / fault.collector, "a", encoding="utf-8") as out:
                out.write(f"{fault.kind} {fault.value}\n")
    return target


def endpoint(index: int, base_port: int) -> tuple[str, int]:
    """Address and port of the index-th lab host: 250 loopback addresses per port, then the next port."""
    return ADDRESSES[index % len(ADDRESSES)], base_port + index // len(ADDRESSES)


def _pick_port(count: int, first: int) -> int:
    ports = -(-count // len(ADDRESSES))
    for base in range(first, first + 500):
        if base + ports <= 65535 and free_port(endpoint(i, base) for i in range(count)):
            return base
    raise LabError(msg("errors.lab.no_ports", first=first, count=count))


def _host_names(scenarios: Sequence[Scenario], copies: int) -> list[tuple[str, Scenario]]:
    if copies == 1:
        return [(s.name, s) for s in scenarios]
    return [(f"{s.name}-{k:03d}", s) for s in scenarios for k in range(1, copies + 1)]


def up(
    scenarios: Sequence[Scenario],
    state_dir: Path | None = None,
    copies: int = 1,
    inventory: Path | None = None,
    port: int | None = None,
    now: datetime | None = None,
    with_bastion: bool = False,
) -> Fleet:
    """Start one sshd per scenario (times `copies`) and write keys, known_hosts and the inventory.

    Ports are tried from `port` (default: `default_port()`) upwards until every host can bind.

    The scenarios' timestamps are moved so that each one's newest lies just before `now` (default: now).
    `with_bastion` adds the bastion chain of lab/bastion.py (three more sshd, in the ssh config only).
    """
    if not scenarios:
        raise LabError(msg("errors.lab.no_scenarios"))
    if copies < 1:
        raise LabError(msg("errors.lab.copies"))
    sshd = find_sshd()
    state_dir = (state_dir or default_state_dir()).resolve()
    if (state_dir / "state.json").is_file():
        raise LabError(msg("errors.lab.running", path=str(state_dir)))
    state_dir.mkdir(parents=True, exist_ok=True)
    user = _lab_user()
    root = _make_host_root(state_dir, user)
    try:
        return _start(
            scenarios,
            state_dir,
            root,
            user,
            sshd,
            copies,
            inventory,
            default_port() if port is None else port,
            now or datetime.now(UTC),
            with_bastion,
        )
    except BaseException:
        if os.geteuid() == 0:
            shutil.rmtree(root, ignore_errors=True)
        raise


def _start(
    scenarios: Sequence[Scenario],
    state_dir: Path,
    root: Path,
    user: str,
    sshd: str,
    copies: int,
    inventory: Path | None,
    first_port: int,
    now: datetime,
    with_bastion: bool = False,
) -> Fleet:
    client = keys.ensure_key(state_dir / "keys" / "client", "pitstop-lab-client")
    (root / "authorized_keys").write_text(client.public_line + "\n", encoding="utf-8")
    scenario_dirs = {s.name: install_scenario(s, root, now) for s in scenarios}
    names = _host_names(scenarios, copies)
    served = next((s for s in scenarios if s.name == bastion.SCENARIO), scenarios[0])
    chain = [(n, served) for n in bastion.NAMES] if with_bastion else []
    python = shutil.which("python3", path=SYSTEM_PATH) or "/usr/bin/python3"
    for attempt in range(3):  # another lab may grab the ports between the probe and sshd's bind
        base = _pick_port(len(names) + len(chain), first_port + attempt * 50)
        places = {name: endpoint(i, base) for i, (name, _) in enumerate(names + chain)}
        specs = []
        for name, scenario in names + chain:
            workdir = state_dir / "sshd" / name
            workdir.mkdir(parents=True, exist_ok=True)
            address, port = places[name]
            specs.append(
                SshdSpec(
                    name=name,
                    address=address,
                    port=port,
                    host_key=keys.ensure_key(state_dir / "keys" / f"host-{name}", name).private_path,
                    workdir=workdir,
                    authorized_keys=root / "authorized_keys",
                    user=user,
                    force_command=root / "lib" / "lab-session",
                    env={
                        "PITSTOP_LAB_HOST": name,
                        "PITSTOP_SCENARIO": str(scenario_dirs[scenario.name]),
                        "PITSTOP_LAB_LIB": str(root / "lib"),
                        "PITSTOP_LAB_AUDIT": str(root / "audit"),
                        "PITSTOP_LAB_PYTHON": python,
                    },
                    permit_open=bastion.permit_open(name, places) if (name, scenario) in chain else None,
                )
            )
        try:
            pids = start_all(specs, sshd)
            break
        except LabError as exc:
            if "Address already in use" not in str(exc) or attempt == 2:
                raise
    by_name = dict(names + chain)
    started = [LabHost(s.name, by_name[s.name].name, s.address, s.port, pids[s.name]) for s in specs]
    hosts, chained = tuple(started[: len(names)]), tuple(started[len(names) :])
    try:
        return _record(scenarios, state_dir, root, user, client.private_path, inventory, hosts, chained)
    except BaseException:
        stop_pids(pids.values())
        raise


def _record(
    scenarios: Sequence[Scenario],
    state_dir: Path,
    root: Path,
    user: str,
    identity: Path,
    inventory: Path | None,
    hosts: tuple[LabHost, ...],
    chain: tuple[LabHost, ...] = (),
) -> Fleet:
    """Write known_hosts, the inventory, the chain's ssh config and state.json for hosts that are up."""
    known_hosts = state_dir / "known_hosts"
    ssh_config = (
        bastion.write_ssh_config(
            state_dir, {h.name: (h.address, h.port) for h in chain}, user, identity, known_hosts
        )
        if chain
        else None
    )
    fleet = Fleet(
        state_dir=state_dir,
        host_root=root,
        user=user,
        identity_file=identity,
        known_hosts=known_hosts,
        inventory=inventory or state_dir / "inventory.yaml",
        audit_log=root / "audit",
        hosts=hosts,
        chain=chain,
        ssh_config=ssh_config,
    )
    fleet.known_hosts.write_text(
        "".join(
            keys.known_hosts_line(h.address, h.port, fleet.host_key(h.name).public_line) + "\n"
            for h in hosts + chain
        )
    )
    write_inventory(fleet, {s.name: s for s in scenarios}, fleet.inventory)
    state: dict[str, Any] = {
        k: str(v) for k, v in asdict(fleet).items() if k not in ("hosts", "chain") and v is not None
    }
    state["hosts"] = [asdict(h) for h in hosts]
    state["chain"] = [asdict(h) for h in chain]
    (state_dir / "state.json").write_text(json.dumps(state, indent=1), encoding="utf-8")
    return fleet


def write_inventory(fleet: Fleet, scenarios: dict[str, Scenario], path: Path) -> None:
    """Write the inventory YAML (collectors/inventory.py format) for the running fleet."""
    hosts = [
        {
            "name": h.name,
            "address": h.address,
            "port": h.port,
            "user": fleet.user,
            "identity_file": str(fleet.identity_file),
            "groups": ["lab", *scenarios[h.scenario].groups],
            "expect": dict(scenarios[h.scenario].expect),
        }
        for h in fleet.hosts
    ]
    data: dict[str, Any] = {
        "known_hosts": str(fleet.known_hosts),
        "ssh_config": str(fleet.ssh_config) if fleet.ssh_config else False,
        "connect_timeout": 5,
        "hosts": hosts,
    }
    controller = next(
        (h.name for h in fleet.hosts if SCENARIO_FILES["slurm_job"] in scenarios[h.scenario].files), None
    )
    if controller:  # the first host that answers scontrol is the lab's Slurm controller
        data["slurm"] = {"controller": controller, "timezone": "UTC"}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_private_text(path, yaml.safe_dump(data, sort_keys=False))


def load(state_dir: Path | None = None) -> Fleet:
    """The fleet recorded in `state_dir`, or LabError when no lab runs there."""
    state_dir = (state_dir or default_state_dir()).resolve()
    try:
        state = json.loads((state_dir / "state.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LabError(msg("errors.lab.not_running", path=str(state_dir))) from None
    hosts = tuple(LabHost(**h) for h in state.pop("hosts"))
    chain = tuple(LabHost(**h) for h in state.pop("chain", []))
    paths = {k: Path(v) for k, v in state.items() if k != "user"}
    return Fleet(user=state["user"], hosts=hosts, chain=chain, **paths)


def kill_host(fleet: Fleet, name: str) -> None:
    """Stop one host's sshd and its sessions at once (the 'sshd killed mid-run' fault)."""
    stop_pids([fleet.host(name).pid], grace_s=0.5)


def down(state_dir: Path | None = None) -> int:
    """Stop every sshd of the lab in `state_dir`; return how many hosts were stopped."""
    fleet = load(state_dir)
    stop_pids([h.pid for h in fleet.hosts + fleet.chain])
    if fleet.audit_log.is_dir():  # keep the audit log for `pitstop lab audit` after the hosts are gone
        shutil.rmtree(fleet.state_dir / "audit", ignore_errors=True)
        shutil.copytree(fleet.audit_log, fleet.state_dir / "audit")
    if os.geteuid() == 0 and fleet.host_root.name.startswith("pitstop-lab-"):
        shutil.rmtree(fleet.host_root, ignore_errors=True)
    (fleet.state_dir / "state.json").unlink()
    return len(fleet.hosts)


def audit_path(state_dir: Path | None = None) -> Path:
    """The audit log of the lab in `state_dir`: the running one, else the copy kept by `down`."""
    state_dir = (state_dir or default_state_dir()).resolve()
    if (state_dir / "state.json").is_file():
        return load(state_dir).audit_log
    return state_dir / "audit"

"""One OpenSSH `sshd` per lab host: its configuration, start-up and shutdown."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pitstop.core.errors import PitstopError
from pitstop.core.i18n import Msg, msg

SSHD_CANDIDATES = ("/usr/sbin/sshd", "/usr/local/sbin/sshd")
PRIVSEP_DIR = Path("/run/sshd")  # Debian's sshd refuses to start as root without it


class LabError(PitstopError):
    """The lab could not be started or stopped; the message says why and what to do."""


@dataclass(frozen=True)
class SshdSpec:
    """Everything one host's sshd needs; `env` becomes `SetEnv` for every session."""

    name: str
    address: str
    port: int
    host_key: Path
    workdir: Path
    authorized_keys: Path
    user: str
    force_command: Path
    env: Mapping[str, str]
    permit_open: str | None = None  # a jump host: TCP forwarding to this one `host:port` only

    @property
    def config_path(self) -> Path:
        """Where this host's sshd_config is written."""
        return self.workdir / "sshd_config"

    @property
    def pid_path(self) -> Path:
        """The pid file sshd writes after it has bound its address."""
        return self.workdir / "sshd.pid"

    @property
    def log_path(self) -> Path:
        """sshd's own log (`-E`)."""
        return self.workdir / "sshd.log"


def find_sshd() -> str:
    """The sshd binary, or LabError saying how to install it."""
    found = shutil.which("sshd") or next((p for p in SSHD_CANDIDATES if os.access(p, os.X_OK)), None)
    if not found:
        raise LabError(msg("errors.lab.no_sshd"))
    return found


def render_config(spec: SshdSpec) -> str:
    """The sshd_config of one lab host: key auth for one user, no forwarding, every session audited."""
    env = " ".join(f'"{k}={v}"' for k, v in spec.env.items())
    return "\n".join(
        [
            f"ListenAddress {spec.address}:{spec.port}",
            f"HostKey {spec.host_key}",
            f"PidFile {spec.pid_path}",
            f"AuthorizedKeysFile {spec.authorized_keys}",
            f"AllowUsers {spec.user}",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "UsePAM no",
            "StrictModes no",  # the lab's files live in temporary directories, not in a home
            "PermitTTY no",
            *(
                ["AllowTcpForwarding yes", f"PermitOpen {spec.permit_open}"]
                if spec.permit_open
                else ["AllowTcpForwarding no"]
            ),
            "AllowStreamLocalForwarding no",
            "AllowAgentForwarding no",
            "X11Forwarding no",
            "PermitTunnel no",
            "PermitUserEnvironment no",
            "PrintMotd no",
            "PrintLastLog no",
            "UseDNS no",
            "MaxSessions 100",  # one connection runs the whole catalog on concurrent channels
            "MaxStartups 200:30:400",
            "LoginGraceTime 30",
            "LogLevel ERROR",
            f"SetEnv {env}",
            f"ForceCommand {spec.force_command}",
            "",
        ]
    )


def free_port(pairs: Iterable[tuple[str, int]]) -> bool:
    """True when every (address, port) can be bound right now."""
    for address, port in pairs:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((address, port))
            except OSError:
                return False
    return True


def start_all(specs: list[SshdSpec], sshd: str, timeout_s: float = 20.0) -> dict[str, int]:
    """Start every sshd in parallel; return name -> pid once each has bound its address.

    sshd runs in the foreground (`-D`) in its own session, so a failed bind is seen as its exit
    (a daemonizing sshd binds only after its parent returned); the pid file it writes after binding
    says it is ready. On any failure every sshd started here is stopped and LabError quotes the log.
    """
    if os.geteuid() == 0:
        PRIVSEP_DIR.mkdir(mode=0o755, exist_ok=True)
    procs = {}
    for spec in specs:
        spec.config_path.write_text(render_config(spec), encoding="utf-8")
        spec.pid_path.unlink(missing_ok=True)
        spec.log_path.unlink(missing_ok=True)
        procs[spec.name] = subprocess.Popen(
            [sshd, "-D", "-f", str(spec.config_path), "-E", str(spec.log_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    pending = {spec.name: spec for spec in specs}
    failures: list[Msg] = []

    deadline = time.monotonic() + timeout_s
    while pending and time.monotonic() < deadline:
        for name, spec in list(pending.items()):
            if procs[name].poll() is not None:
                log = spec.log_path.read_text(errors="replace").strip() if spec.log_path.is_file() else ""
                failures.append(
                    msg("errors.lab.sshd_log", name=name, log=log)
                    if log
                    else msg("errors.lab.sshd_exited", name=name, status=procs[name].returncode)
                )
                del pending[name]
            elif spec.pid_path.is_file() and spec.pid_path.read_text().strip() == str(procs[name].pid):
                del pending[name]
        if pending:
            time.sleep(0.01)
    failures += [msg("errors.lab.sshd_silent", name=name, seconds=f"{timeout_s:.0f}") for name in pending]
    if failures:
        stop_pids(p.pid for p in procs.values())
        raise LabError(msg("errors.lab.sshd_failed", failures=failures))
    return {name: proc.pid for name, proc in procs.items()}


def descendants(pids: Iterable[int]) -> list[int]:
    """Every live process below any of `pids` (sessions, shells, fake tools), read from /proc once."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = list(pids)
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _state(pid: int) -> str:
    """The process's state letter from /proc (R, S, T, Z...); empty when it does not exist."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[0]


def _alive(pid: int) -> bool:
    """True for a process that exists and is not a zombie waiting for its reaper."""
    return _state(pid) not in ("", "Z")


def _signal(pids: Iterable[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def _freeze(roots: list[int], timeout_s: float = 1.0) -> None:
    """Stop `roots` (SIGSTOP) and wait until they are stopped, so none forks a session for a connection
    it accepts while its children are listed: such a session would outlive the kill."""
    _signal(roots, signal.SIGSTOP)
    deadline = time.monotonic() + timeout_s
    while any(_state(p) not in ("", "Z", "T", "t") for p in roots) and time.monotonic() < deadline:
        time.sleep(0.005)


def stop_pids(pids: Iterable[int], grace_s: float = 3.0) -> None:
    """Stop sshd daemons and everything they started: frozen first, then TERM, a short grace period,
    then KILL."""
    roots = [p for p in pids if _alive(p)]
    _freeze(roots)
    victims = descendants(roots) + roots
    for sig in (signal.SIGTERM, signal.SIGKILL):
        _signal(victims, sig)
        _signal(roots, signal.SIGCONT)  # a stopped daemon acts on its TERM once continued
        deadline = time.monotonic() + grace_s
        while any(_alive(p) for p in victims) and time.monotonic() < deadline:
            time.sleep(0.02)
        for pid in victims:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)  # our own children (sshd started by this process)
        victims = [p for p in victims if _alive(p)]
        if not victims:
            return

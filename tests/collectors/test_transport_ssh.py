"""The SSH transport against real OpenSSH lab hosts: strict host keys, auth, refusals, banner timeouts."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from pitstop.collectors import catalog, inventory, runner
from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.transport.ssh import Connector
from pitstop.lab import keys
from pitstop.lab.fleet import Fleet

pytestmark = pytest.mark.lab
HEALTHY = "h100-sxm5-healthy"


def _run(inv: Inventory, host: Host, names: list[str], lanes: int = 4) -> runner.HostRun:
    async def go() -> runner.HostRun:
        connector = Connector(inv)
        try:
            return await runner.run_host(host, names, connector=connector, lanes=lanes)
        finally:
            await connector.close()

    return asyncio.run(go())


def _inv(lab_inventory: Inventory, known_hosts: Path | None = None, timeout: float = 5) -> Inventory:
    return replace(
        lab_inventory,
        known_hosts=str(known_hosts) if known_hosts else lab_inventory.known_hosts,
        connect_timeout=timeout,
    )


def test_whole_catalog_over_one_connection(lab_fleet: Fleet, lab_inventory: Inventory) -> None:
    host = lab_inventory.get(HEALTHY)
    asked = [c.name for c in catalog.CATALOG if not (c.param and c.param.source is None)]  # no job id here
    r = _run(lab_inventory, host, asked, lanes=8)
    assert r.status == "ok", r.error
    scenario = lab_fleet.host_root / "scenarios" / HEALTHY
    assert r.results["uname"].stdout == (scenario / "uname-a.txt").read_text()
    assert r.results["nvidia_smi_q"].stdout == (scenario / "nvidia-smi-q.txt").read_text()
    assert r.results["kernel_log"].outcome == "ok" and "dmesg" not in r.results  # no fallback needed
    assert r.results["ethtool_i"].stdout.startswith("interface: ")
    ifaces = [c for c in r.commands if c.collector == "ethtool_i"]
    assert len(ifaces) >= 1 and r.channels == 8 + 1  # eight lanes, then one for the ethtool phase
    bad = {
        n: (x.outcome, x.message)
        for n, x in r.results.items()
        if x.outcome not in ("ok", "missing") and n not in ("nvml_probe", "torch_probe")
    }
    assert not bad


def test_unknown_host_key_is_refused_with_its_fingerprint(
    lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path
) -> None:
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    r = _run(_inv(lab_inventory, empty), lab_inventory.get(HEALTHY), ["uname"])
    presented = keys.fingerprint(lab_fleet.host_key(HEALTHY).public_line)
    assert r.status == "host_key_mismatch" and not r.commands
    assert "is unknown" in str(r.error) and presented in str(r.error) and str(empty) in str(r.error)


def test_changed_host_key_is_refused_naming_the_presented_key(
    lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path
) -> None:
    h = lab_fleet.host(HEALTHY)
    impostor = keys.ensure_key(tmp_path / "other", "other")
    kh = tmp_path / "known_hosts"
    kh.write_text(keys.known_hosts_line(h.address, h.port, impostor.public_line) + "\n")
    r = _run(_inv(lab_inventory, kh), lab_inventory.get(HEALTHY), ["uname"])
    presented = keys.fingerprint(lab_fleet.host_key(HEALTHY).public_line)
    assert r.status == "host_key_mismatch" and "has CHANGED" in str(r.error) and presented in str(r.error)
    assert keys.fingerprint(impostor.public_line) not in str(r.error)
    assert kh.read_text().count("\n") == 1  # never written


def test_refused_authentication(lab_inventory: Inventory, tmp_path: Path) -> None:
    stranger = keys.ensure_key(tmp_path / "stranger", "stranger")
    host = replace(lab_inventory.get(HEALTHY), identity_files=(str(stranger.private_path),))
    r = _run(lab_inventory, host, ["uname"])
    assert r.status == "auth_failed" and "authentication as" in str(r.error)


def _free_port(address: str) -> int:
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def test_connection_refused(lab_inventory: Inventory) -> None:
    host = Host("gone", "127.0.0.1", port=_free_port("127.0.0.1"))
    r = _run(lab_inventory, host, ["uname"])
    assert r.status == "unreachable" and "connection refused" in str(r.error)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts TCP and never sends an SSH banner."""
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(lambda r, w: None, "127.0.0.1", 0))
    port = server.sockets[0].getsockname()[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield port
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def test_bannerless_port_times_out_within_the_connect_timeout(
    lab_inventory: Inventory, silent_port: int
) -> None:
    start = time.monotonic()
    r = _run(_inv(lab_inventory, timeout=1), Host("mute", "127.0.0.1", port=silent_port), ["uname"])
    assert r.status == "unreachable" and "no SSH answer within 1s" in str(r.error)
    assert time.monotonic() - start < 10  # bounded: the connect timeout, not the kernel's TCP timeout


@pytest.fixture
def bastion(lab_fleet: Fleet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Host]:
    """A lab sshd that, unlike the lab hosts, allows TCP forwarding: a jump host."""
    from pitstop.lab import sshd

    plain = sshd.render_config
    monkeypatch.setattr(
        sshd,
        "render_config",
        lambda spec: plain(spec).replace("AllowTcpForwarding no", "AllowTcpForwarding yes"),
    )
    address = "127.0.0.250"
    spec = sshd.SshdSpec(
        name="bastion",
        address=address,
        port=_free_port(address),
        host_key=keys.ensure_key(tmp_path / "host-bastion", "bastion").private_path,
        workdir=tmp_path,
        authorized_keys=lab_fleet.host_root / "authorized_keys",
        user=lab_fleet.user,
        force_command=lab_fleet.host_root / "lib" / "lab-session",
        env={"PITSTOP_LAB_HOST": "bastion"},
    )
    pids = sshd.start_all([spec], sshd.find_sshd())
    try:
        yield Host(
            "bastion", address, spec.port, user=lab_fleet.user, identity_files=(str(lab_fleet.identity_file),)
        )
    finally:
        sshd.stop_pids(pids.values(), grace_s=0.5)


def test_jump_host_tunnel(lab_fleet: Fleet, lab_inventory: Inventory, bastion: Host, tmp_path: Path) -> None:
    kh = tmp_path / "known_hosts_all"
    line = keys.known_hosts_line(
        bastion.address, bastion.port, keys.ensure_key(tmp_path / "host-bastion", "bastion").public_line
    )
    kh.write_text(Path(lab_inventory.known_hosts).read_text() + line + "\n")
    target = replace(lab_inventory.get(HEALTHY), jump="bastion")
    inv = replace(_inv(lab_inventory, kh), hosts={**lab_inventory.hosts, "bastion": bastion, HEALTHY: target})
    r = _run(inv, target, ["uname"])
    assert r.status == "ok" and r.results["uname"].stdout.startswith("Linux hgx-h100-07")
    dead = replace(bastion, port=_free_port(bastion.address))
    r = _run(replace(inv, hosts={**inv.hosts, "bastion": dead}), target, ["uname"])
    assert r.status == "unreachable" and str(r.error).startswith("via jump host bastion:")


def test_agent_authentication(
    lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No identity file configured: the key comes from a real ssh-agent."""
    sock = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(sock)], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if sock.exists():
                break
            time.sleep(0.02)
        env = {"SSH_AUTH_SOCK": str(sock)}
        subprocess.run(
            ["ssh-add", "-q", str(lab_fleet.identity_file)], env=env, check=True, capture_output=True
        )
        monkeypatch.setenv("SSH_AUTH_SOCK", str(sock))
        monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.ssh/id_* keys to fall back on
        host = replace(lab_inventory.get(HEALTHY), identity_files=())
        r = _run(lab_inventory, host, ["uname"])
        assert r.status == "ok" and r.results["uname"].outcome == "ok"
    finally:
        agent.terminate()
        agent.wait(5)


def test_bad_jump_spec_is_a_host_error(lab_inventory: Inventory) -> None:
    host = replace(lab_inventory.get(HEALTHY), jump="gate:notaport")
    r = _run(lab_inventory, host, ["uname"])
    assert r.status == "error" and "bad jump host 'gate:notaport'" in str(r.error)


def _kh(tmp_path: Path, *lines: str) -> Path:
    kh = tmp_path / "known_hosts_case"
    kh.write_text("".join(line + "\n" for line in lines))
    return kh


def _pattern(lab_fleet: Fleet) -> tuple[str, str]:
    h = lab_fleet.host(HEALTHY)
    key = lab_fleet.host_key(HEALTHY).public_line.split()
    return f"[{h.address}]:{h.port}", f"{key[0]} {key[1]}"


def test_revoked_key_is_named_as_revoked(lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path) -> None:
    pattern, key = _pattern(lab_fleet)
    kh = _kh(tmp_path, f"@revoked {pattern} {key}", f"{pattern} {key}")
    r = _run(_inv(lab_inventory, kh), lab_inventory.get(HEALTHY), ["uname"])
    presented = keys.fingerprint(lab_fleet.host_key(HEALTHY).public_line)
    assert r.status == "host_key_mismatch" and "is REVOKED" in str(r.error) and presented in str(r.error)
    assert "unknown fingerprint" not in str(r.error) and "CHANGED" not in str(r.error)


def test_ca_only_known_hosts_is_explained(lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path) -> None:
    pattern, _ = _pattern(lab_fleet)
    ca = keys.ensure_key(tmp_path / "ca", "ca")
    kh = _kh(tmp_path, f"@cert-authority {pattern} {ca.public_line}")
    r = _run(_inv(lab_inventory, kh), lab_inventory.get(HEALTHY), ["uname"])
    assert r.status == "host_key_mismatch", r.error
    error = str(r.error)
    assert "trusts only a certificate authority (@cert-authority)" in error and "reset" not in error


def test_hashed_and_global_known_hosts_are_read(
    lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path
) -> None:
    pattern, key = _pattern(lab_fleet)
    hashed = _kh(tmp_path, f"{pattern} {key}")
    subprocess.run(["ssh-keygen", "-q", "-H", "-f", str(hashed)], check=True, capture_output=True)
    assert pattern not in hashed.read_text() and hashed.read_text().startswith("|1|")
    host = replace(lab_inventory.get(HEALTHY), global_known_hosts=(str(hashed),))
    empty = tmp_path / "user_known_hosts"
    empty.write_text("")  # the user file trusts nothing; the (hashed) global file does
    r = _run(_inv(lab_inventory, empty), host, ["uname"])
    assert r.status == "ok", r.error


@pytest.fixture
def http_port() -> Iterator[int]:
    """A port where an HTTP server answers whatever it is sent with a 400, as nginx would."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(b"HTTP/1.1 400 Bad Request\r\nServer: nginx\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(answer, "127.0.0.1", 0))
    port = server.sockets[0].getsockname()[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield port
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


def test_http_server_on_the_ssh_port_is_named(lab_inventory: Inventory, http_port: int) -> None:
    r = _run(_inv(lab_inventory, timeout=3), Host("web", "127.0.0.1", port=http_port), ["uname"])
    assert r.status == "unreachable"
    assert "does not speak SSH: it answered 'HTTP/1.1 400 Bad Request'" in str(r.error), r.error


def test_messages_exist_in_chinese() -> None:
    from pitstop.core.i18n import catalogue

    ssh = {k: v for k, v in catalogue().items() if k.startswith("ssh.")}
    assert len(ssh) >= 10 and all(zh and zh != en for en, zh in ssh.values())


@pytest.mark.parametrize("allowed", [False, True])
def test_proxy_command_runs_only_when_the_admin_allows_it(
    lab_fleet: Fleet, lab_inventory: Inventory, tmp_path: Path, allowed: bool
) -> None:
    h = lab_fleet.host(HEALTHY)
    relay = Path(__file__).parents[1] / "fixtures" / "tcp_relay.py"
    config = tmp_path / "ssh_config"
    config.write_text(
        f"Host proxied\n  HostName {h.address}\n  Port {h.port}\n  User {lab_fleet.user}\n"
        f"  IdentityFile {lab_fleet.identity_file}\n  ProxyCommand {sys.executable} {relay} %h %p\n"
    )
    inv = inventory.build(
        {"ssh_config": str(config), "known_hosts": str(lab_fleet.known_hosts), "hosts": {}},
        allow_local_commands=allowed,
    )
    host = inv.get("proxied")
    assert host.proxy_command and host.groups == (inventory.CONFIG_GROUP,)
    r = _run(inv, host, ["uname"])
    if allowed:
        assert r.status == "ok" and r.results["uname"].stdout.startswith("Linux hgx-h100-07")
    else:
        assert r.status == "error" and "PITSTOP_SSH_LOCAL_COMMANDS=1" in str(r.error) and not r.commands

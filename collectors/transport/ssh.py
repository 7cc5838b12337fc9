"""The SSH transport (asyncssh): strict host keys, key or agent auth, jump hosts, keepalive.

One connection per host; each script runs on its own session channel, so several run at
once. Host keys are checked against known_hosts only: an unknown or changed key is refused
with the presented key's SHA256 fingerprint, and nothing is ever written to known_hosts.
"""

from __future__ import annotations

import asyncio
import os
import socket
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.transport.base import HostUnavailable, Sink
from pitstop.core.errors import PitstopError

KEEPALIVE_S = 15
KEEPALIVE_COUNT = 3
# AES-GCM runs in OpenSSL per packet; asyncssh's chacha20-poly1305 builds two cipher contexts per
# packet and dominated the client's CPU in bench/bench_fanout.py. Output is small text: no compression.
CIPHERS = (
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
    "chacha20-poly1305@openssh.com",
    "aes128-ctr",
    "aes256-ctr",
)


class _Client(asyncssh.SSHClient):
    """Remembers the key a server presented when known_hosts did not trust it (to name it)."""

    def __init__(self) -> None:
        self.untrusted_key: asyncssh.SSHKey | None = None

    def validate_host_public_key(self, host: str, addr: str, port: int, key: asyncssh.SSHKey) -> bool:
        self.untrusted_key = key
        return False  # never auto-accept


class _Channel(asyncssh.SSHClientSession[bytes]):
    def __init__(self, on_stdout: Sink, on_stderr: Sink) -> None:
        self._out, self._err = on_stdout, on_stderr

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        (self._err if datatype == asyncssh.EXTENDED_DATA_STDERR else self._out)(data)


@dataclass
class SshSession:
    """An open asyncssh connection to one host."""

    conn: asyncssh.SSHClientConnection

    async def run(self, script: str, stdin: bytes | None, on_stdout: Sink, on_stderr: Sink) -> int | None:
        """Run `script` on a new channel; see transport.base.Session.run."""
        chan, _ = await self.conn.create_session(
            lambda: _Channel(on_stdout, on_stderr), script, encoding=None
        )
        try:
            if stdin:
                chan.write(stdin)
            chan.write_eof()
            await chan.wait_closed()
        except BaseException:
            chan.close()
            raise
        return chan.get_exit_status()

    async def close(self) -> None:
        """Close the connection (jump connections are closed by their Connector)."""
        self.conn.close()
        await self.conn.wait_closed()


def _fingerprint_message(host: Host, client: _Client, known: asyncssh.SSHKnownHosts, path: str) -> str:
    key = client.untrusted_key
    shown = key.get_fingerprint("sha256") if key else "unknown fingerprint"
    algo = key.get_algorithm() if key else "?"
    listed = bool(
        asyncssh.match_known_hosts(known, host.address, host.address, None if host.port == 22 else host.port)[
            0
        ]
    )
    if listed:
        return (
            f"host key for {host.name} ({host.address}:{host.port}) has CHANGED: presented {algo} "
            f"{shown} does not match {path}; refusing to connect (verify the host, then fix known_hosts)"
        )
    return (
        f"host key for {host.name} ({host.address}:{host.port}) is unknown: presented {algo} {shown} "
        f"is not in {path}; refusing to connect (add it to known_hosts after verifying it)"
    )


@dataclass
class Connector:
    """Opens connections for an inventory; shares jump-host connections between targets."""

    inventory: Inventory
    connect_timeout: float | None = None
    _known: asyncssh.SSHKnownHosts | None = None
    _jumps: dict[tuple[str, int, str | None], asyncio.Task] = field(default_factory=dict)

    @property
    def known_hosts_path(self) -> str:
        """The known_hosts file used for every host."""
        return self.inventory.known_hosts or str(Path.home() / ".ssh" / "known_hosts")

    def _known_hosts(self) -> asyncssh.SSHKnownHosts:
        if self._known is None:
            path = self.known_hosts_path
            # an empty object, not b"": asyncssh would fall back to ~/.ssh/known_hosts on a falsy value
            self._known = (
                asyncssh.read_known_hosts(path) if os.path.isfile(path) else asyncssh.import_known_hosts("")
            )
        return self._known

    @property
    def timeout(self) -> float:
        """Seconds allowed to reach a host and finish the SSH handshake."""
        return self.connect_timeout or self.inventory.connect_timeout

    async def connect(self, host: Host) -> SshSession:
        """Connect to `host` (through its jump host, if any); raise HostUnavailable on failure."""
        tunnel = None
        try:
            jump = self.inventory.jump_host(host)
        except PitstopError as exc:
            raise HostUnavailable("error", str(exc)) from None
        if jump is not None:
            try:
                tunnel = await self._jump(jump)
            except HostUnavailable as exc:
                raise HostUnavailable(exc.status, f"via jump host {jump.name}: {exc}") from None
        return SshSession(await self._open(host, tunnel))

    async def _jump(self, jump: Host) -> asyncssh.SSHClientConnection:
        key = (jump.address, jump.port, jump.user)
        if key not in self._jumps:
            self._jumps[key] = asyncio.ensure_future(self.connect(jump))
        session: SshSession = await asyncio.shield(self._jumps[key])
        return session.conn

    async def _open(
        self, host: Host, tunnel: asyncssh.SSHClientConnection | None
    ) -> asyncssh.SSHClientConnection:
        client = _Client()
        known = self._known_hosts()
        keys = {"client_keys": list(host.identity_files)} if host.identity_files else {}
        try:
            conn, _ = await asyncio.wait_for(
                asyncssh.create_connection(
                    lambda: client,
                    host.address,
                    port=host.port,
                    username=host.user or (),
                    tunnel=tunnel or (),
                    config=None,
                    x509_trusted_certs=None,
                    known_hosts=known,
                    preferred_auth=("publickey",),
                    connect_timeout=self.timeout,
                    login_timeout=self.timeout,
                    keepalive_interval=KEEPALIVE_S,
                    keepalive_count_max=KEEPALIVE_COUNT,
                    encryption_algs=CIPHERS,
                    compression_algs=("none",),
                    **keys,
                ),
                self.timeout + 1,
            )
            return conn
        except asyncssh.HostKeyNotVerifiable:
            raise HostUnavailable(
                "host_key_mismatch", _fingerprint_message(host, client, known, self.known_hosts_path)
            ) from None
        except asyncssh.PermissionDenied:
            who = host.user or os.environ.get("USER", "?")
            raise HostUnavailable(
                "auth_failed",
                f"{host.name}: authentication as {who!r} refused "
                "(no accepted key in the agent or identity files)",
            ) from None
        except TimeoutError:
            raise HostUnavailable(
                "unreachable",
                f"{host.name} ({host.address}:{host.port}): no SSH answer within {self.timeout:g}s",
            ) from None
        except ConnectionRefusedError:
            raise HostUnavailable(
                "unreachable", f"{host.name} ({host.address}:{host.port}): connection refused"
            ) from None
        except socket.gaierror as exc:
            raise HostUnavailable(
                "unreachable", f"{host.name}: cannot resolve {host.address} ({exc.strerror})"
            ) from None
        except asyncssh.ConnectionLost as exc:
            raise HostUnavailable("unreachable", f"{host.name}: connection lost ({exc.reason})") from None
        except OSError as exc:
            raise HostUnavailable(
                "unreachable", f"{host.name} ({host.address}:{host.port}): {exc.strerror or exc}"
            ) from None
        except (asyncssh.Error, ValueError) as exc:
            raise HostUnavailable("error", f"{host.name}: SSH failed: {exc}") from None

    async def close(self) -> None:
        """Close shared jump connections."""
        for task in self._jumps.values():
            if task.done() and not task.cancelled() and task.exception() is None:
                await task.result().close()
            else:
                task.cancel()
        self._jumps.clear()

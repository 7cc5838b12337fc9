"""The SSH transport (asyncssh): strict host keys at every hop, key or agent auth, jump chains, keepalive.

One connection per host; each script runs on its own session channel, so several run at
once. Connection parameters come resolved from the inventory (collectors/sshconfig.py applies
OpenSSH's config semantics there), so asyncssh's own config processing is off (`config=None`):
every jump host is connected here, one hop at a time, with its own strict host-key check.
Host keys are checked against the OpenSSH known_hosts files only (user and global; hashed
entries, `@cert-authority`, `@revoked`): an unknown, changed or revoked key is refused with the
presented key's SHA256 fingerprint, and nothing is ever written to known_hosts.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field

import asyncssh

from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.transport.base import HostUnavailable, Sink
from pitstop.core.errors import PitstopError
from pitstop.core.i18n import msg
from pitstop.core.redact import redact

KEEPALIVE_S = 15
# At 500 hosts a 256-wide gate started 256 handshakes at once: the client's key exchanges queued
# behind each other past the connect timeout and some hosts were reported unreachable. With 32 at
# once on a CPU-starved client (load 30 on 2 cores) whole waves of 32 still timed out together
# at 160 hosts: fewer at once finish sooner each, and a timed-out handshake is tried once more.
HANDSHAKES = 12
HANDSHAKE_TRIES = 2
KEEPALIVE_COUNT = 3
PROBE_TIMEOUT_S = 2.0  # reading what a port that broke the SSH handshake says instead
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

    async def run(
        self, script: str, stdin: bytes, on_stdout: Sink, on_stderr: Sink, *, eof: bool
    ) -> int | None:
        """Run `script` on a new channel; see transport.base.Session.run."""
        chan, _ = await self.conn.create_session(
            lambda: _Channel(on_stdout, on_stderr), script, encoding=None
        )
        try:
            chan.write(stdin)
            if eof:  # otherwise stdin stays open and silent: the script's clock (framing)
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


def _where(host: Host) -> str:
    return f"{host.name} ({host.address}:{host.port})"


def _key_message(
    host: Host, client: _Client, known: asyncssh.SSHKnownHosts, files: str, reason: str
) -> HostUnavailable:
    """The refusal for a host key known_hosts does not trust: revoked, changed or unknown."""
    port = None if host.port == 22 else host.port
    trusted, _cas, revoked, *_ = asyncssh.match_known_hosts(known, host.address, host.address, port)
    key = client.untrusted_key
    if "revoked" in reason.lower():
        shown = ", ".join(f"{k.get_algorithm()} {k.get_fingerprint('sha256')}" for k in revoked) or "?"
        message = msg("ssh.key_revoked", host=_where(host), key=shown, files=files)
    elif key is not None and trusted:
        message = msg(
            "ssh.key_changed",
            host=_where(host),
            key=f"{key.get_algorithm()} {key.get_fingerprint('sha256')}",
            files=files,
        )
    elif key is not None:
        message = msg(
            "ssh.key_unknown",
            host=_where(host),
            key=f"{key.get_algorithm()} {key.get_fingerprint('sha256')}",
            files=files,
        )
    else:
        message = msg("ssh.key_not_verified", host=_where(host), reason=reason, files=files)
    return HostUnavailable("host_key_mismatch", message)


async def _first_line(host: Host, tunnel: asyncssh.SSHClientConnection | None) -> bytes | None:
    """What the port says to an SSH client's greeting (None if it says nothing or cannot be reached)."""
    try:
        if tunnel is not None:
            reader, writer = await asyncio.wait_for(
                tunnel.open_connection(host.address, host.port), PROBE_TIMEOUT_S
            )
        else:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host.address, host.port),  # type: ignore[arg-type]
                PROBE_TIMEOUT_S,
            )
    except (OSError, asyncssh.Error, TimeoutError):
        return None
    try:
        writer.write(b"SSH-2.0-Pitstop_probe\r\n")
        data = await asyncio.wait_for(reader.read(256), PROBE_TIMEOUT_S)
    except (OSError, asyncssh.Error, TimeoutError):
        return None
    finally:
        writer.close()
    return data or None


def _answer(data: bytes) -> str:
    line = data.splitlines()[0] if data.strip() else data
    text = line.decode("ascii", "replace")
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:60]


@dataclass
class Connector:
    """Opens connections for an inventory; shares jump-host connections between targets."""

    inventory: Inventory
    connect_timeout: float | None = None
    handshakes: int = HANDSHAKES  # SSH handshakes in flight at once, apart from open connections
    _known: dict[tuple[str, ...], asyncssh.SSHKnownHosts] = field(default_factory=dict)
    _keys: dict[tuple[str, ...], Sequence[asyncssh.SSHKeyPair]] = field(default_factory=dict)
    _handshaking: asyncio.Semaphore | None = None
    _jumps: dict[tuple, asyncio.Task] = field(default_factory=dict)

    def _known_hosts(self, files: tuple[str, ...]) -> asyncssh.SSHKnownHosts:
        if files not in self._known:
            present = [f for f in files if os.path.isfile(f)]
            # an empty object, not b"": asyncssh would fall back to ~/.ssh/known_hosts on a falsy value
            self._known[files] = (
                asyncssh.read_known_hosts(present) if present else asyncssh.import_known_hosts("")
            )
        return self._known[files]

    def _client_keys(self, paths: tuple[str, ...]) -> Sequence[asyncssh.SSHKeyPair]:
        """The key pairs (and certificates beside them) of these files, read once for every host
        that names them: asyncssh would read and parse each file again for every connection."""
        if paths not in self._keys:
            self._keys[paths] = asyncssh.load_keypairs(list(paths))
        return self._keys[paths]

    @property
    def timeout(self) -> float:
        """Seconds allowed to reach a host and finish the SSH handshake."""
        return self.connect_timeout or self.inventory.connect_timeout

    async def connect(self, host: Host) -> SshSession:
        """Connect to `host` through its jump chain, each hop checked; raise HostUnavailable on failure."""
        tunnel = None
        try:
            self.inventory.jump_chain(host)  # loops and over-long chains are refused before connecting
            jump = self.inventory.jump_host(host)
        except PitstopError as exc:
            raise HostUnavailable("error", exc.message) from None

        if host.proxy_command and not self.inventory.allow_local_commands:
            raise HostUnavailable(
                "error",
                msg("ssh.proxy_command_skipped", host=host.name, command=redact(host.proxy_command)[:80]),
            )
        if jump is not None:
            try:
                tunnel = await self._jump(jump)
            except HostUnavailable as exc:
                raise HostUnavailable(
                    exc.status, msg("ssh.via_jump", jump=jump.name, error=exc.message)
                ) from None
        return SshSession(await self._open(host, tunnel, jump.name if jump else None))

    async def _jump(self, jump: Host) -> asyncssh.SSHClientConnection:
        key = (jump.address, jump.port, jump.user, jump.jump, jump.identity_files)
        if key not in self._jumps:
            self._jumps[key] = asyncio.ensure_future(self.connect(jump))
        session: SshSession = await asyncio.shield(self._jumps[key])
        return session.conn

    async def _open(
        self, host: Host, tunnel: asyncssh.SSHClientConnection | None, via: str | None = None
    ) -> asyncssh.SSHClientConnection:
        client = _Client()
        files = self.inventory.known_hosts_files(host)
        known = self._known_hosts(files)
        shown_files = ", ".join(f for f in files if os.path.isfile(f)) or f"{files[0]} (missing)"
        present = tuple(p for p in host.identity_files if os.path.isfile(p))
        proxy = {"proxy_command": host.proxy_command} if host.proxy_command and tunnel is None else {}
        if self._handshaking is None:
            self._handshaking = asyncio.Semaphore(max(1, self.handshakes))
        try:
            keys = {"client_keys": self._client_keys(present)} if present else {}
            for attempt in range(1, HANDSHAKE_TRIES + 1):
                try:
                    async with self._handshaking:  # the connect timeout starts when this host's turn comes
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
                                **proxy,
                            ),
                            self.timeout + 1,
                        )
                    break
                except TimeoutError:  # a busy client or host: once more, at the back of the queue
                    if attempt == HANDSHAKE_TRIES:
                        raise
            return conn
        except asyncssh.HostKeyNotVerifiable as exc:
            raise _key_message(host, client, known, shown_files, exc.reason) from None
        except asyncssh.PermissionDenied:
            who = host.user or os.environ.get("USER", "?")
            raise HostUnavailable("auth_failed", msg("ssh.auth_refused", host=host.name, user=who)) from None
        except TimeoutError:
            raise HostUnavailable(
                "unreachable", msg("ssh.no_answer", host=_where(host), seconds=f"{self.timeout:g}")
            ) from None
        except ConnectionRefusedError:
            raise HostUnavailable("unreachable", msg("ssh.refused", host=_where(host))) from None
        except asyncssh.ChannelOpenError as exc:
            raise HostUnavailable(
                "unreachable", msg("ssh.jump_refused", jump=via or "?", host=_where(host), reason=exc.reason)
            ) from None
        except socket.gaierror as exc:
            raise HostUnavailable(
                "unreachable", msg("ssh.dns", host=host.name, address=host.address, reason=str(exc.strerror))
            ) from None
        except (asyncssh.ConnectionLost, asyncssh.ProtocolError, asyncssh.KeyExchangeFailed, OSError) as exc:
            raise await self._broken_handshake(host, tunnel, known, shown_files, exc) from None
        except (asyncssh.Error, ValueError) as exc:
            raise HostUnavailable("error", msg("ssh.failed", host=host.name, reason=str(exc))) from None

    async def _broken_handshake(
        self,
        host: Host,
        tunnel: asyncssh.SSHClientConnection | None,
        known: asyncssh.SSHKnownHosts,
        files: str,
        exc: BaseException,
    ) -> HostUnavailable:
        """Why the handshake broke: not an SSH server, a CA-only known_hosts, else the error itself."""
        reason = (
            getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        )
        answer = await _first_line(host, tunnel)
        if answer is not None and not answer.startswith(b"SSH-"):
            return HostUnavailable(
                "unreachable", msg("ssh.not_ssh", host=_where(host), answer=_answer(answer))
            )
        port = None if host.port == 22 else host.port
        trusted, cas, *_ = asyncssh.match_known_hosts(known, host.address, host.address, port)
        if cas and not trusted:
            return HostUnavailable("host_key_mismatch", msg("ssh.ca_only", host=_where(host), files=files))
        if isinstance(exc, asyncssh.ConnectionLost):
            return HostUnavailable("unreachable", msg("ssh.lost", host=host.name, reason=reason))
        return HostUnavailable("unreachable", msg("ssh.os_error", host=_where(host), reason=reason))

    async def close(self) -> None:
        """Close shared jump connections."""
        for task in self._jumps.values():
            if task.done() and not task.cancelled() and task.exception() is None:
                await task.result().close()
            else:
                task.cancel()
        self._jumps.clear()

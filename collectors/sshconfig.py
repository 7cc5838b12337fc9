"""OpenSSH client configuration, resolved the way `ssh` resolves it (through asyncssh's own parser).

asyncssh's `SSHClientConfig` does the parsing: `Host` and `Match` (host, originalhost, user,
localuser, all, final, canonical), `Include` with globs, first value wins, `IdentityFile` and
`CertificateFile` accumulate, `%` tokens (`%d %h %p %r %u %n %C %L %l %i %%`) in IdentityFile and
ProxyCommand, `none`. This module adds what Pitstop needs on top:

- `Match exec` runs a local shell command. It is honoured only when the admin allows local
  commands (`PITSTOP_SSH_LOCAL_COMMANDS=1`); otherwise a block with any `exec` criterion (any
  case, negated, `exec=CMD`, beside other criteria, or several) is treated as not matching, no
  command runs, and the resolution carries a note saying so. `ProxyCommand` is likewise returned
  only as data; the transport refuses to run it unless allowed.
- A file (main or included) that group or others may write, or that belongs to neither the user nor
  root, is refused as `ssh` refuses it (BadFile).
- Where each value came from (`file:line`), for `pitstop inventory show`.
- The concrete `Host` aliases a config defines (patterns with `*`, `?` or `!` are never targets).

Values Pitstop's inventory sets are passed in as overrides, as `ssh -l USER -p PORT -o HostName=ADDR`
would: they win over the config, and `Match user`/`Match host` see them.
"""

from __future__ import annotations

import glob
import os
import shlex
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asyncssh.config import ConfigParseError, SSHClientConfig

from pitstop.core.config import local_user, trusted
from pitstop.core.errors import BadFile, UsageError
from pitstop.core.i18n import Msg, msg

USER_CONFIG = "~/.ssh/config"
SYSTEM_CONFIG = "/etc/ssh/ssh_config"
DEFAULT_USER_KNOWN_HOSTS = ("~/.ssh/known_hosts", "~/.ssh/known_hosts2")
DEFAULT_GLOBAL_KNOWN_HOSTS = ("/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2")
_WILDCARDS = set("*?!")
_MAX_INCLUDE_DEPTH = 16
_NO_PATTERN = frozenset({"all", "canonical", "final"})  # Match criteria that take no argument


@dataclass(frozen=True)
class Resolved:
    """What OpenSSH would use to reach one alias; `origins` maps a field to `file:line`."""

    alias: str
    hostname: str
    port: int
    user: str | None  # None: the local user
    identity_files: tuple[str, ...]  # empty: the agent and the default ~/.ssh/id_* keys
    proxy_jump: tuple[str, ...]  # hop specs, first hop first
    proxy_command: str | None
    user_known_hosts: tuple[str, ...]
    global_known_hosts: tuple[str, ...]
    origins: dict[str, str] = field(default_factory=dict)
    notes: tuple[Msg, ...] = ()  # what was skipped (Match exec)


class _Config(SSHClientConfig):
    """asyncssh's client config, recording where options came from and gating `Match exec`."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.allow_exec = False
        self.origins: dict[str, str] = {}
        self.notes: list[Msg] = []

    def parse(self, path: Path) -> None:
        """Read one file (the main one or an Include) once it is known to be safe to trust."""
        _check_trusted(path)
        super().parse(path)

    def _match(self, option: str, args: list[str]) -> None:
        if self.allow_exec:
            super()._match(option, args)
            return
        line = " ".join(args)
        rest, has_exec = self._without_exec(args)
        args.clear()
        if rest:
            super()._match(option, rest)
        else:
            self._matching = True
        if not has_exec:
            return
        if self._matching:
            self.notes.append(msg("ssh.match_exec_skipped", where=f"{self._path}:{self._line_no}", line=line))
        self._matching = False

    def _without_exec(self, args: list[str]) -> tuple[list[str], bool]:
        """The criteria of a `Match` line minus every `exec` one (any case, negated), and whether any was."""
        rest: list[str] = []
        has_exec = False
        at = 0
        while at < len(args):
            name = args[at].lower().removeprefix("!")
            width = 1 if name in _NO_PATTERN else 2
            if name == "exec":
                if at + 1 == len(args):
                    self._error("Missing exec match pattern")
                has_exec = True
            else:
                rest.extend(args[at : at + width])
            at += width
        return rest, has_exec


def _check_trusted(path: Path) -> None:
    """BadFile unless `path` belongs to the user or root and group and others may not write it (the
    rule `ssh` applies to its user config): a writer could add hosts or reroute them."""
    info = path.stat()
    if not trusted(info, (os.getuid(), 0)):
        mode = oct(stat.S_IMODE(info.st_mode))[2:]
        raise BadFile(msg("errors.sshconfig.unsafe", path=str(path), mode=mode, uid=info.st_uid))


def _tracked(handler: Callable) -> Callable:
    """Wrap an option handler to record `file:line` when it sets or extends the option."""

    def run(cfg: _Config, option: str, args: list[str]) -> None:
        before = cfg._options.get(option, _Config)
        before = list(before) if isinstance(before, list) else before
        handler(cfg, option, args)
        if cfg._options.get(option, _Config) != before:
            where = f"{cfg._path}:{cfg._line_no}"
            cfg.origins[option] = f"{cfg.origins[option]}, {where}" if option in cfg.origins else where

    return run


_Config._handlers = {
    key: (
        name,
        _Config._match if key == "match" else handler if key in ("host", "include") else _tracked(handler),
    )
    for key, (name, handler) in SSHClientConfig._handlers.items()
}


def _load(paths: tuple[Path, ...], alias: str, overrides: tuple, final: bool, allow_exec: bool) -> _Config:
    user, port, hostname = overrides
    cfg = _Config(None, False, False, final, local_user(), user or (), alias, port or ())
    cfg.allow_exec = allow_exec
    if hostname:
        cfg._options["Hostname"] = hostname
    for path in paths:
        cfg.parse(path)
    return cfg


@dataclass(frozen=True)
class SshConfig:
    """A set of ssh_config files read in order (like `ssh -F FILE`, or the user then system file)."""

    paths: tuple[Path, ...] = ()
    allow_local_commands: bool = False

    @classmethod
    def default(cls, allow_local_commands: bool = False) -> SshConfig:
        """`~/.ssh/config` then `/etc/ssh/ssh_config`, as `ssh` reads them without `-F`."""
        return cls.from_paths((USER_CONFIG, SYSTEM_CONFIG), allow_local_commands)

    @classmethod
    def from_paths(
        cls, paths: Iterable[str | os.PathLike[str]], allow_local_commands: bool = False
    ) -> SshConfig:
        """The files among `paths` that exist (a missing file is an empty config)."""
        found = tuple(p.absolute() for p in (Path(x).expanduser() for x in paths) if p.is_file())
        return cls(found, allow_local_commands)

    def resolve(
        self, alias: str, user: str | None = None, port: int | None = None, hostname: str | None = None
    ) -> Resolved:
        """Resolve `alias` as `ssh [-l user] [-p port] [-o HostName=hostname] alias` would."""
        overrides = (user, port, hostname)
        try:
            cfg = _load(self.paths, alias, overrides, False, self.allow_local_commands)
            if cfg.has_match_final():
                cfg = _load(self.paths, alias, overrides, True, self.allow_local_commands)
        except (ConfigParseError, OSError, ValueError) as exc:
            raise UsageError(msg("errors.sshconfig.unreadable", error=str(exc))) from None

        get = cfg.get
        jump = get("ProxyJump")
        command = get("ProxyCommand")
        origins = {k.lower(): v for k, v in cfg.origins.items()}
        return Resolved(
            alias=alias,
            hostname=str(get("Hostname") or alias),
            port=int(get("Port") or 22),  # type: ignore[call-overload]
            user=str(get("User")) if get("User") else None,
            identity_files=tuple(os.path.expanduser(p) for p in get("IdentityFile") or ()),  # type: ignore[attr-defined]
            proxy_jump=tuple(h.strip() for h in str(jump).split(",") if h.strip()) if jump else (),
            proxy_command=str(command) if command else None,
            user_known_hosts=_files(get("UserKnownHostsFile"), DEFAULT_USER_KNOWN_HOSTS),
            global_known_hosts=_files(get("GlobalKnownHostsFile"), DEFAULT_GLOBAL_KNOWN_HOSTS),
            origins=origins,
            notes=tuple(cfg.notes),
        )

    def concrete_hosts(self) -> tuple[str, ...]:
        """Every alias named on a `Host` line without wildcards or negation, Includes followed."""
        names: dict[str, None] = {}
        for path in self.paths:
            _scan(path, names, 0)
        return tuple(names)


def _files(value: object, default: tuple[str, ...]) -> tuple[str, ...]:
    items = default if value is None else value
    return tuple(os.path.expanduser(str(p)) for p in items)  # type: ignore[attr-defined]


def _scan(path: Path, names: dict[str, None], depth: int) -> None:
    if depth > _MAX_INCLUDE_DEPTH:
        return
    try:
        _check_trusted(path)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    for line in lines:
        try:
            words = shlex.split(line.replace("=", " ", 1), comments=True)
        except ValueError:
            continue
        if not words:
            continue
        key = words[0].lower()
        if key == "host":
            names.update((w, None) for w in words[1:] if not _WILDCARDS & set(w))
        elif key == "include":
            for pattern in words[1:]:
                full = os.path.expanduser(pattern)
                if not os.path.isabs(full):
                    full = os.path.join(os.path.expanduser("~/.ssh"), full)
                for match in sorted(glob.glob(full)):
                    _scan(Path(match), names, depth + 1)

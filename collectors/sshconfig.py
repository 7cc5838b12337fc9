"""The subset of OpenSSH `ssh_config` Pitstop honours: HostName, Port, User, IdentityFile, ProxyJump.

Semantics follow ssh_config(5): `Host` patterns with `*`, `?` and `!negation`; for each keyword
the first value found wins (IdentityFile accumulates). `Match` blocks are skipped and `Include`
is not followed.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

KEYWORDS = {
    "hostname": "hostname",
    "port": "port",
    "user": "user",
    "identityfile": "identity_files",
    "proxyjump": "proxy_jump",
}


@dataclass(frozen=True)
class SshConfigEntry:
    """What `ssh_config` says about one host alias (None where it says nothing)."""

    hostname: str | None = None
    port: int | None = None
    user: str | None = None
    identity_files: tuple[str, ...] = ()
    proxy_jump: str | None = None


@dataclass(frozen=True)
class _Block:
    patterns: tuple[str, ...]  # () for the global section and Match blocks that never apply
    options: tuple[tuple[str, str], ...]
    applies_always: bool = False


def _host_matches(patterns: tuple[str, ...], name: str) -> bool:
    positive = False
    for pat in patterns:
        if pat.startswith("!"):
            if fnmatch.fnmatchcase(name, pat[1:]):
                return False
        elif fnmatch.fnmatchcase(name, pat):
            positive = True
    return positive


_LINE = re.compile(r"^\s*([A-Za-z]+)(?:\s*=\s*|\s+)(.*)$")


def _split_line(line: str) -> tuple[str, list[str]] | None:
    m = _LINE.match(line)
    if not m or line.lstrip().startswith("#"):
        return None
    try:
        values = shlex.split(m.group(2), comments=True)
    except ValueError:
        values = m.group(2).split()
    return m.group(1).lower(), values


def parse(text: str) -> tuple[_Block, ...]:
    """Parse config text into blocks in file order."""
    blocks: list[_Block] = []
    patterns: tuple[str, ...] = ()
    always, options = True, []
    for raw in text.splitlines():
        parsed = _split_line(raw)
        if parsed is None:
            continue
        key, values = parsed
        if key in ("host", "match"):
            blocks.append(_Block(patterns, tuple(options), always))
            patterns = tuple(values) if key == "host" else ()
            always, options = False, []
        elif key in KEYWORDS and values:
            options.append((key, values[0]))
    blocks.append(_Block(patterns, tuple(options), always))
    return tuple(blocks)


def lookup(name: str, blocks: tuple[_Block, ...]) -> SshConfigEntry:
    """Resolve the options for host alias `name`; `%h` in HostName becomes the alias."""
    found: dict[str, str] = {}
    identities: list[str] = []
    for block in blocks:
        if not (block.applies_always or _host_matches(block.patterns, name)):
            continue
        for key, value in block.options:
            if key == "identityfile":
                identities.append(value)
            else:
                found.setdefault(key, value)
    port = found.get("port")
    return SshConfigEntry(
        hostname=found["hostname"].replace("%h", name) if "hostname" in found else None,
        port=int(port) if port and port.isdigit() else None,
        user=found.get("user"),
        identity_files=tuple(str(Path(p).expanduser()) for p in identities),
        proxy_jump=None if found.get("proxyjump", "none").lower() == "none" else found["proxyjump"],
    )


def load(path: str | Path | None = None) -> tuple[_Block, ...]:
    """Read `path` (default `~/.ssh/config`); a missing file is an empty config."""
    p = Path(path).expanduser() if path else Path.home() / ".ssh" / "config"
    try:
        return parse(p.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return ()

"""`/proc/mounts` (or `mount` output) -> mount entries with their options."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_MOUNT_CMD = re.compile(r"^(?P<src>\S+) on (?P<mnt>.+) type (?P<type>\S+) \((?P<opts>[^)]*)\)$")


@dataclass(frozen=True)
class Mount:
    """One mount; octal escapes (\\040) in /proc/mounts are decoded."""

    source: str
    mountpoint: str
    fstype: str
    options: tuple[str, ...]
    line: str


@dataclass(frozen=True)
class Mounts:
    """All entries."""

    mounts: tuple[Mount, ...] = ()

    def at(self, path: str) -> Mount | None:
        """The last mount on `path` (the one in effect)."""
        return next((m for m in reversed(self.mounts) if m.mountpoint == path), None)


def _unescape(value: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), value)


def parse(text: str) -> Mounts:
    """Accept both layouts line by line; unknown lines are skipped."""
    out = []
    for raw in clean_lines(text):
        line = raw.strip()
        if (m := _MOUNT_CMD.match(line)) is not None:
            out.append(
                Mount(
                    m.group("src"), m.group("mnt"), m.group("type"), tuple(m.group("opts").split(",")), line
                )
            )
            continue
        parts = line.split()
        if len(parts) >= 4 and (parts[1].startswith("/") or parts[1] == "none"):
            out.append(
                Mount(_unescape(parts[0]), _unescape(parts[1]), parts[2], tuple(parts[3].split(",")), line)
            )
    return Mounts(mounts=tuple(out))

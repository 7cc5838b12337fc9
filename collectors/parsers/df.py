"""`df -h` (or `df -P`) -> filesystems with size, use% and mount point (wrapped long names joined)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_ROW = re.compile(
    r"^(?P<src>\S+)\s+(?:(?P<type>[a-z][\w.]*)\s+)?(?P<size>\S+)\s+(?P<used>\S+)\s+(?P<avail>\S+)\s+(?P<pct>\d+%|-)\s+(?P<mount>/.*)$"
)
_NUMS = re.compile(
    r"^\s+(?:(?P<type>[a-z][\w.]*)\s+)?(?P<size>\S+)\s+(?P<used>\S+)\s+(?P<avail>\S+)\s+(?P<pct>\d+%|-)\s+(?P<mount>/.*)$"
)


@dataclass(frozen=True)
class Filesystem:
    """One mounted filesystem; `use_pct` None when df printed '-'."""

    source: str
    fstype: str | None
    size: str
    used: str
    avail: str
    use_pct: int | None
    mount: str
    line: str


@dataclass(frozen=True)
class DiskFree:
    """All rows."""

    filesystems: tuple[Filesystem, ...] = ()


def size_bytes(size: str) -> float | None:
    """ "5.0M" -> 5242880.0, "20G" -> ...; None for '-' or garbage. Plain numbers are 1K blocks."""
    match = re.fullmatch(r"([\d.]+)([KMGTPE]?)i?B?", size.strip())
    if not match:
        return None
    power = "KMGTPE".find(match.group(2)) + 1 if match.group(2) else 1
    return float(match.group(1)) * 1024**power


def parse(text: str) -> DiskFree:
    """Parse rows; a filesystem name alone on a line is joined with the numbers on the next."""
    rows = []
    pending: str | None = None
    for raw in clean_lines(text):
        if not raw.strip() or raw.startswith("Filesystem"):
            continue
        match = _ROW.match(raw)
        if match is None and pending is not None:
            match = _NUMS.match(raw)
            src, line = pending, f"{pending} {raw.strip()}"
        else:
            src, line = (match.group("src") if match else raw.strip()), raw.strip()
        if match is None:
            pending = raw.strip() if len(raw.split()) == 1 else None
            continue
        pending = None
        pct = match.group("pct")
        rows.append(
            Filesystem(
                source=src,
                fstype=match.group("type"),
                size=match.group("size"),
                used=match.group("used"),
                avail=match.group("avail"),
                use_pct=int(pct[:-1]) if pct.endswith("%") else None,
                mount=match.group("mount"),
                line=line,
            )
        )
    return DiskFree(filesystems=tuple(rows))

"""`lsblk` (tree view or `-P` key="value" pairs) -> block devices."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_TREE = re.compile(r"^[\s├└─│|`-]*")


@dataclass(frozen=True)
class BlockDevice:
    """One device; `size` as printed (human or bytes)."""

    name: str
    type: str | None
    size: str | None
    mountpoint: str | None
    rotational: bool | None
    model: str | None
    line: str


@dataclass(frozen=True)
class Lsblk:
    """All devices in output order."""

    devices: tuple[BlockDevice, ...] = ()


def parse(text: str) -> Lsblk:
    """Parse either layout; tree glyphs are stripped from names."""
    devices = []
    header: list[str] | None = None
    for raw in clean_lines(text):
        if not raw.strip():
            continue
        if 'NAME="' in raw:
            try:
                pairs = dict(token.split("=", 1) for token in shlex.split(raw) if "=" in token)
            except ValueError:
                continue
            devices.append(
                BlockDevice(
                    name=pairs.get("NAME", ""),
                    type=pairs.get("TYPE") or None,
                    size=pairs.get("SIZE") or None,
                    mountpoint=pairs.get("MOUNTPOINT") or None,
                    rotational={"1": True, "0": False}.get(pairs.get("ROTA", "")),
                    model=(pairs.get("MODEL") or "").strip() or None,
                    line=raw.strip(),
                )
            )
        elif raw.startswith("NAME"):
            header = raw.split()
        elif header:
            cells = _TREE.sub("", raw).split()
            row = dict(zip(header, cells, strict=False))
            mount = (
                " ".join(cells[len(header) - 1 :])
                if len(cells) >= len(header) and "MOUNTPOINT" in header[-1:]
                else None
            )
            devices.append(
                BlockDevice(
                    name=cells[0] if cells else "",
                    type=row.get("TYPE"),
                    size=row.get("SIZE"),
                    mountpoint=mount or None,
                    rotational=None,
                    model=None,
                    line=raw.rstrip(),
                )
            )
    return Lsblk(devices=tuple(devices))

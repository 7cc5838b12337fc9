"""`MegaCli64 -LDInfo -Lall -aALL` -> virtual drives' state and default/current cache policy."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines, split_kv


@dataclass(frozen=True)
class MegaVd:
    """One virtual drive; policies are "WriteBack" / "WriteThrough" (None when not printed)."""

    adapter: int | None
    vd: int
    state: str | None
    default_write: str | None
    current_write: str | None
    no_cache_if_bad_bbu: bool | None
    lines: tuple[str, ...]  # the cache policy lines
    state_line: str = ""


@dataclass(frozen=True)
class MegaCli:
    """All virtual drives."""

    vds: tuple[MegaVd, ...] = ()


def _write(policy: str) -> str | None:
    return next((w for w in ("WriteBack", "WriteThrough") if w.lower() in policy.lower()), None)


def parse(text: str) -> MegaCli:
    """Parse `Adapter N` / `Virtual Drive: N` blocks of `key: value` lines."""
    vds: list[dict[str, Any]] = []  # one row per record, filled field by field
    adapter = None
    for raw in clean_lines(text):
        line = raw.strip()
        if (m := re.match(r"^Adapter (\d+)", line)) is not None:
            adapter = int(m.group(1))
        elif (m := re.match(r"^Virtual (?:Drive|Disk):\s*(\d+)", line)) is not None:
            vds.append(
                {
                    "adapter": adapter,
                    "vd": int(m.group(1)),
                    "state": None,
                    "default_write": None,
                    "current_write": None,
                    "no_cache_if_bad_bbu": None,
                    "lines": [],
                    "state_line": "",
                }
            )
        elif vds and (kv := split_kv(line)) is not None:
            key, value = kv
            if key == "State":
                vds[-1]["state"], vds[-1]["state_line"] = value, line
            elif key in ("Default Cache Policy", "Current Cache Policy"):
                vds[-1]["default_write" if key.startswith("Default") else "current_write"] = _write(value)
                vds[-1]["no_cache_if_bad_bbu"] = "No Write Cache if Bad BBU" in value
                vds[-1]["lines"].append(line)
    return MegaCli(vds=tuple(MegaVd(**{**v, "lines": tuple(v["lines"])}) for v in vds))

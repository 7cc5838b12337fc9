"""`ibstat` (and the related `ibstatus` layout) -> HCAs and their ports' state, physical state, rate."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines, split_kv, to_float

_CA = re.compile(r"^CA '(?P<ca>[^']+)'")
_PORT = re.compile(r"^Port (?P<port>\d+):$")
_IBSTATUS = re.compile(r"^Infiniband device '(?P<ca>[^']+)' port (?P<port>\d+) status:")
_NAMES_PORT = re.compile(r"^\S*CA\b.*'|Infiniband device|^\S*\s*Port\s*\d+:?\s*$|^\d+:?\s+Port:?$", re.I)


@dataclass(frozen=True)
class IbPort:
    """One port; states as words: Active, Down, Initializing, Armed; Polling, LinkUp, Disabled."""

    ca: str
    port: int
    state: str | None
    physical_state: str | None
    rate_gbps: float | None
    link_layer: str | None
    firmware: str | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class IbStat:
    """All ports, plus `ibpanic` lines (ibstat failed part way)."""

    ports: tuple[IbPort, ...] = ()
    errors: tuple[str, ...] = ()
    stray: tuple[str, ...] = ()  # lines that name an HCA or a port but were not understood


def _word(value: str) -> str:
    """ "4: ACTIVE" -> "Active"; "5: LinkUp" -> "LinkUp"."""
    value = value.split(":", 1)[-1].strip()
    return value.capitalize() if value.isupper() else value


def parse(text: str) -> IbStat:
    """Parse both layouts; tolerant of tabs vs spaces."""
    ports: list[dict[str, Any]] = []  # one row per record, filled field by field
    errors = []
    ca = firmware = None
    stray = []
    for raw in clean_lines(text):
        line = raw.strip()
        if _NAMES_PORT.search(line) and not (_CA.match(line) or _PORT.match(line) or _IBSTATUS.match(line)):
            stray.append(line)
        if "ibpanic" in line or "ibwarn" in line:
            errors.append(line)
        elif (m := _CA.match(line)) is not None:
            ca, firmware = m.group("ca"), None
        elif (m := _PORT.match(line)) is not None and ca:
            ports.append(
                {
                    "ca": ca,
                    "port": int(m.group("port")),
                    "state": None,
                    "physical_state": None,
                    "rate_gbps": None,
                    "link_layer": None,
                    "firmware": firmware,
                    "lines": [],
                }
            )
        elif (m := _IBSTATUS.match(line)) is not None:
            ports.append(
                {
                    "ca": m.group("ca"),
                    "port": int(m.group("port")),
                    "state": None,
                    "physical_state": None,
                    "rate_gbps": None,
                    "link_layer": None,
                    "firmware": None,
                    "lines": [line],
                }
            )
        elif (kv := split_kv(line)) is not None:
            key, value = kv[0].lower(), kv[1]
            if key == "firmware version":
                firmware = value
            if not ports:
                continue
            field = {
                "state": "state",
                "physical state": "physical_state",
                "phys state": "physical_state",
                "rate": "rate_gbps",
                "link layer": "link_layer",
                "link_layer": "link_layer",
            }.get(key)
            if field:
                ports[-1][field] = to_float(value) if field == "rate_gbps" else _word(value)
                ports[-1]["lines"].append(line)
    return IbStat(
        ports=tuple(IbPort(**{**p, "lines": tuple(p["lines"])}) for p in ports),
        errors=tuple(errors),
        stray=tuple(stray),
    )

"""`ip -s link` (and the `ip -br addr|link` brief form) -> interfaces with state, MTU and error counters."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_HEAD = re.compile(r"^\d+:\s+(?P<name>[^:@\s]+)(?:@\S+)?:\s+<(?P<flags>[^>]*)>(?P<rest>.*)$")
_BRIEF = re.compile(r"^(?P<name>[^\s@]+)(?:@\S+)?\s+(?P<state>UP|DOWN|UNKNOWN|LOWERLAYERDOWN|DORMANT)\b")


@dataclass(frozen=True)
class Interface:
    """One interface; counters None when the output did not include statistics."""

    name: str
    state: str
    mtu: int | None
    rx_errors: int | None
    rx_dropped: int | None
    tx_errors: int | None
    tx_dropped: int | None
    line: str
    stats_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class IpLink:
    """All interfaces in output order."""

    interfaces: tuple[Interface, ...] = ()


def _counters(header: str, values: str) -> dict[str, int]:
    names = header.split(":", 1)[-1].split()
    numbers = values.split()
    return {n: int(v) for n, v in zip(names, numbers, strict=False) if v.isdigit()}


def parse(text: str) -> IpLink:
    """Parse either form; statistics lines follow their `RX:`/`TX:` headers."""
    out: list[dict[str, object]] = []
    lines = clean_lines(text)
    for i, line in enumerate(lines):
        if (m := _HEAD.match(line)) is not None:
            rest = m.group("rest")
            state = re.search(r"\bstate (\S+)", rest)
            mtu = re.search(r"\bmtu (\d+)", rest)
            out.append(
                {
                    "name": m.group("name"),
                    "state": state.group(1) if state else "UNKNOWN",
                    "mtu": int(mtu.group(1)) if mtu else None,
                    "rx_errors": None,
                    "rx_dropped": None,
                    "tx_errors": None,
                    "tx_dropped": None,
                    "line": line.strip(),
                    "stats_lines": (),
                }
            )
        elif out and line.strip().startswith(("RX:", "TX:")) and i + 1 < len(lines):
            counters = _counters(line, lines[i + 1])
            prefix = "rx" if line.strip().startswith("RX") else "tx"
            out[-1][f"{prefix}_errors"] = counters.get("errors")
            out[-1][f"{prefix}_dropped"] = counters.get("dropped")
            out[-1]["stats_lines"] = (*out[-1]["stats_lines"], line.strip(), lines[i + 1].strip())  # type: ignore[misc]
        elif (b := _BRIEF.match(line)) is not None:
            out.append(
                {
                    "name": b.group("name"),
                    "state": b.group("state"),
                    "mtu": None,
                    "rx_errors": None,
                    "rx_dropped": None,
                    "tx_errors": None,
                    "tx_dropped": None,
                    "line": line.strip(),
                }
            )
    return IpLink(interfaces=tuple(Interface(**o) for o in out))  # type: ignore[arg-type]

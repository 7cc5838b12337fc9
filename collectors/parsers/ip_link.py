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


def _interface(name: str, head: str, state: str | None = None) -> dict[str, object]:
    """A row before its counters: state and MTU read from the head text (`state UP`, `mtu 9000`)."""
    found = re.search(r"\bstate (\S+)", head)
    mtu = re.search(r"\bmtu (\d+)", head)
    return {
        "name": name,
        "state": state or (found.group(1) if found else "UNKNOWN"),
        "mtu": int(mtu.group(1)) if mtu else None,
        "rx_errors": None,
        "rx_dropped": None,
        "tx_errors": None,
        "tx_dropped": None,
        "line": head,
        "stats_lines": (),
    }


def parse(text: str) -> IpLink:
    """Parse either form; statistics lines follow their `RX:`/`TX:` headers.

    A head line wrapped by a narrow terminal goes on at column 0 (`state UP qlen 1000`): in the long
    form such a line right after a head belongs to it, never to a brief-form row of its own.
    """
    out: list[dict[str, object]] = []
    lines = clean_lines(text)
    long_form = head_open = False
    for i, line in enumerate(lines):
        if (m := _HEAD.match(line)) is not None:
            out.append(_interface(m.group("name"), line.strip()))
            long_form = head_open = True
        elif head_open and line.strip() and not line[:1].isspace():
            out[-1] = _interface(str(out[-1]["name"]), f"{out[-1]['line']} {line.strip()}")
        elif out and line.strip().startswith(("RX:", "TX:")) and i + 1 < len(lines):
            head_open = False
            counters = _counters(line, lines[i + 1])
            prefix = "rx" if line.strip().startswith("RX") else "tx"
            out[-1][f"{prefix}_errors"] = counters.get("errors")
            out[-1][f"{prefix}_dropped"] = counters.get("dropped")
            out[-1]["stats_lines"] = (*out[-1]["stats_lines"], line.strip(), lines[i + 1].strip())  # type: ignore[misc]
        elif not long_form and (b := _BRIEF.match(line)) is not None:
            out.append({**_interface(b.group("name"), line.strip(), b.group("state")), "mtu": None})
        else:
            head_open = head_open and not line[:1].isspace()
    return IpLink(interfaces=tuple(Interface(**o) for o in out))  # type: ignore[arg-type]

"""`numactl -H` -> NUMA nodes with their CPUs and memory, and the distance matrix."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_AVAILABLE = re.compile(r"^available:\s*(?P<n>\d+) nodes?")
_FIELD = re.compile(r"^node (?P<node>\d+) (?P<what>cpus|size|free):\s*(?P<val>.*)$")


@dataclass(frozen=True)
class NumaNode:
    """One node; memory None when not printed."""

    node: int
    cpus: tuple[int, ...]
    size_mb: int | None
    free_mb: int | None
    line: str


@dataclass(frozen=True)
class Numa:
    """`available` is the node count the tool printed (None when absent)."""

    available: int | None = None
    nodes: tuple[NumaNode, ...] = ()
    available_line: str = ""


_COUNT = re.compile(r"\(\d+\)")
_SEPARATORS = re.compile(r"[,\s]+")
_RANGE = re.compile(r"(\d+)-(\d+)")


def cpu_list(text: str) -> tuple[int, ...]:
    """ "0-3,8 9 (16)" -> (0, 1, 2, 3, 8, 9); ignores the `--cpu-compress` count in parentheses."""
    text = _COUNT.sub(" ", text)
    cpus: list[int] = []
    for part in _SEPARATORS.split(text.strip()):
        if (m := _RANGE.fullmatch(part)) is not None:
            cpus.extend(range(int(m.group(1)), int(m.group(2)) + 1))
        elif part.isdigit():
            cpus.append(int(part))
    return tuple(cpus)


def parse(text: str) -> Numa:
    """Parse the node lines; the distance matrix is not needed by any check."""
    available = None
    available_line = ""
    nodes: dict[int, dict[str, object]] = {}
    for raw in clean_lines(text):
        line = raw.strip()
        if (m := _AVAILABLE.match(line)) is not None:
            available, available_line = int(m.group("n")), line
        elif (m := _FIELD.match(line)) is not None:
            node = nodes.setdefault(
                int(m.group("node")),
                {"node": int(m.group("node")), "cpus": (), "size_mb": None, "free_mb": None, "line": ""},
            )
            if m.group("what") == "cpus":
                node["cpus"], node["line"] = cpu_list(m.group("val")), line
            else:
                size = re.match(r"(\d+)\s*MB", m.group("val"))
                node[f"{m.group('what')}_mb"] = int(size.group(1)) if size else None
    return Numa(
        available=available,
        nodes=tuple(NumaNode(**n) for n in nodes.values()),  # type: ignore[arg-type]
        available_line=available_line,
    )

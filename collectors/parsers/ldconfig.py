"""`ldconfig -p` -> the loader cache: library names and paths."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_HEADER = re.compile(r"^(?P<n>\d+) libs found in cache")
_ENTRY = re.compile(r"^(?P<name>\S+)\s+\((?P<arch>[^)]*)\)\s+=>\s+(?P<path>/\S+)$")


@dataclass(frozen=True)
class LibEntry:
    """One cached library."""

    name: str
    path: str
    line: str


@dataclass(frozen=True)
class LoaderCache:
    """Entries; `header` is the `N libs found in cache` line (None: not ldconfig output)."""

    entries: tuple[LibEntry, ...] = ()
    header: str | None = None

    def named(self, prefix: str) -> tuple[LibEntry, ...]:
        """Entries whose name starts with `prefix`."""
        return tuple(e for e in self.entries if e.name.startswith(prefix))


def parse(text: str) -> LoaderCache:
    """The header line, then one entry per line."""
    header = None
    entries = []
    for raw in clean_lines(text):
        line = raw.strip()
        if header is None and _HEADER.match(line):
            header = line
        elif (m := _ENTRY.match(line)) is not None:
            entries.append(LibEntry(m.group("name"), m.group("path"), line))
    return LoaderCache(tuple(entries), header)

"""`stat -L -c '%A %a %U %G %F %n' /dev/shm` -> the directory's mode and owner."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_LINE = re.compile(
    r"^(?P<symbolic>[dlrwxstST-]{10})\s+(?P<octal>[0-7]{3,4})\s+(?P<user>\S+)\s+(?P<group>\S+)\s+"
    r"(?P<kind>.+?)\s+(?P<path>/\S+)$"
)


@dataclass(frozen=True)
class PathMode:
    """Mode as octal text ("1777"), owner, file type; None fields when the line is not understood."""

    octal: str | None = None
    symbolic: str | None = None
    user: str | None = None
    kind: str | None = None
    path: str | None = None
    line: str = ""


def parse(text: str) -> PathMode:
    """The one line the format prints."""
    for raw in clean_lines(text):
        if (m := _LINE.match(raw.strip())) is not None:
            return PathMode(
                m.group("octal").rjust(4, "0"),
                m.group("symbolic"),
                m.group("user"),
                m.group("kind"),
                m.group("path"),
                raw.strip(),
            )
    return PathMode()

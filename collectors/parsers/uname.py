"""`uname -a` -> kernel name, host, release, machine."""

from __future__ import annotations

from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class Uname:
    """Fields None when the line is absent."""

    kernel: str | None = None
    hostname: str | None = None
    release: str | None = None
    machine: str | None = None
    line: str = ""


def parse(text: str) -> Uname:
    """Split the single line; the machine is the last-but-one word before `GNU/Linux` when present."""
    line = next((part.strip() for part in clean_lines(text) if part.strip()), "")
    words = line.split()
    if len(words) < 3:
        return Uname(line=line)
    machine = words[-2] if words[-1] == "GNU/Linux" and len(words) > 4 else words[-1]
    return Uname(kernel=words[0], hostname=words[1], release=words[2], machine=machine, line=line)

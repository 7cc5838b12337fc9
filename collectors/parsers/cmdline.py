"""`/proc/cmdline` -> kernel parameters."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class Cmdline:
    """Parameters in order; `params` maps a name to its value (True for a bare flag; the last one wins)."""

    line: str = ""
    params: dict[str, str | bool] = field(default_factory=dict)


def parse(text: str) -> Cmdline:
    """Split like the kernel does (quotes group a value)."""
    line = " ".join(part.strip() for part in clean_lines(text) if part.strip())
    try:
        tokens = shlex.split(line)
    except ValueError:
        tokens = line.split()
    params: dict[str, str | bool] = {}
    for token in tokens:
        name, eq, value = token.partition("=")
        params[name] = value if eq else True
    return Cmdline(line=line, params=params)

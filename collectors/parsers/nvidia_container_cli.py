"""`nvidia-container-cli --version` -> the libnvidia-container version GPU containers are set up with."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_FIELD = re.compile(r"^(?P<key>lib-version|cli-version|version):\s*(?P<value>\S+)")


@dataclass(frozen=True)
class ContainerCliVersion:
    """The library's version (`lib-version:`, or `version:` before 1.10), None when absent."""

    version: str | None = None
    line: str = ""


def parse(text: str) -> ContainerCliVersion:
    """Prefer `lib-version:` (the library itself), else `version:`, else `cli-version:`."""
    found: dict[str, tuple[str, str]] = {}
    for raw in clean_lines(text):
        line = raw.strip()
        if (m := _FIELD.match(line)) is not None:
            found.setdefault(m.group("key"), (m.group("value"), line))
    for key in ("lib-version", "version", "cli-version"):
        if key in found:
            return ContainerCliVersion(*found[key])
    return ContainerCliVersion()

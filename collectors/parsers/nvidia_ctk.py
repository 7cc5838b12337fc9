"""`nvidia-ctk --version` (and `nvidia-container-runtime --version`) -> toolkit version."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class CtkVersion:
    """The toolkit tool and version (None when absent), plus the wrapped runc version when printed."""

    tool: str | None = None
    version: str | None = None
    runc_version: str | None = None
    line: str = ""


def parse(text: str) -> CtkVersion:
    """Find the `NVIDIA Container ... version X` line."""
    tool = version = runc = None
    found = ""
    for raw in clean_lines(text):
        line = raw.strip()
        if (
            m := re.match(r"^(NVIDIA Container [\w ]+?) version (\S+)", line)
        ) is not None and version is None:
            tool, version, found = m.group(1), m.group(2), line
        elif (m := re.match(r"^runc version (\S+)", line)) is not None:
            runc = m.group(1)
    return CtkVersion(tool=tool, version=version, runc_version=runc, line=found)

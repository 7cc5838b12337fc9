"""`/proc/driver/nvidia/version` -> the loaded kernel module's version."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_NVRM = re.compile(r"NVRM version:.*?Kernel Module(?: for \S+)?\s+(?P<version>\d+\.\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class DriverVersion:
    """The kernel module version (None when the file did not say), open vs proprietary, and the GCC line."""

    version: str | None = None
    open_module: bool | None = None
    gcc: str | None = None
    line: str = ""

    @property
    def branch(self) -> int | None:
        """The major branch, e.g. 535."""
        return int(self.version.split(".")[0]) if self.version else None


def parse(text: str) -> DriverVersion:
    """Parse the two lines; tolerant of double spaces and localized build dates."""
    version = gcc = None
    open_module = None
    nvrm_line = ""
    for line in clean_lines(text):
        if (m := _NVRM.search(line)) is not None:
            version, nvrm_line = m.group("version"), line.strip()
            open_module = "Open Kernel Module" in line
        elif line.startswith("GCC version:"):
            gcc = line.partition(":")[2].strip() or None
    return DriverVersion(version=version, open_module=open_module, gcc=gcc, line=nvrm_line)

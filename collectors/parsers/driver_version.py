"""`/proc/driver/nvidia/version` -> the loaded kernel module's version.

On Jetson (Tegra, L4T) the module prints the L4T release where a driver version would be
(`Open Kernel Module for aarch64  35.3.1  Release Build  (buildbrain@...)`): that number is kept
apart (`l4t_release`), never taken for driver branch 35.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

L4T_BELOW = 100  # every desktop/datacenter driver branch is >= 100 (e.g. 470, 535); L4T releases are < 100
_NVRM = re.compile(r"NVRM version:.*?Kernel Module(?: for \S+)?\s+(?P<version>\d+\.\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class DriverVersion:
    """The kernel module version (None when the file did not say or printed an L4T release), open vs
    proprietary, and the GCC line."""

    version: str | None = None
    open_module: bool | None = None
    gcc: str | None = None
    line: str = ""
    l4t_release: str | None = None  # Jetson: the L4T release the module printed instead of a version

    @property
    def branch(self) -> int | None:
        """The major branch, e.g. 535."""
        return int(self.version.split(".")[0]) if self.version else None


def parse(text: str) -> DriverVersion:
    """Parse the two lines; tolerant of double spaces and localized build dates."""
    version = gcc = l4t = None
    open_module = None
    nvrm_line = ""
    for line in clean_lines(text):
        if (m := _NVRM.search(line)) is not None:
            version, nvrm_line = m.group("version"), line.strip()
            open_module = "Open Kernel Module" in line
            if int(version.split(".")[0]) < L4T_BELOW:
                version, l4t = None, version
        elif line.startswith("GCC version:"):
            gcc = line.partition(":")[2].strip() or None
    return DriverVersion(version=version, open_module=open_module, gcc=gcc, line=nvrm_line, l4t_release=l4t)

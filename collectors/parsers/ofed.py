"""`ofed_info -s` -> the MLNX_OFED / DOCA-OFED release; `/sys/module/mlx5_core/version` -> the module's."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_OFED = re.compile(
    r"^(?P<flavour>MLNX_OFED_LINUX|OFED-internal|DOCA[\w-]*OFED[\w-]*|OFED)-(?P<version>\d[\w.-]*?):?$"
)
_MODULE = re.compile(r"^(?P<version>\d+\.\d+[\w.-]*)$")


@dataclass(frozen=True)
class Release:
    """A version string and its line (None when the output is not understood)."""

    version: str | None = None
    flavour: str | None = None
    line: str = ""

    @property
    def base(self) -> tuple[int, ...] | None:
        """The first three numbers ("5.0-2.1.8.0" -> (5, 0, 2)), what OFED and its modules share."""
        if self.version is None:
            return None
        parts = re.findall(r"\d+", self.version)
        return tuple(int(p) for p in parts[:3]) if len(parts) >= 3 else None


def parse_ofed(text: str) -> Release:
    """`MLNX_OFED_LINUX-5.0-2.1.8.0:` (the trailing colon is printed by ofed_info -s)."""
    for raw in clean_lines(text):
        if (m := _OFED.match(raw.strip())) is not None:
            return Release(m.group("version"), m.group("flavour"), raw.strip())
    return Release()


def parse_module(text: str) -> Release:
    """One version line, e.g. `5.0-2.1.8`."""
    lines = [line.strip() for line in clean_lines(text) if line.strip()]
    if len(lines) == 1 and (m := _MODULE.match(lines[0])) is not None:
        return Release(m.group("version"), "module", lines[0])
    return Release()

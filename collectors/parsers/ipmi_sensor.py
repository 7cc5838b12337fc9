"""`ipmitool sensor` -> readings with unit and status (ok, nc, cr, nr, na).

Discrete sensors (`Power Supply 1 | 0x0 | discrete | 0x0180|`) print a state word, not a reading and
not a threshold status: they keep neither (`discrete`), so no check reads `0x0` as 0 or `0x0180` as ok.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines, to_float

_HEX = re.compile(r"0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class Sensor:
    """One row; `value` None for 'na' (absent sensor) and for a discrete sensor's state word."""

    name: str
    value: float | None
    unit: str | None
    status: str | None
    line: str
    discrete: bool = False

    @property
    def readable(self) -> bool:
        """A threshold sensor with both a reading and a status (only those can be judged)."""
        return self.value is not None and self.status is not None

    @property
    def alarming(self) -> bool:
        """Status is non-critical, critical or non-recoverable."""
        return (self.status or "").lower() in ("nc", "cr", "nr", "lnc", "lcr", "lnr", "unc", "ucr", "unr")


@dataclass(frozen=True)
class Sensors:
    """All rows."""

    sensors: tuple[Sensor, ...] = ()


def parse(text: str) -> Sensors:
    """Split `|` rows: name | value | unit | status | thresholds..."""
    out = []
    for raw in clean_lines(text):
        cells = [c.strip() for c in raw.split("|")]
        if len(cells) < 4 or not cells[0]:
            continue
        value, unit, status = cells[1], cells[2], cells[3]
        discrete = unit.lower() == "discrete" or bool(_HEX.fullmatch(value) or _HEX.fullmatch(status))
        out.append(
            Sensor(
                name=cells[0],
                value=None if discrete else to_float(value),
                unit=unit or None,
                status=None if discrete or status.lower() in ("", "na") else status,
                line=raw.strip(),
                discrete=discrete,
            )
        )
    return Sensors(sensors=tuple(out))

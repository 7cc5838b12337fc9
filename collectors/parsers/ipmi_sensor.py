"""`ipmitool sensor` -> readings with unit and status (ok, nc, cr, nr, na)."""

from __future__ import annotations

from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines, to_float


@dataclass(frozen=True)
class Sensor:
    """One row; `value` None for 'na' (absent sensor)."""

    name: str
    value: float | None
    unit: str | None
    status: str | None
    line: str

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
        status = cells[3] or None
        out.append(
            Sensor(
                name=cells[0],
                value=to_float(cells[1]) if cells[1].lower() != "na" else None,
                unit=cells[2] or None,
                status=None if status in (None, "na") else status,
                line=raw.strip(),
            )
        )
    return Sensors(sensors=tuple(out))

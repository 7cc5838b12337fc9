"""`ipmitool sel elist|list` (and FreeIPMI `ipmi-sel`) -> timed BMC events."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from pitstop.collectors.parsers._text import clean_lines

# ipmitool up to 1.8.18 and FreeIPMI; ipmitool 1.8.19 prints strftime's %x (09/27/19 in the C locale,
# "Mon 21 Dec 2020" in some) and '%X %Z' ("10:00:00 UTC", "12:40:49 PM PST")
_DATE_FORMATS = ("%m/%d/%Y", "%m/%d/%y", "%b-%d-%Y", "%Y-%m-%d", "%a %d %b %Y")
_HOUR = {False: "%H:%M:%S", True: "%I:%M:%S %p"}
_CLOCK = re.compile(r"(?P<hms>\d{1,2}:\d{2}:\d{2})(?: ?(?P<half>[AP]M))?(?: [A-Za-z+-][\w+-]*)?", re.I)


@dataclass(frozen=True)
class SelEvent:
    """One SEL record; `time` None when the BMC clock printed nothing usable (Pre-Init, garbage)."""

    record: str
    time: datetime | None
    sensor: str
    event: str
    direction: str | None  # Asserted | Deasserted
    line: str


@dataclass(frozen=True)
class Sel:
    """All records in output order (BMC clocks may go backwards: do not assume sorted); `recognized`
    when the output is empty or reads as a SEL listing (other lines no more than its records)."""

    events: tuple[SelEvent, ...] = ()
    recognized: bool = True


def _time(date: str, clock: str) -> datetime | None:
    """The record's time; a zone word is dropped (times are taken as UTC, like naive kernel-log times)."""
    found = _CLOCK.fullmatch(clock)
    if found is None:
        return None
    half = found.group("half")
    hms = f"{found.group('hms')} {half}" if half else found.group("hms")
    try:
        at = datetime.strptime(hms, _HOUR[bool(half)])
    except ValueError:  # 25:61:00, 13:00:00 PM
        return None
    for fmt in _DATE_FORMATS:
        try:
            day = datetime.strptime(date, fmt)
        except ValueError:
            continue
        return datetime.combine(day.date(), at.time(), UTC)
    return None


def parse(text: str) -> Sel:
    """Split `|` rows (ipmitool: id|date|time|sensor|event[|dir]; FreeIPMI adds type and state)."""
    events = []
    other = 0  # lines that are neither a record, the FreeIPMI header nor ipmitool's empty-SEL note
    for raw in clean_lines(text):
        cells = [c.strip() for c in raw.split("|")]
        if len(cells) < 5 or cells[0].upper() == "ID" or not re.fullmatch(r"[0-9a-fA-F]+", cells[0]):
            header = len(cells) >= 5 and cells[0].upper() == "ID"
            if raw.strip() and not header and raw.strip() != "SEL has no entries":
                other += 1
            continue
        ipmitool_direction = len(cells) > 5 and cells[5].lower() in ("asserted", "deasserted")
        # FreeIPMI: ID | Date | Time | Name | Type | State | Event
        if len(cells) >= 7 and not ipmitool_direction:
            sensor, event, direction = f"{cells[4]} {cells[3]}", f"{cells[6]} ({cells[5]})", None
        else:  # ipmitool elist: ID | Date | Time | Sensor | Event | Direction [| Reading]
            sensor, event = cells[3], cells[4]
            direction = cells[5] if len(cells) > 5 and cells[5] else None
        events.append(
            SelEvent(
                record=cells[0],
                time=_time(cells[1], cells[2]),
                sensor=sensor,
                event=event,
                direction=direction,
                line=raw.strip(),
            )
        )
    return Sel(events=tuple(events), recognized=len(events) >= other)

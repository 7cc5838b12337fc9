"""Scenario dates follow the clock: at `lab up` a scenario's timestamps all move by one offset, so that
its newest lies `LEAD` before the lab's start and every time window sees the same events on any date.

The shapes moved are `FORMATS` (docs/LAB.md, "Dates"); anything else (BIOS and kernel build dates,
RAID creation dates, `[  12.3]` seconds since boot) stays as written. Syslog stamps carry no year: they
are read in the year that puts them nearest the scenario's newest dated stamp.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

LEAD = timedelta(minutes=5)
_WEEKDAY = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_CLOCK = r"\d{2}:\d{2}:\d{2}"


@dataclass(frozen=True)
class StampFormat:
    """One timestamp shape: the text it matches, how it is read (strptime) and written (strftime)."""

    name: str
    pattern: str
    read: str
    write: str = ""  # default: as read
    has_year: bool = True


FORMATS = (
    StampFormat("iso", rf"(?<![\d-])\d{{4}}-\d{{2}}-\d{{2}}T{_CLOCK}", "%Y-%m-%dT%H:%M:%S"),
    StampFormat("systemd", rf"\b{_WEEKDAY} \d{{4}}-\d{{2}}-\d{{2}} {_CLOCK}", "%a %Y-%m-%d %H:%M:%S"),
    StampFormat("sel", rf"\b\d{{2}}/\d{{2}}/\d{{4}} \| {_CLOCK}", "%m/%d/%Y | %H:%M:%S"),
    StampFormat(
        "ctime",
        rf"\b{_WEEKDAY} {_MONTH} [ \d]\d {_CLOCK} \d{{4}}\b",
        "%a %b %d %H:%M:%S %Y",
        "%a %b %e %H:%M:%S %Y",
    ),
    StampFormat(
        "syslog", rf"^{_MONTH} [ \d]\d {_CLOCK}\b", "%Y %b %d %H:%M:%S", "%b %e %H:%M:%S", has_year=False
    ),
)
# the lookahead (what any stamp starts with) rejects most positions at once: 5x faster on scenario files
_STAMP = re.compile(
    r"(?=[\dJFMASONDTW])(?:" + "|".join(f"(?P<{f.name}>{f.pattern})" for f in FORMATS) + ")", re.MULTILINE
)
_BY_NAME = {f.name: f for f in FORMATS}


def _stamps(text: str) -> Iterable[tuple[StampFormat, re.Match[str]]]:
    for match in _STAMP.finditer(text):
        yield _BY_NAME[match.lastgroup or ""], match


def _read(fmt: StampFormat, raw: str, near: datetime) -> datetime | None:
    """The stamp as a naive UTC datetime (a year-less one in the year nearest `near`); None if no date."""
    if fmt.has_year:
        try:
            return datetime.strptime(raw, fmt.read)
        except ValueError:
            return None
    candidates = []
    for year in (near.year - 1, near.year, near.year + 1):
        try:
            candidates.append(datetime.strptime(f"{year} {raw}", fmt.read))
        except ValueError:  # Feb 29 outside a leap year
            continue
    return min(candidates, key=lambda when: abs(when - near), default=None)


@dataclass(frozen=True)
class Shift:
    """How one scenario's stamps move: by `delta`; year-less stamps are read near `reference`."""

    reference: datetime
    delta: timedelta

    def apply(self, text: str) -> str:
        """`text` with every stamp of FORMATS moved by `delta`, written in its own shape."""

        def move(match: re.Match[str]) -> str:
            fmt = _BY_NAME[match.lastgroup or ""]
            when = _read(fmt, match.group(), self.reference)
            return match.group() if when is None else (when + self.delta).strftime(fmt.write or fmt.read)

        return _STAMP.sub(move, text) if self.delta else text


def plan(texts: Iterable[str], now: datetime) -> Shift:
    """The shift that puts the newest stamp found in `texts` LEAD before `now` (no stamps: no shift)."""
    texts = list(texts)
    now = now.astimezone(UTC).replace(tzinfo=None, microsecond=0)
    found = [(fmt, m.group()) for text in texts for fmt, m in _stamps(text)]
    dated = [w for fmt, raw in found if fmt.has_year and (w := _read(fmt, raw, now)) is not None]
    reference = max(dated, default=now)
    times = [w for fmt, raw in found if (w := _read(fmt, raw, reference)) is not None]
    if not times:
        return Shift(reference, timedelta(0))
    return Shift(reference, now - LEAD - max(times))

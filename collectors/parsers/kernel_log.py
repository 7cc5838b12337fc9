"""Kernel log lines (`journalctl -k`, `dmesg` in any time format, syslog greps) -> timed events.

Formats seen in real captures: ISO (`journalctl -o short-iso`, `dmesg --time-format iso`, with or
without `--decode` facility prefixes), ctime (`dmesg -T`), relative (`dmesg --reltime`), monotonic
seconds since boot (`[  12.345]`), syslog (`Feb 17 08:02:06 host kernel:` with localized month names),
raw /dev/kmsg records (`6,1234,5678901,-;NVRM: Xid ...`, microseconds since boot), `dmesg -r` and
pstore lines with the printk level (`<6>[  2.608284] ...`) and none. Naive
times are taken as UTC; a syslog line has no year, so the caller passes `now`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pitstop.collectors.parsers._text import clean_lines
from pitstop.collectors.parsers.gpu import short_bus_id

_MONTHS = {
    **{
        m: i
        for i, m in enumerate(
            ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
        )
    },
    **{
        m: i
        for i, m in enumerate(
            ("янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"), 1
        )
    },
    "мая": 5,
    "mär": 3,
    "mrz": 3,
    "mai": 5,
    "okt": 10,
    "dez": 12,
    "janv": 1,
    "févr": 2,
    "fév": 2,
    "mars": 3,
    "avr": 4,
    "juin": 6,
    "juil": 7,
    "août": 8,
    "sept": 9,
    "déc": 12,
    "ene": 1,
    "abr": 4,
    "ago": 8,
    "dic": 12,
    "gen": 1,
    "mag": 5,
    "giu": 6,
    "lug": 7,
    "set": 9,
    "ott": 10,
}
_DECODE = re.compile(
    r"^(?:kern|user|mail|daemon|auth|syslog|lpr|news|uucp|cron|authpriv|ftp|local\d)\s*:\s*\w+\s*:\s?"
)
_ISO = re.compile(
    r"^(?P<ts>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(?P<rest>.*)$"
)
_CTIME = re.compile(r"^\[(?P<ts>\w{3} \w{3}\s+\d{1,2} \d{2}:\d{2}:\d{2} \d{4})\]\s?(?P<rest>.*)$")
_LEVEL = re.compile(r"^<\d{1,3}>(?=\[)")  # `dmesg -r`, pstore dumps: printk level before the uptime
_KMSG = re.compile(r"^\d+,\d+,(?P<usec>\d+),[^;]*;(?P<rest>.*)$")  # /dev/kmsg: prio,seq,usec,flags;msg
_REL = re.compile(r"^\[\s*\+\s*(?P<rel>\d+\.\d+)\]\s?(?P<rest>.*)$")
_MONO = re.compile(r"^\[\s*(?P<mono>\d+\.\d+)\]\s?(?P<rest>.*)$")
_SYSLOG = re.compile(
    r"^(?P<mon>[^\d\s]{2,6}\.?|\d{1,2}月)\s+(?P<day>\d{1,2})\s+(?P<t>\d{2}:\d{2}:\d{2})(?:\.(?P<frac>\d{1,6}))?\s+(?P<rest>.*)$"
)
_IDENT = re.compile(r"^(?:(?P<host>\S+)\s+)?(?P<ident>kernel|[\w.@-]+\[\d+\]):\s?")
# On a MIG GPU the driver adds the instances: `Xid (PCI:0000:01:00 GPU-I:05 GPU-CI:00): 94, ...`
_XID = re.compile(r"\bXid \((?:PCI:)?(?P<pci>[0-9a-fA-F:.]+)(?: GPU-C?I:\d+)*\): (?P<xid>\d+)\b")
_SXID = re.compile(r"\bSXid \((?:PCI:)?(?P<pci>[0-9a-fA-F:.]+)\): (?P<xid>\d+)\b")
_BOOT_BANNER = re.compile(r"^(?:Linux version \d|Booting Linux on physical CPU|Command line: )")
_PCI = re.compile(r"\b(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\b")


@dataclass(frozen=True)
class KernelEvent:
    """One logical message (continuation lines joined), with whatever time the format carried."""

    message: str
    lines: tuple[str, ...]
    time: datetime | None = None  # wall clock (UTC when the line had no zone)
    uptime_s: float | None = None  # seconds since boot, for `[  12.3]` lines and /dev/kmsg records
    xid: int | None = None
    sxid: int | None = None
    pci: str | None = None  # short bus id "bb:dd" ("dddd:bb:dd" outside domain 0)
    time_format: str = "none"
    framed: bool = False  # the line carried a kernel-log prefix (a time format or `kernel:`)

    @property
    def line(self) -> str:
        """The first output line (what a person would grep)."""
        return self.lines[0]


_API_MISMATCH = re.compile(
    r"API mismatch: the client (?:'[^']*' \(pid \d+\) )?has the version (?P<client>\d[\w.-]*?),? but "
    r"this kernel module has the version (?P<module>\d[\w.-]*?)\.?\s"
)


@dataclass(frozen=True)
class ApiMismatch:
    """One NVRM API mismatch: user-space (client) and kernel module versions, and its lines."""

    client: str
    module: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class KernelLog:
    """All events in output order."""

    events: tuple[KernelEvent, ...] = ()

    def xids(self) -> tuple[KernelEvent, ...]:
        """Events that carry an Xid."""
        return tuple(e for e in self.events if e.xid is not None)

    def api_mismatches(self) -> tuple[ApiMismatch, ...]:
        """NVRM "API mismatch" messages: the user-space client's version against the loaded module's.

        The message spans lines that may be joined (indented), repeat the timestamp, or be escaped
        (rsyslog `#012`); each event is read together with the next two."""
        found = []
        for i, event in enumerate(self.events):
            if "API mismatch" not in event.message:
                continue
            window = self.events[i : i + 3]
            text = " ".join(re.sub(r"#012|NVRM:", " ", e.message) for e in window)
            if (m := _API_MISMATCH.search(" ".join(text.split()))) is not None:
                lines = tuple(line for e in window for line in e.lines)
                found.append(ApiMismatch(m.group("client"), m.group("module"), lines))
        return tuple(found)

    @functools.cached_property
    def from_boot(self) -> bool | None:
        """Whether the log reaches back to boot: True with the kernel's banner (`Linux version`, arm64's
        `Booting Linux on physical CPU`, `Command line:`) among its first lines or a first line under a
        second of uptime; False when its first line is later into the boot (the ring buffer `dmesg`
        reads is finite: a busy host overwrites the boot's first messages); None when it cannot tell
        (wall-clock times without the banner)."""
        if any(_BOOT_BANNER.match(e.message) for e in self.events[:50]):
            return True
        first = self.events[0].uptime_s if self.events else None
        return None if first is None else first < 1.0

    @functools.cached_property
    def recognized(self) -> bool:
        """Whether this reads as a kernel log: most lines carry a kernel-log prefix. Only a recognized
        log can show that something is absent; bare message text can still show what is present.
        (Asked by every log check of a host: counted once.)"""
        framed = sum(1 for e in self.events if e.framed)
        return bool(self.events) and framed * 2 >= len(self.events)


def month_number(token: str) -> int | None:
    """Month from an English or localized abbreviation ("Feb", "фев", "11月", "févr.")."""
    token = token.strip().rstrip(".").lower()
    if token.endswith("月") and token[:-1].isdigit():
        return int(token[:-1])
    return _MONTHS.get(token) or _MONTHS.get(token[:3])


def _iso(ts: str) -> datetime | None:
    try:  # Python 3.11 reads "+0000", "Z" and ",123456" itself
        parsed = datetime.fromisoformat(ts)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _syslog_time(
    mon: str, day: str, clock: str, now: datetime | None, frac: str | None = None
) -> datetime | None:
    """A syslog time in `now`'s year; `frac` is short-precise's fraction of a second (up to 6 digits)."""
    month = month_number(mon)
    if month is None or now is None:
        return None
    try:
        stamp = datetime(now.year, month, int(day), *map(int, clock.split(":")), tzinfo=UTC)  # type: ignore[misc,arg-type]
    except ValueError:
        return None
    if frac:
        stamp = stamp.replace(microsecond=int(frac.ljust(6, "0")))
    ref = now if now.tzinfo else now.replace(tzinfo=UTC)
    return stamp.replace(year=now.year - 1) if stamp > ref else stamp  # syslog has no year


def _split(line: str, now: datetime | None) -> tuple[str, dict[str, object]]:
    """Strip prefixes from one line; returns the message and what the prefix told."""
    info: dict[str, Any] = {}
    line = _LEVEL.sub("", _DECODE.sub("", line))
    if (m := _KMSG.match(line)) is not None:
        info.update(uptime_s=int(m.group("usec")) / 1e6, time_format="kmsg")
        line = m.group("rest")
    elif (m := _ISO.match(line)) is not None:
        info.update(time=_iso(m.group("ts")), time_format="iso")
        line = m.group("rest")
    elif (m := _CTIME.match(line)) is not None:
        try:
            info["time"] = datetime.strptime(m.group("ts"), "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC)
        except ValueError:
            info["time"] = None
        info["time_format"] = "ctime"
        line = m.group("rest")
    elif (m := _SYSLOG.match(line)) is not None and month_number(m.group("mon")) is not None:
        info.update(
            time=_syslog_time(m.group("mon"), m.group("day"), m.group("t"), now, m.group("frac")),
            time_format="syslog",
        )
        line = m.group("rest")
    if (m := _IDENT.match(line)) is not None:
        info["framed"] = info.get("framed") or m.group("ident") == "kernel" or "time_format" in info
        line = _IDENT.sub("", line, count=1)
    if (m := _REL.match(line)) is not None:
        info.setdefault("time_format", "reltime")
        line = m.group("rest")
    elif (m := _MONO.match(line)) is not None:
        info["uptime_s"] = float(m.group("mono"))
        info.setdefault("time_format", "monotonic")
        line = m.group("rest")
    return line.strip(), info


def _event(message: str, lines: list[str], info: dict[str, Any]) -> KernelEvent:
    xid = _XID.search(message) if "Xid" in message else None
    sxid = _SXID.search(message) if "SXid" in message else None
    pci = (
        (xid or sxid).group("pci") if (xid or sxid) else (m.group() if (m := _PCI.search(message)) else None)  # type: ignore[union-attr]
    )
    return KernelEvent(
        message=message,
        lines=tuple(lines),
        time=info.get("time"),
        uptime_s=info.get("uptime_s"),
        xid=int(xid.group("xid")) if xid else None,
        sxid=int(sxid.group("xid")) if sxid else None,
        pci=short_bus_id(pci),
        time_format=str(info.get("time_format", "none")),
        framed=bool(info.get("framed")) or "time_format" in info,
    )


def parse(text: str, now: datetime | None = None) -> KernelLog:
    """Parse every line; indented lines without a prefix continue the previous message."""
    events: list[KernelEvent] = []
    current: tuple[str, list[str], dict[str, object]] | None = None
    for raw in clean_lines(text):
        if not raw.strip():
            continue
        if current and raw[:1].isspace() and not _MONO.match(raw.strip()) and not _ISO.match(raw.strip()):
            message, lines, info = current
            current = (f"{message} {raw.strip()}", [*lines, raw.rstrip()], info)
            continue
        if current:
            events.append(_event(*current))
        message, info = _split(raw.strip(), now)
        current = (message, [raw.strip()], info)
    if current:
        events.append(_event(*current))
    return KernelLog(events=tuple(events))

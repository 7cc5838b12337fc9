"""`systemctl status nvidia-fabricmanager` and the Fabric Manager log -> service state, notable lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_ACTIVE = re.compile(r"^Active:\s*(?P<state>\S+)(?:\s+\((?P<sub>[^)]+)\))?")
# kind -> pattern over FM log lines; a line gets the first kind that matches.
LOG_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("nothing_to_do", re.compile(r"NV_WARN_NOTHING_TO_DO|Nothing to do", re.I)),
    (
        "version_mismatch",
        re.compile(
            r"version mismatch|is not compatible with|"
            r"(?:do(?:es)?n['’]?t|do(?:es)? not) match(?:es)? (?:with )?(?:the )?(?:NVIDIA )?(?:GPU )?driver|"
            r"driver version .* (?:do(?:es)?n['’]?t|do(?:es)? not) match|"
            r"driver interface version .* (?:do(?:es)?n['’]?t|do(?:es)? not) match",
            re.I,
        ),
    ),
    ("nvswitch_error", re.compile(r"NVSwitch (non-)?fatal error|detected NVSwitch .*error", re.I)),
    (
        "failed",
        re.compile(r"status=\d+/FAILURE|failed!|Failed to start|fabric manager .*failed|\[ERROR\]", re.I),
    ),
    (
        "started",
        re.compile(r"Successfully configured all the available NVSwitches|Started .*(fabric|Fabric)", re.I),
    ),
    ("stopped", re.compile(r"Stopped .*Fabric|Stopping nvidia-fabricmanager", re.I)),
)


# A line Fabric Manager itself wrote (journal identifier or its own log format).
_OWN = re.compile(
    r"nv-fabricmanager|nvidia-fabricmanager|fabric ?manager|NVSwitch|"
    r"^\[[^]]+\] \[(?:INFO|WARNING|ERROR)\]|^Message payload details",
    re.I,
)


@dataclass(frozen=True)
class FmStatus:
    """The unit's state: active ('active', 'failed', 'inactive'...), sub-state, or not installed."""

    active: str | None = None
    sub: str | None = None
    not_found: bool = False
    line: str = ""


@dataclass(frozen=True)
class FmLog:
    """Notable log lines as (kind, line) in order."""

    entries: tuple[tuple[str, str], ...] = ()
    recognized: bool = False  # some line is Fabric Manager's own (a log that can show an absence)
    first: str = ""  # first and last Fabric Manager lines: what the log covers
    last: str = ""

    def of(self, kind: str) -> tuple[str, ...]:
        """Lines of one kind."""
        return tuple(line for k, line in self.entries if k == kind)


def parse_status(text: str) -> FmStatus:
    """Read the `Active:` line; 'could not be found' means the unit is not installed."""
    for raw in clean_lines(text):
        line = raw.strip()
        if "could not be found" in line or "not-found" in line:
            return FmStatus(not_found=True, line=line)
        if (m := _ACTIVE.match(line)) is not None:
            return FmStatus(active=m.group("state"), sub=m.group("sub"), line=line)
    return FmStatus()


def parse_log(text: str) -> FmLog:
    """Classify each line by `LOG_KINDS`; unclassified lines are dropped."""
    entries = []
    own = []
    total = 0
    for raw in clean_lines(text):
        total += bool(raw.strip()) and not raw.startswith("-- ")
        line = raw.strip()
        kind = next((k for k, pattern in LOG_KINDS if pattern.search(line)), None)
        if kind:
            entries.append((kind, line))
        if _OWN.search(line):
            own.append(line)
    return FmLog(
        entries=tuple(entries),
        recognized=bool(own) and len(own) * 2 >= total,
        first=own[0] if own else "",
        last=own[-1] if own else "",
    )


parse = parse_status

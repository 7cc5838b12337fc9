"""Time in one place: the clock type, the one stored timestamp format, and the `--since` parser."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|hr|d|day|days|w|week|weeks)\s*$", re.I)
_SECONDS = {
    "s": 1,
    "sec": 1,
    "m": 60,
    "min": 60,
    "h": 3600,
    "hr": 3600,
    "d": 86400,
    "day": 86400,
    "days": 86400,
    "w": 604800,
    "week": 604800,
    "weeks": 604800,
}


def parse_since(text: str | datetime | None, now: datetime | None = None) -> datetime | None:
    """`24h`, `90m`, `2d`, `1w`, `30s` ago, or an ISO date/time (UTC if no zone); None stays None."""
    if text is None:
        return None
    if isinstance(text, datetime):
        return text.astimezone(UTC) if text.tzinfo else text.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    match = _DURATION.match(text)
    if match:
        try:
            return now - timedelta(seconds=float(match.group(1)) * _SECONDS[match.group(2).lower()])
        except (OverflowError, ValueError):  # 99999999d: before year 1
            raise UsageError(msg("security.arg.since_range", value=text[:40])) from None
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(msg("errors.cli.since", value=text)) from None

    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


def stamp(moment: datetime, *, millis: bool = False) -> str:
    """The one form of a time, stored and printed: RFC 3339 UTC with a Z, so that strings sort as times.

    `millis` adds milliseconds (`2026-12-01T11:00:00.123Z`) for logs whose rows must keep their order
    within a second; compare such a column only with stamps made the same way.
    """
    moment = moment.astimezone(UTC)
    if millis:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")

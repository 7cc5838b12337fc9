"""The numbers people ask for: top causes, busiest hosts, time to resolution, causes per layer.

Read-only SQL over the incident tables; `pitstop stats` prints it and the Slack App Home renders
`Stats.to_json()`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

import sqlite_utils

from pitstop.core.clock import stamp

TOP = 10


@dataclass(frozen=True)
class Count:
    """One row of a ranking."""

    key: str
    label: str
    count: int


# What each figure counts, said once for the JSON, the CLI and the App Home.
COUNTED = {
    "incidents": "incidents opened in the period (one per pasted thread)",
    "open": "of those, still open: activity within the quiet period and no resolution",
    "resolved": "of those, closed with a recorded cause",
    "no_action": "of those, closed as no action needed",
    "expired": "of those, open but quiet for longer than the quiet period (closed as expired)",
    "top_causes": "resolutions recorded in the period, by cause",
    "layers": "resolutions recorded in the period, by the cause's layer",
    "top_hosts": "incidents opened in the period, by host named",
    "resolution_median_s": "time from opening to resolution, over the resolved incidents only",
}


@dataclass(frozen=True)
class Stats:
    """Incident figures over one period (`since` None: all time); see COUNTED for what each counts."""

    since: str | None
    until: str
    incidents: int
    open: int
    resolved: int
    top_causes: tuple[Count, ...]
    top_hosts: tuple[Count, ...]
    layers: tuple[Count, ...]
    resolution_median_s: float | None
    resolution_p90_s: float | None
    no_action: int = 0
    expired: int = 0
    quiet_days: float = 7.0

    def to_json(self) -> dict[str, object]:
        """Plain data for `--json` and the App Home tab, with what each figure counts."""
        data = asdict(self)
        lists = {key: list(data[key]) for key in ("top_causes", "top_hosts", "layers")}
        return {**data, **lists, "counted": dict(COUNTED)}


TITLE_ZH = "nullif(p.title_zh, ''), "  # a Chinese reader's title, where the entry has one


def compute(
    db: sqlite_utils.Database,
    *,
    since: datetime | None,
    now: datetime,
    quiet_days: float = 7.0,
    lang: str = "en",
) -> Stats:
    """Figures for incidents opened (and resolutions made) since `since`; causes titled in `lang`.

    An open incident quiet for longer than `quiet_days` counts as expired even before
    `Incidents.expire` has closed it, so the figures do not depend on when that last ran.
    """
    start = stamp(since) if since else ""
    quiet = stamp(now - timedelta(days=quiet_days))
    counts = db.execute(
        "SELECT count(*),"
        " coalesce(sum(status = 'open' AND updated_at >= ?), 0),"
        " coalesce(sum(status = 'resolved'), 0),"
        " coalesce(sum(status = 'no_action'), 0),"
        " coalesce(sum(status = 'expired' OR (status = 'open' AND updated_at < ?)), 0)"
        " FROM incidents WHERE created_at >= ?",
        [quiet, quiet, start],
    ).fetchone()
    causes = db.execute(
        f"SELECT r.cause_id, coalesce({TITLE_ZH if lang == 'zh' else ''}p.title, r.cause_id), count(*) AS n"
        " FROM resolutions r"
        " LEFT JOIN pitfalls p ON p.id = r.cause_id WHERE r.resolved_at >= ?"
        " GROUP BY r.cause_id ORDER BY n DESC, r.cause_id LIMIT ?",
        [start, TOP],
    ).fetchall()
    hosts = db.execute(
        "SELECT h.value, count(DISTINCT i.id) AS n FROM incidents i, json_each(i.hosts_json) h"
        " WHERE i.created_at >= ? GROUP BY h.value ORDER BY n DESC, h.value LIMIT ?",
        [start, TOP],
    ).fetchall()
    layers = db.execute(
        "SELECT coalesce(p.layer, 'unknown') AS layer, count(*) AS n FROM resolutions r"
        " LEFT JOIN pitfalls p ON p.id = r.cause_id WHERE r.resolved_at >= ?"
        " GROUP BY layer ORDER BY n DESC, layer",
        [start],
    ).fetchall()
    waits = sorted(
        row[0]
        for row in db.execute(
            "SELECT (julianday(r.resolved_at) - julianday(i.created_at)) * 86400.0 FROM resolutions r"
            " JOIN incidents i ON i.id = r.incident_id WHERE r.resolved_at >= ?",
            [start],
        )
    )
    return Stats(
        since=start or None,
        until=stamp(now),
        incidents=counts[0],
        open=counts[1],
        resolved=counts[2],
        top_causes=tuple(Count(k, label, n) for k, label, n in causes),
        top_hosts=tuple(Count(k, k, n) for k, n in hosts),
        layers=tuple(Count(k, k, n) for k, n in layers),
        resolution_median_s=statistics.median(waits) if waits else None,
        resolution_p90_s=_percentile(waits, 0.9) if waits else None,
        no_action=counts[3],
        expired=counts[4],
        quiet_days=quiet_days,
    )


def _percentile(ordered: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]

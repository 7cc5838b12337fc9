"""The numbers people ask for: top causes, busiest hosts, time to resolution, causes per layer.

Read-only SQL over the incident tables; `pitstop stats` prints it and the Slack App Home renders
`Stats.to_json()`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from datetime import datetime

import sqlite_utils

from pitstop.core.clock import stamp

TOP = 10


@dataclass(frozen=True)
class Count:
    """One row of a ranking."""

    key: str
    label: str
    count: int


@dataclass(frozen=True)
class Stats:
    """Incident figures over one period (`since` None: all time)."""

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

    def to_json(self) -> dict[str, object]:
        """Plain data for `--json` and the App Home tab."""
        data = asdict(self)
        return {**data, **{key: list(data[key]) for key in ("top_causes", "top_hosts", "layers")}}


def compute(db: sqlite_utils.Database, *, since: datetime | None, now: datetime) -> Stats:
    """Figures for incidents opened (and resolutions made) since `since`."""
    start = stamp(since) if since else ""
    counts = db.execute(
        "SELECT count(*), coalesce(sum(status = 'open'), 0), coalesce(sum(status = 'resolved'), 0)"
        " FROM incidents WHERE created_at >= ?",
        [start],
    ).fetchone()
    causes = db.execute(
        "SELECT r.cause_id, coalesce(p.title, r.cause_id), count(*) AS n FROM resolutions r"
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
    )


def _percentile(ordered: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]

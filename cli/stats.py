"""`pitstop stats [--since DURATION|DATE] [--json]`: incident figures over a period."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pitstop.cli.kbargs import add_db_option
from pitstop.cli.output import emit_json

if TYPE_CHECKING:
    from pitstop.incidents.stats import Stats


def register(sub: argparse._SubParsersAction) -> None:
    """Add `stats`."""
    parser = sub.add_parser("stats", help="top causes, busiest hosts, time to resolution, causes per layer")
    parser.add_argument("--since", help="period start: 7d, 24h, 30m or a date (default: all time)")
    parser.add_argument("--json", action="store_true", help="print JSON (pitstop.stats/1)")
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    from pitstop.core.clock import parse_since, utc_now
    from pitstop.core.config import load_settings
    from pitstop.core.db import open_db
    from pitstop.incidents.stats import compute

    now = utc_now()
    since = parse_since(args.since, now) if args.since else None
    figures = compute(open_db(args.db or load_settings().db_path), since=since, now=now)
    if args.json:
        emit_json("stats", figures.to_json())
    else:
        print(render(figures))
    return 0


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = seconds / 60
    return f"{minutes:.0f} min" if minutes < 120 else f"{minutes / 60:.1f} h"


def render(figures: Stats) -> str:
    """The figures as text for a terminal."""
    lines = [
        f"incidents since {figures.since or 'the beginning'}: {figures.incidents}"
        f" ({figures.open} open, {figures.resolved} resolved)",
        f"time to resolution: median {_duration(figures.resolution_median_s)},"
        f" p90 {_duration(figures.resolution_p90_s)}",
    ]
    sections = (
        ("top causes", figures.top_causes),
        ("hosts with most incidents", figures.top_hosts),
        ("causes per layer", figures.layers),
    )
    for heading, rows in sections:
        lines.append(f"{heading}:" if rows else f"{heading}: none")
        lines += [
            f"  {row.count:>4}  {row.key}" + (f"  {row.label}" if row.label != row.key else "")
            for row in rows
        ]
    return "\n".join(lines)

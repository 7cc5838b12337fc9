"""`pitstop stats [--since DURATION|DATE] [--json]`: incident figures over a period."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pitstop.cli.helptext import h
from pitstop.cli.kbargs import add_db_option
from pitstop.cli.output import emit_json, lang_of

if TYPE_CHECKING:
    from pitstop.incidents.stats import Stats


def register(sub: argparse._SubParsersAction) -> None:
    """Add `stats`."""
    parser = sub.add_parser("stats", help=h("stats.stats"))
    parser.add_argument("--since", help=h("stats.since"))
    parser.add_argument("--json", action="store_true", help=h("stats.json"))
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
    settings = load_settings()
    lang = lang_of(args)
    figures = compute(
        open_db(args.db or settings.db_path),
        since=since,
        now=now,
        quiet_days=settings.incident_quiet_days,
        lang="en" if args.json else lang,
    )
    if args.json:
        emit_json("stats", figures.to_json())
    else:
        print(render(figures, lang))
    return 0


def _duration(seconds: float | None, lang: str) -> str:
    from pitstop.core.i18n import t

    if seconds is None:
        return t("cli.duration.none", lang)
    if seconds < 60:
        return t("cli.duration.s", lang, n=f"{seconds:.0f}")
    minutes = seconds / 60
    if minutes < 120:
        return t("cli.duration.min", lang, n=f"{minutes:.0f}")
    return t("cli.duration.h", lang, n=f"{minutes / 60:.1f}")


def render(figures: Stats, lang: str = "en") -> str:
    """The figures as text for a terminal, each line saying what it counts."""
    from pitstop.core.i18n import t

    lines = [
        t(
            "cli.stats.period",
            lang,
            since=figures.since or t("cli.stats.beginning", lang),
            incidents=figures.incidents,
            open=figures.open,
            resolved=figures.resolved,
            no_action=figures.no_action,
            expired=figures.expired,
            quiet=f"{figures.quiet_days:g}",
        ),
        t(
            "cli.stats.resolution",
            lang,
            resolved=figures.resolved,
            median=_duration(figures.resolution_median_s, lang),
            p90=_duration(figures.resolution_p90_s, lang),
        ),
    ]
    sections = (
        ("cli.stats.top_causes", figures.top_causes),
        ("cli.stats.top_hosts", figures.top_hosts),
        ("cli.stats.layers", figures.layers),
    )
    for key, rows in sections:
        heading = t(key, lang)
        lines.append(t("cli.stats.heading" if rows else "cli.stats.none", lang, heading=heading))
        lines += [
            f"  {row.count:>4}  {row.key}" + (f"  {row.label}" if row.label != row.key else "")
            for row in rows
        ]
    return "\n".join(lines)

"""`pitstop incidents list | show ID | resolve ID (--cause SLUG | --new-title TITLE ...)`.

Resolving here calls `Incidents.resolve`, the same function as the Slack modal and the console.
"""

from __future__ import annotations

import argparse
import getpass
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.argtypes import COUNT, ID, POSITIVE
from pitstop.cli.kbargs import add_db_option
from pitstop.cli.output import emit_json
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg

if TYPE_CHECKING:
    from pitstop.incidents.store import Incident, Incidents


def register(sub: argparse._SubParsersAction) -> None:
    """Add `incidents` and its actions."""
    parser = sub.add_parser("incidents", help="list, show, resolve and close incidents")
    actions = parser.add_subparsers(dest="incidents_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="incidents, newest first")
    listing.add_argument(
        "--status",
        choices=("open", "resolved", "no_action", "expired"),
        help="only incidents in this state",
    )
    listing.add_argument("--since", help="only incidents opened since: 7d, 24h, 30m or a date")
    listing.add_argument(
        "--limit", type=COUNT, default=50, help="at most N incidents, newest first (default 50)"
    )
    listing.add_argument("--json", action="store_true", help="print JSON (pitstop.incidents/1)")
    listing.set_defaults(func=run_list)
    show = actions.add_parser("show", help="one incident with candidates, verdicts and resolution")
    show.add_argument("id", type=ID, help="the incident number")
    show.add_argument("--json", action="store_true", help="print JSON (pitstop.incident/1)")
    show.set_defaults(func=run_show)
    resolve = actions.add_parser("resolve", help="record the real cause (teaches the knowledge base)")
    resolve.add_argument("id", type=ID, help="the incident number")
    which = resolve.add_mutually_exclusive_group(required=True)
    which.add_argument("--cause", metavar="SLUG", help="an existing pitfall id")
    which.add_argument("--new-title", metavar="TITLE", help="a cause the KB does not know yet (a draft)")
    resolve.add_argument("--what", default="", help="what was wrong (with --new-title)")
    resolve.add_argument("--fix", default="", help="how it was fixed (with --new-title)")
    resolve.add_argument("--symptom", action="append", default=[], help="a symptom line; repeat for more")
    resolve.add_argument("--notes", default="", help="free text kept with the resolution")
    resolve.add_argument("--user", default=None, help="who resolved it (default cli:$USER)")
    resolve.add_argument(
        "--json", action="store_true", help="print the resolved incident as JSON (pitstop.incident/1)"
    )
    resolve.set_defaults(func=run_resolve)
    close = actions.add_parser("close", help="close an open incident as no action needed")
    close.add_argument("id", type=ID, help="the incident number")
    close.add_argument("--user", default=None, help="who closed it (default cli:$USER)")
    close.add_argument(
        "--json", action="store_true", help="print the closed incident as JSON (pitstop.incident/1)"
    )
    close.set_defaults(func=run_close)
    expire = actions.add_parser(
        "expire", help="close, as expired, open incidents quiet for longer than the quiet period"
    )
    expire.add_argument(
        "--quiet-days",
        type=POSITIVE,
        default=None,
        metavar="DAYS",
        help="the quiet period (default $PITSTOP_INCIDENT_QUIET_DAYS, else 7)",
    )
    expire.set_defaults(func=run_expire)
    for action in (listing, show, resolve, close, expire):
        add_db_option(action)


def _db_path(args: argparse.Namespace) -> Path:
    from pitstop.core.config import load_settings

    return args.db or load_settings().db_path


def _store(args: argparse.Namespace) -> Incidents:
    from pitstop.core.db import open_db
    from pitstop.incidents.store import Incidents

    return Incidents(open_db(_db_path(args)))


def run_list(args: argparse.Namespace) -> int:
    """Print incidents, newest first."""
    from pitstop.core.clock import parse_since, stamp, utc_now

    cutoff = parse_since(args.since, utc_now())
    since = stamp(cutoff) if cutoff else None
    found = _store(args).list(status=args.status, since=since, limit=args.limit)
    if args.json:
        emit_json("incidents", {"incidents": [i.to_json() for i in found]})
        return 0
    for incident in found:
        top = incident.candidates[0].pitfall_id if incident.candidates else "-"
        cause = incident.resolution.cause_id if incident.resolution else ""
        print(
            f"#{incident.id:<5} {incident.status:8} {incident.created_at}"
            f" {incident.channel}/{incident.thread_ts} {','.join(incident.hosts) or '-'}"
            f" top={top}{f' cause={cause}' if cause else ''}"
        )
    print(f"{len(found)} incident(s)")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one incident."""
    incident = _store(args).get(args.id)
    if args.json:
        emit_json("incident", incident.to_json())
    else:
        print(render(incident))
    return 0


def run_resolve(args: argparse.Namespace) -> int:
    """Resolve an incident with an existing or a new cause, then say what the KB learned."""
    from pitstop.core.db import open_db
    from pitstop.incidents.model import NewCause
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(_db_path(args))
    store = Incidents(open_db(kb.db_path), kb=kb)
    store.learn_pending()
    new = None if args.cause else NewCause(args.new_title, args.what, args.fix, tuple(args.symptom))
    incident = store.resolve(
        args.id,
        user=args.user or f"cli:{getpass.getuser()}",
        cause_id=args.cause,
        new_cause=new,
        notes=args.notes,
    )
    if args.json:
        emit_json("incident", incident.to_json())
    else:
        resolution = incident.resolution  # what resolve recorded (None only for an unresolved incident)
        cause, learned = (resolution.cause_id, resolution.learned) if resolution else (args.cause, "")
        print(f"incident #{incident.id} resolved as '{cause}'; {learned}")
    return 0


def render(incident: Incident) -> str:
    """An incident as text for a terminal."""
    lines = [
        f"incident #{incident.id} [{incident.status}] {incident.channel} thread {incident.thread_ts}",
        f"opened {incident.created_at} by {incident.requester or '?'}; updated {incident.updated_at}",
        f"hosts: {', '.join(incident.hosts) or '-'}",
    ]
    if incident.error_text:
        lines += ["error text:", *(f"  {line}" for line in incident.error_text.splitlines()[:20])]
    lines.append("candidates:" if incident.candidates else "candidates: none")
    lines += [
        f"  {c.rank}. {c.pitfall_id} score {c.score:.3f} {c.confidence}{' (draft)' if c.draft else ''}"
        for c in incident.candidates
    ]
    for host, v in incident.verdicts:
        benign = " (benign)" if v.benign else ""
        lines.append(f"verdict {host} {v.pitfall}: {v.verdict}{benign} {v.reason}")
        lines += [f"    {e.command}: {line}" for e in v.evidence for line in e.lines[:5]]
    r = incident.resolution
    if r:
        lines.append(f"resolved {r.resolved_at} by {r.resolved_by}: {r.cause_id} ({r.kind}); {r.learned}")
        if r.notes:
            lines.append(f"notes: {r.notes}")
    return "\n".join(lines)


def run_close(args: argparse.Namespace) -> int:
    """Close an incident as no action needed."""
    from pitstop.core.i18n import t

    incident = _store(args).close(args.id, user=args.user or f"cli:{getpass.getuser()}")
    if args.json:
        emit_json("incident", incident.to_json())
    else:
        print(t("cli.incidents.closed", getattr(args, "lang", None) or "en", id=incident.id))
    return 0


def run_expire(args: argparse.Namespace) -> int:
    """Close quiet open incidents as expired."""
    from datetime import timedelta

    from pitstop.core.config import load_settings
    from pitstop.core.i18n import t

    days = args.quiet_days if args.quiet_days is not None else load_settings().incident_quiet_days
    if days <= 0:
        raise UsageError(msg("errors.cli.quiet_days"))
    n = _store(args).expire(timedelta(days=days))
    print(t("cli.incidents.expired", getattr(args, "lang", None) or "en", n=n, days=f"{days:g}"))
    return 0

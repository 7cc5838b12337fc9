"""`pitstop incidents list | show ID | resolve ID (--cause SLUG | --new-title TITLE ...)`.

Resolving here calls `Incidents.resolve`, the same function as the Slack modal and the console.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.argtypes import COUNT, ID, POSITIVE
from pitstop.cli.helptext import h
from pitstop.cli.kbargs import add_db_option
from pitstop.cli.output import emit_json, lang_of
from pitstop.core.config import local_user
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg

if TYPE_CHECKING:
    from pitstop.incidents.store import Incident, Incidents


def register(sub: argparse._SubParsersAction) -> None:
    """Add `incidents` and its actions."""
    parser = sub.add_parser("incidents", help=h("incidents.incidents"))
    actions = parser.add_subparsers(dest="incidents_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help=h("incidents.list"))
    listing.add_argument(
        "--status",
        choices=("open", "resolved", "no_action", "expired"),
        help=h("incidents.listing.status"),
    )
    listing.add_argument("--since", help=h("incidents.listing.since"))
    listing.add_argument("--limit", type=COUNT, default=50, help=h("incidents.listing.limit"))
    listing.add_argument("--json", action="store_true", help=h("incidents.listing.json"))
    listing.set_defaults(func=run_list)
    show = actions.add_parser("show", help=h("incidents.show"))
    show.add_argument("id", type=ID, help=h("incidents.show.id"))
    show.add_argument("--json", action="store_true", help=h("incidents.show.json"))
    show.set_defaults(func=run_show)
    resolve = actions.add_parser("resolve", help=h("incidents.resolve"))
    resolve.add_argument("id", type=ID, help=h("incidents.show.id"))
    which = resolve.add_mutually_exclusive_group(required=True)
    which.add_argument("--cause", metavar="SLUG", help=h("incidents.which.cause"))
    which.add_argument("--new-title", metavar="TITLE", help=h("incidents.which.new_title"))
    resolve.add_argument("--what", default="", help=h("incidents.resolve.what"))
    resolve.add_argument("--fix", default="", help=h("incidents.resolve.fix"))
    resolve.add_argument("--symptom", action="append", default=[], help=h("incidents.resolve.symptom"))
    resolve.add_argument("--notes", default="", help=h("incidents.resolve.notes"))
    resolve.add_argument("--user", default=None, help=h("incidents.resolve.user"))
    resolve.add_argument("--json", action="store_true", help=h("incidents.resolve.json"))
    resolve.set_defaults(func=run_resolve)
    close = actions.add_parser("close", help=h("incidents.close"))
    close.add_argument("id", type=ID, help=h("incidents.show.id"))
    close.add_argument("--user", default=None, help=h("incidents.close.user"))
    close.add_argument("--json", action="store_true", help=h("incidents.close.json"))
    close.set_defaults(func=run_close)
    expire = actions.add_parser("expire", help=h("incidents.expire"))
    expire.add_argument(
        "--quiet-days",
        type=POSITIVE,
        default=None,
        metavar="DAYS",
        help=h("incidents.expire.quiet_days"),
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
    from pitstop.core.i18n import t

    cutoff = parse_since(args.since, utc_now())
    since = stamp(cutoff) if cutoff else None
    found = _store(args).list(status=args.status, since=since, limit=args.limit)
    if args.json:
        emit_json("incidents", {"incidents": [i.to_json() for i in found]})
        return 0
    lang = lang_of(args)
    for incident in found:
        cause = incident.resolution.cause_id if incident.resolution else ""
        print(
            t(
                "cli.incidents.row",
                lang,
                id=f"{incident.id:<5}",
                status=t(f"cli.incidents.status.{incident.status}", lang),
                opened=incident.created_at,
                where=f"{incident.channel}/{incident.thread_ts}",
                hosts=",".join(incident.hosts) or "-",
                top=incident.candidates[0].pitfall_id if incident.candidates else "-",
                cause=t("cli.incidents.row_cause", lang, cause=cause) if cause else "",
            )
        )
    print(t("cli.incidents.count", lang, n=len(found)))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one incident."""
    incident = _store(args).get(args.id)
    if args.json:
        emit_json("incident", incident.to_json())
    else:
        print(render(incident, lang_of(args)))
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
        user=args.user or f"cli:{local_user()}",
        cause_id=args.cause,
        new_cause=new,
        notes=args.notes,
        vouched=True,  # the operator: whoever can run this owns the database
    )
    if args.json:
        emit_json("incident", incident.to_json())
    else:
        from pitstop.core.i18n import render as text_in
        from pitstop.core.i18n import t

        lang = lang_of(args)
        resolution = incident.resolution  # what resolve recorded (None only for an unresolved incident)
        cause, learned = (resolution.cause_id, resolution.learned) if resolution else (args.cause, "")
        print(t("cli.incidents.resolved", lang, id=incident.id, cause=cause, learned=text_in(learned, lang)))
    return 0


def render(incident: Incident, lang: str = "en") -> str:
    """An incident as text for a terminal, in `lang`."""
    from pitstop.core.i18n import render as text_in
    from pitstop.core.i18n import t

    lines = [
        t(
            "cli.incident.header",
            lang,
            id=incident.id,
            status=t(f"cli.incidents.status.{incident.status}", lang),
            channel=incident.channel,
            thread=incident.thread_ts,
        ),
        t(
            "cli.incident.opened",
            lang,
            created=incident.created_at,
            requester=incident.requester or "?",
            updated=incident.updated_at,
        ),
        t("cli.incident.hosts", lang, hosts=", ".join(incident.hosts) or "-"),
    ]
    if incident.error_text:
        lines.append(t("cli.incident.error_text", lang))
        lines += [f"  {line}" for line in incident.error_text.splitlines()[:20]]
    lines.append(t("cli.incident.candidates" if incident.candidates else "cli.incident.no_candidates", lang))
    lines += [
        t(
            "cli.incident.candidate",
            lang,
            rank=c.rank,
            id=c.pitfall_id,
            score=f"{c.score:.3f}",
            confidence=t(f"common.confidence.{c.confidence}", lang),
            draft=t("cli.incident.draft", lang) if c.draft else "",
        )
        for c in incident.candidates
    ]
    for host, v in incident.verdicts:
        lines.append(
            t(
                "cli.incident.verdict",
                lang,
                host=host,
                pitfall=v.pitfall,
                verdict=t(f"common.verdict.{v.verdict}", lang),
                benign=t("cli.incident.benign", lang) if v.benign else "",
                reason=text_in(v.reason, lang),
            )
        )
        lines += [f"    {e.command}: {line}" for e in v.evidence for line in e.lines[:5]]
    r = incident.resolution
    if r:
        lines.append(
            t(
                "cli.incident.resolution",
                lang,
                at=r.resolved_at,
                by=r.resolved_by,
                cause=r.cause_id,
                kind=t(f"cli.incident.kind.{r.kind}", lang),
                learned=text_in(r.learned, lang),
            )
        )
        if r.notes:
            lines.append(t("cli.incident.notes", lang, notes=r.notes))
    return "\n".join(lines)


def run_close(args: argparse.Namespace) -> int:
    """Close an incident as no action needed."""
    from pitstop.core.i18n import t

    incident = _store(args).close(args.id, user=args.user or f"cli:{local_user()}")
    if args.json:
        emit_json("incident", incident.to_json())
    else:
        print(t("cli.incidents.closed", lang_of(args), id=incident.id))
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
    print(t("cli.incidents.expired", lang_of(args), n=n, days=f"{days:g}"))
    return 0

"""`pitstop audit [--since D] [--user U] [--host H] [--json]`: the commands Pitstop ran on hosts."""

from __future__ import annotations

import argparse

from pitstop.cli.argtypes import COUNT
from pitstop.cli.helptext import h
from pitstop.cli.kbargs import add_db_option
from pitstop.cli.output import emit_json, emit_jsonl


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `audit` sub-command."""
    parser = sub.add_parser("audit", help=h("audit.audit"))
    parser.add_argument("--since", default=None, metavar="DURATION", help=h("audit.since"))
    parser.add_argument("--user", default=None, help=h("audit.user"))
    parser.add_argument("--host", default=None, help=h("audit.host"))
    parser.add_argument("--limit", type=COUNT, default=1000, help=h("audit.limit"))
    parser.add_argument("--json", action="store_true", help=h("audit.json"))
    parser.add_argument("--jsonl", action="store_true", help=h("audit.jsonl"))
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the matching audit rows."""
    from pitstop.collectors.audit import AuditLog
    from pitstop.collectors.catalog import display
    from pitstop.core.clock import parse_since
    from pitstop.core.config import load_settings
    from pitstop.core.db import open_db

    db = open_db(args.db or load_settings().db_path)
    rows = AuditLog(db).query(
        since=parse_since(args.since), user=args.user, host=args.host, limit=max(1, args.limit)
    )
    if args.json:
        emit_json("audit", {"rows": [row.to_json() for row in rows]})
        return 0
    if args.jsonl:
        emit_jsonl("audit-row", (row.to_json() for row in rows))
        return 0
    for row in rows:
        exit_ = "-" if row.exit is None else row.exit
        print(
            f"{row.ts}  {row.requester:<12} {row.origin:<14} {row.host:<16} {row.outcome:<8} "
            f"exit={exit_:<4} {row.duration_s:6.2f}s {row.output_bytes:>9}B  "
            f"{display(row.argv)}"
        )
    return 0

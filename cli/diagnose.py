"""`pitstop diagnose HOSTS [--error TEXT] [--since D] [--inventory FILE] [--json]`: verdicts per cause.

Exit status: 0 nothing confirmed and every host checked; 10 at least one cause confirmed and every
host checked; 11 nothing confirmed and at least one host could not be checked (unreachable, auth,
host key, error, evidence unreadable); 12 a cause confirmed and at least one host not checked;
2 bad usage; 3 unknown host, group or job; 4 refused by policy.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.argtypes import COUNT, POSITIVE
from pitstop.cli.helptext import h
from pitstop.cli.kbargs import add_db_option, open_kb, read_file, read_text
from pitstop.cli.output import lang_of
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg, normalize_lang, t
from pitstop.core.redact import redact
from pitstop.core.terminal import printable

if TYPE_CHECKING:
    from pitstop.app.diagnose import DiagnoseReport, HostReport
    from pitstop.collectors.inventory import Host


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `diagnose` sub-command."""
    parser = sub.add_parser(
        "diagnose",
        help=h("diagnose.diagnose"),
        description=h("diagnose.diagnose.description"),
        epilog=h("diagnose.diagnose.epilog"),
    )
    parser.add_argument("hosts", metavar="HOSTS", nargs="?", default=None, help=h("diagnose.hosts"))
    parser.add_argument(
        "--job",
        metavar="ID",
        default=None,
        help=h("diagnose.job"),
    )
    parser.add_argument(
        "--error",
        metavar="TEXT",
        default=None,
        help=h("diagnose.error"),
    )
    parser.add_argument(
        "--error-file", type=Path, default=None, metavar="FILE", help=h("diagnose.error_file")
    )
    parser.add_argument(
        "--since",
        default=None,
        metavar="DURATION",
        help=h("diagnose.since"),
    )
    parser.add_argument("--inventory", type=Path, default=None, help=h("console.inventory"))
    parser.add_argument(
        "--connect-timeout",
        type=POSITIVE,
        default=None,
        metavar="S",
        help=h("diagnose.connect_timeout"),
    )
    parser.add_argument(
        "--policy",
        type=Path,
        default=None,
        help=h("diagnose.policy"),
    )
    parser.add_argument("--max-hosts", type=COUNT, default=1024, metavar="N", help=h("diagnose.max_hosts"))
    parser.add_argument("--json", action="store_true", help=h("diagnose.json"))
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Diagnose, print, and map the outcome to the exit status."""
    from pitstop.app.authz import Policy
    from pitstop.app.checking import sweep_gc
    from pitstop.app.diagnose import (
        DiagnoseRequest,
        authorized_hosts,
        authorized_job_host,
        authorized_job_request,
        diagnose,
        report_json,
        resolve_job,
    )
    from pitstop.collectors import inventory as inv
    from pitstop.collectors.transport.ssh import Connector
    from pitstop.core.clock import parse_since
    from pitstop.core.config import load_settings, local_user
    from pitstop.core.db import open_db

    if bool(args.hosts) == bool(args.job):
        raise UsageError(msg("errors.cli.hosts_or_job"))
    parse_since(args.since)  # a bad --since is refused before the inventory, the policy or a host
    settings = load_settings()
    inventory = inv.load(args.inventory or settings.inventory_path)
    if args.error is not None and args.error_file is not None:
        raise UsageError(msg("errors.cli.error_twice"))
    if args.error_file is not None:
        error_text: str | None = read_file(args.error_file)
    else:
        error_text = read_text([args.error]) if args.error else None
    user = local_user()
    policy = Policy.load(args.policy or settings.policy_path, audit_db=args.db or settings.db_path)
    # Unknown hosts and refusals fail here, before the KB opens (exit 3 and 4).
    selected: tuple[Host, ...] = ()
    if args.job:
        authorized_job_host(inventory, policy, args.job, user=user, channel=None, origin="cli")
    else:
        selected = authorized_hosts(
            inventory, policy, args.hosts, user=user, channel=None, origin="cli", max_hosts=args.max_hosts
        )
    request = DiagnoseRequest(
        hosts=args.hosts or "",
        error_text=error_text,
        since=args.since,
        requester=user,
        origin="cli",
        max_hosts=args.max_hosts,
        selected=selected,
    )
    db = open_db(args.db or settings.db_path)
    kb = open_kb(args)
    lang = lang_of(args, error_text)
    progress = None if args.json or not sys.stderr.isatty() else partial(_progress, lang)
    connector = Connector(inventory, connect_timeout=args.connect_timeout)

    async def go() -> DiagnoseReport:
        nonlocal request
        if args.job:
            info = await resolve_job(
                "slurm",
                args.job,
                inventory=inventory,
                connector=connector,
                db=db,
                requester=request.requester,
            )
            request = authorized_job_request(
                info,
                inventory,
                policy,
                request,
                user=user,
                channel=None,
                origin="cli",
                max_hosts=request.max_hosts,
            )
        return await diagnose(
            request, inventory=inventory, kb=kb, progress=progress, db=db, connector=connector
        )

    with sweep_gc():
        report = asyncio.run(go())
        if normalize_lang(getattr(args, "lang", None)):  # `--lang en|zh` over the language of the paste
            report = replace(report, lang=lang)
        if args.json:
            print(report_json(report))
        else:
            print(redact(render(report)))  # the same masking as --json (to_json redacts its fields)
    from pitstop.app.digest import digest

    return digest(report).exit_code


def _progress(lang: str, report: HostReport, done: int, total: int) -> None:
    status = t("cli.diagnose.ok" if report.status == "ok" else f"fleet.status.{report.status}", lang)
    line = t("cli.diagnose.progress", lang, host=printable(report.host), status=status)
    print(
        f"\r[{done}/{total}] {line}\033[K",
        end="" if done < total else "\n",
        file=sys.stderr,
        flush=True,
    )


def render(report: DiagnoseReport) -> str:
    """The report as text, folded per cause (app/digest.py `render_text`), in the report's language."""
    from pitstop.app.digest import render_text

    return render_text(report, report.lang)

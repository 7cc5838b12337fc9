"""`pitstop diagnose HOSTS [--error TEXT] [--since D] [--inventory FILE] [--json]`: verdicts per host.

Exit status: 0 nothing confirmed and every host checked; 10 at least one cause confirmed;
11 at least one host could not be checked (unreachable, auth, host key, error); 2 bad usage;
3 unknown host or group; 4 refused by policy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.kbargs import add_db_option, open_kb, read_text

if TYPE_CHECKING:
    from pitstop.app.diagnose import DiagnoseReport, HostReport
    from pitstop.collectors.inventory import Host
    from pitstop.core.config import Settings

EXIT_CONFIRMED = 10
EXIT_HOST_FAILED = 11
_MARK = {"confirmed": "CONFIRMED", "ruled_out": "ruled out", "inconclusive": "inconclusive"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `diagnose` sub-command."""
    parser = sub.add_parser(
        "diagnose",
        help="run read-only checks on hosts and give a verdict per cause",
        description="Run read-only collectors on HOSTS (names, @groups, gpu[01-16]) and judge each cause.",
        epilog="exit status: 0 nothing confirmed, 10 cause confirmed, 11 a host could not be checked, "
        "2 usage, 3 unknown host, 4 refused",
    )
    parser.add_argument("hosts", metavar="HOSTS", help="host names, groups or host-list expressions")
    parser.add_argument(
        "--error",
        nargs="+",
        metavar="TEXT",
        default=None,
        help="the pasted error ('-' reads stdin); without it, a full sweep",
    )
    parser.add_argument(
        "--since",
        default=None,
        metavar="DURATION",
        help="kernel-log window: 24h, 90m, 2d or an ISO date (default: this boot)",
    )
    parser.add_argument(
        "--inventory", type=Path, default=None, help="inventory YAML (default $PITSTOP_INVENTORY)"
    )
    parser.add_argument(
        "--connect-timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds to reach each host (default: the inventory's, else 10)",
    )
    parser.add_argument(
        "--policy",
        type=Path,
        default=None,
        help="authorization policy YAML (default $PITSTOP_POLICY); without one nothing runs",
    )
    parser.add_argument("--max-hosts", type=int, default=1024, metavar="N", help="refuse larger host lists")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Diagnose, print, and map the outcome to the exit status."""
    from pitstop.app.diagnose import DiagnoseRequest, diagnose
    from pitstop.collectors import inventory as inv
    from pitstop.collectors.transport.ssh import Connector
    from pitstop.core.config import load_settings
    from pitstop.core.db import open_db

    settings = load_settings()
    inventory = inv.load(args.inventory or settings.inventory_path)
    error_text = read_text(args.error) if args.error else None
    request = DiagnoseRequest(
        hosts=args.hosts,
        error_text=error_text,
        since=args.since,
        requester=_user(),
        origin="cli",
        max_hosts=args.max_hosts,
    )
    hosts = inventory.select(request.hosts, max_hosts=request.max_hosts)  # unknown hosts fail before the KB
    _authorize(args, settings, hosts, request.requester)
    kb = open_kb(args)
    db = open_db(args.db or settings.db_path)
    progress = None if args.json or not sys.stderr.isatty() else _progress
    connector = Connector(inventory, connect_timeout=args.connect_timeout)
    report = asyncio.run(
        diagnose(request, inventory=inventory, kb=kb, progress=progress, db=db, connector=connector)
    )
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        print(render(report))
    if any(h.status != "ok" for h in report.hosts):
        return EXIT_HOST_FAILED
    return EXIT_CONFIRMED if any(h.confirmed for h in report.hosts) else 0


def _authorize(args: argparse.Namespace, settings: Settings, hosts: tuple[Host, ...], user: str) -> None:
    """Ask the authorization policy before any collector runs; NotAllowed (exit 4) when refused."""
    from pitstop.app.authz import Policy
    from pitstop.core.errors import NotAllowed

    policy = Policy.load(args.policy or settings.policy_path, audit_db=args.db or settings.db_path)
    decision = policy.authorize(user=user, channel=None, hosts=hosts, origin="cli")
    if not decision.allowed:
        raise NotAllowed(decision.reason)


def _user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _progress(report: HostReport, done: int, total: int) -> None:
    print(
        f"\r[{done}/{total}] {report.host}: {report.status}\033[K",
        end="" if done < total else "\n",
        file=sys.stderr,
        flush=True,
    )


def _host_lines(h: HostReport, sweep: bool) -> list[str]:
    from pitstop.collectors.catalog import display

    if h.status != "ok":
        return [f"{h.host}: {h.status.upper().replace('_', ' ')}: {h.error}"]
    failed = [c for c in h.commands if c.outcome != "ok"]
    state = h.evidence_status
    head = {"unreadable": "COULD NOT BE READ", "partial": "partly read"}.get(state, "ok")
    lines = [f"{h.host}: {head} ({len(h.commands)} commands, {h.duration_s:.2f}s)"]
    if state in ("unreadable", "partial"):
        lines += [f"  not read: {collector}: {why}" for collector, why in h.unread.items()]
    shown = h.confirmed if sweep else h.verdicts
    if sweep and not shown and state != "unreadable":
        lines.append("  nothing confirmed")
    for v in shown:
        lines.append(f"  {_MARK[v.verdict]:<12} {v.pitfall}{' [benign]' if v.benign else ''}: {v.reason}")
        for e in v.evidence:
            shown = display(shlex.split(e.command)) if "\n" in e.command else e.command  # probe code
            lines += [f"      {shown}: {line}" for line in e.lines[:6]]
            if e.rerun:
                lines.append(f"      rerun: {e.rerun}")
    if sweep and h.benign:
        lines.append("  benign: " + ", ".join(v.pitfall for v in h.benign))
    for c in failed:
        lines.append(f"  ! {display(c.argv)}: {c.outcome}: {c.message}")
    return lines


def render(report: DiagnoseReport) -> str:
    """Human-readable report: per host, verdicts with evidence and rerun commands."""
    out: list[str] = []
    if report.candidates:
        out.append("candidates: " + ", ".join(f"{c['id']} ({c['score']:.2f})" for c in report.candidates))
    for h in report.hosts:
        out += _host_lines(h, report.sweep)
    out += [f"note: {n}" for n in report.notes]
    return "\n".join(out)

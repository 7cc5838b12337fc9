"""`pitstop policy check [--user U] [--group G] [--channel C] [--origin O] HOSTS`: would this be allowed?

A dry run of the authorization policy (no rate-limit token is spent). Exit status 0 allowed,
4 refused, 2 bad policy or usage, 3 unknown host.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pitstop.cli.helptext import h
from pitstop.cli.kbargs import add_db_option
from pitstop.cli.output import emit_json, lang_of


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop policy check`."""
    parser = sub.add_parser("policy", help=h("policy.policy"))
    actions = parser.add_subparsers(dest="policy_command", metavar="ACTION")
    check = actions.add_parser("check", help=h("policy.check"))
    check.add_argument("hosts", metavar="HOSTS", help=h("diagnose.hosts"))
    check.add_argument("--user", default=None, help=h("policy.check.user"))
    check.add_argument(
        "--group",
        action="append",
        default=[],
        metavar="G",
        help=h("policy.check.group"),
    )
    check.add_argument("--channel", default=None, help=h("policy.check.channel"))
    check.add_argument(
        "--origin",
        choices=("slack", "console", "cli"),
        default=None,
        help=h("policy.check.origin"),
    )
    check.add_argument("--policy", type=Path, default=None, help=h("policy.check.policy"))
    check.add_argument("--inventory", type=Path, default=None, help=h("console.inventory"))
    check.add_argument("--json", action="store_true", help=h("policy.check.json"))
    add_db_option(check)
    check.set_defaults(func=run)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def run(args: argparse.Namespace) -> int:
    """Print the decision for the request described by the flags."""
    from pitstop.app.authz import Policy
    from pitstop.collectors import inventory as inv
    from pitstop.core.config import load_settings, local_user
    from pitstop.core.errors import NotAllowed

    settings = load_settings()
    policy = Policy.load(args.policy or settings.policy_path, audit_db=args.db or settings.db_path)
    hosts = inv.load(args.inventory or settings.inventory_path).select(args.hosts, max_hosts=100_000)
    origin = args.origin or ("slack" if args.channel else "cli")
    decision = policy.authorize(
        user=args.user or local_user(),
        user_groups=args.group,
        channel=args.channel,
        hosts=hosts,
        origin=origin,
        charge=False,
    )
    if args.json:
        emit_json(
            "policy-decision",
            {
                "allowed": decision.allowed,
                "reason": str(decision.reason),
                "rule": decision.rule,
                "hosts": [h.name for h in hosts],
            },
        )
    else:
        from pitstop.core.i18n import render, t

        lang = lang_of(args)
        key = "cli.policy.allowed" if decision.allowed else "cli.policy.refused"
        print(t(key, lang, reason=render(decision.reason, lang)))
    return 0 if decision.allowed else NotAllowed.exit_code

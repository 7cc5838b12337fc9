"""`pitstop lab up|down|audit|list`: run a simulated fleet of real SSH hosts on 127.0.0.x.

`lab up` also writes a lab-only authorization policy into the lab's state directory (`write_lab_policy`,
shared with `pitstop start`), so the command it suggests is allowed.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pitstop.cli.argtypes import COUNT, PORT
from pitstop.cli.helptext import h
from pitstop.cli.output import lang_of
from pitstop.core.config import local_user, write_private_text
from pitstop.core.i18n import t

if TYPE_CHECKING:
    from pitstop.lab.fleet import Fleet


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop lab` and its sub-commands."""
    parser = sub.add_parser("lab", help=h("lab.lab"))
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help=h("lab.state_dir"),
    )
    actions = parser.add_subparsers(dest="lab_command", metavar="ACTION")
    up = actions.add_parser("up", help=h("lab.up"))
    up.add_argument(
        "scenarios",
        nargs="*",
        type=Path,
        metavar="SCENARIO_DIR",
        help=h("lab.up.scenarios"),
    )
    up.add_argument("--inventory", type=Path, default=None, help=h("lab.up.inventory"))
    up.add_argument("--copies", type=COUNT, default=1, help=h("lab.up.copies"))
    up.add_argument("--port", type=PORT, default=None, help=h("lab.up.port"))
    up.add_argument(
        "--bastion",
        action="store_true",
        help=h("lab.up.bastion"),
    )
    up.set_defaults(func=_up)
    actions.add_parser("down", help=h("lab.down")).set_defaults(func=_down)
    actions.add_parser("audit", help=h("lab.audit")).set_defaults(func=_audit)
    actions.add_parser("list", help=h("lab.list")).set_defaults(func=_list)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def lab_policy(user: str, hosts: Iterable[str]) -> dict[str, Any]:
    """Policy data letting `user`, from the console and the CLI, check exactly these lab hosts."""
    from pitstop.app.authz import DEFAULT_MAX_HOSTS

    names = sorted(hosts)
    return {
        "max_hosts": max(DEFAULT_MAX_HOSTS, len(names)),
        "rules": [{"name": "local lab", "users": [user], "origins": ["console", "cli"], "hosts": names}],
    }


def write_lab_policy(lab: Fleet, user: str) -> Path:
    """Write `lab_policy` for the running lab to `policy.yaml` in its state directory; return the path."""
    path = lab.state_dir / "policy.yaml"
    text = yaml.safe_dump(lab_policy(user, (h.name for h in lab.hosts + lab.chain)), sort_keys=False)
    note = "# written by `pitstop lab up`: lets the local user check the lab hosts only\n"
    write_private_text(path, note + text)
    return path


def _up(args: argparse.Namespace) -> int:
    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_all, shipped_scenarios

    scenarios = load_all(args.scenarios or shipped_scenarios())
    lab = fleet.up(
        scenarios,
        args.state_dir,
        copies=args.copies,
        inventory=args.inventory,
        port=args.port,
        with_bastion=args.bastion,
    )
    user = local_user()
    policy = write_lab_policy(lab, user)
    lang = lang_of(args)
    for host in lab.hosts:
        where = f"{host.address}:{host.port}"
        print(t("cli.lab.host", lang, name=f"{host.name:<28}", where=where, scenario=host.scenario))
    if lab.chain and lab.ssh_config:  # the jump chain is defined in the lab's ssh config
        from pitstop.lab import bastion

        print(bastion.describe(lab.ssh_config).render(lang))
    print(t("cli.lab.up", lang, n=len(lab.hosts), user=lab.user))
    print(t("cli.lab.inventory", lang, path=str(lab.inventory)))
    print(t("cli.lab.known_hosts", lang, path=str(lab.known_hosts)))
    print(t("cli.lab.policy", lang, path=str(policy), user=user))
    env = f"PITSTOP_INVENTORY={shlex.quote(str(lab.inventory))} PITSTOP_POLICY={shlex.quote(str(policy))}"
    print(t("cli.lab.try", lang, command=f"{env} pitstop diagnose {lab.hosts[0].name}"))
    return 0


def _down(args: argparse.Namespace) -> int:
    from pitstop.lab import fleet

    print(t("cli.lab.down", lang_of(args), n=fleet.down(args.state_dir)))
    return 0


def _audit(args: argparse.Namespace) -> int:
    from pitstop.lab import fleet
    from pitstop.lab.audit import read_audit

    for record in read_audit(fleet.audit_path(args.state_dir)):
        print("\n".join(record.lines()))
    return 0


def _list(args: argparse.Namespace) -> int:
    from pitstop.lab.scenario import load_scenario, shipped_scenarios

    for path in shipped_scenarios():
        scenario = load_scenario(path)
        confirmed = ", ".join(scenario.confirmed) or "-"
        print(t("cli.lab.scenario", lang_of(args), name=f"{scenario.name:<28}", confirmed=confirmed))
    return 0

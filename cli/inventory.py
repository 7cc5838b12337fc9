"""`pitstop inventory import FILE` and `pitstop inventory show [HOSTS]`: build and inspect the inventory."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop inventory` and its sub-commands."""
    parser = sub.add_parser("inventory", help="import an Ansible inventory, or show the hosts Pitstop knows")
    actions = parser.add_subparsers(dest="inventory_command", metavar="ACTION")
    imp = actions.add_parser("import", help="convert an Ansible INI/YAML inventory to Pitstop's YAML")
    imp.add_argument("file", type=Path, metavar="FILE")
    imp.add_argument("--out", type=Path, default=None, help="write here instead of standard output")
    imp.set_defaults(func=_import)
    show = actions.add_parser("show", help="list hosts as resolved (address, port, user, jump, groups)")
    show.add_argument("hosts", nargs="?", default=None, metavar="HOSTS", help="names, @groups or ranges")
    show.add_argument(
        "--inventory", type=Path, default=None, help="inventory YAML (default $PITSTOP_INVENTORY)"
    )
    show.set_defaults(func=_show)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def _import(args: argparse.Namespace) -> int:
    from pitstop.collectors import ansible

    text = ansible.to_yaml(ansible.import_inventory(args.file))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


def _show(args: argparse.Namespace) -> int:
    from pitstop.collectors import inventory
    from pitstop.core.config import load_settings

    inv = inventory.load(args.inventory or load_settings().inventory_path)
    hosts = inv.select(args.hosts) if args.hosts else tuple(inv.hosts.values())
    for h in hosts:
        where = "local" if h.is_local else f"{h.user + '@' if h.user else ''}{h.address}:{h.port}"
        jump = f" via {h.jump}" if h.jump and h.jump.lower() != "none" else ""
        print(
            f"{h.name:<24} {where}{jump}  groups={','.join(h.groups) or '-'}"
            + (f"  expect={dict(h.expect)}" if h.expect else "")
        )
    return 0

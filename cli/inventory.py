"""`pitstop inventory import FILE` and `pitstop inventory show [--json] [HOSTS]`: build and inspect it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pitstop.cli.helptext import h
from pitstop.cli.output import emit_json, lang_of
from pitstop.core.config import local_user
from pitstop.core.terminal import printable


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop inventory` and its sub-commands."""
    parser = sub.add_parser("inventory", help=h("inventory.inventory"))
    actions = parser.add_subparsers(dest="inventory_command", metavar="ACTION")
    imp = actions.add_parser(
        "import",
        help=h("inventory.import"),
    )
    imp.add_argument("file", type=Path, metavar="FILE", help=h("inventory.imp.file"))
    imp.add_argument("--out", type=Path, default=None, help=h("inventory.imp.out"))
    imp.add_argument(
        "--reader",
        choices=("auto", "ansible", "builtin"),
        default="auto",
        help=h("inventory.imp.reader"),
    )
    imp.set_defaults(func=_import)
    show = actions.add_parser(
        "show",
        help=h("inventory.show"),
    )
    show.add_argument("hosts", nargs="?", default=None, metavar="HOSTS", help=h("inventory.show.hosts"))
    show.add_argument("--inventory", type=Path, default=None, help=h("console.inventory"))
    show.add_argument("--json", action="store_true", help=h("inventory.show.json"))
    show.set_defaults(func=_show)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def _import(args: argparse.Namespace) -> int:
    from pitstop.collectors import ansible
    from pitstop.core.i18n import render, t

    lang = lang_of(args)
    use = {"auto": None, "ansible": True, "builtin": False}[args.reader]
    result = ansible.import_inventory(args.file, use_ansible=use)
    for warning in result.warnings:
        print(t("inventory.warning", lang, text=printable(render(warning, lang))), file=sys.stderr)
    text = ansible.to_yaml(result.data)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(
            t(
                "inventory.written",
                lang,
                count=len(result.data["hosts"]),
                path=printable(str(args.out)),
                reader=result.reader,
            ),
            file=sys.stderr,
        )
    else:
        print(text, end="")
    return 0


def describe(inv: Any, host: Any, lang: str = "en") -> dict[str, Any]:
    """The resolved connection parameters of `host`, as `inventory show --json` prints them."""
    from pitstop.core.errors import PitstopError

    out: dict[str, Any] = {
        "name": host.name,
        "transport": host.transport,
        "address": host.address,
        "port": host.port,
        "user": host.user,
        "jump_chain": [],
        "proxy_command": host.proxy_command,
        "identity_files": list(host.identity_files),
        "known_hosts": [] if host.is_local else list(inv.known_hosts_files(host)),
        "groups": list(host.groups),
        "expect": dict(host.expect),
        "origins": dict(host.origins),
        "notes": [n.render(lang) for n in host.notes],
    }
    if inv.known_hosts and not host.is_local:
        out["origins"]["user_known_hosts"] = "inventory"
    try:
        out["jump_chain"] = [
            {"name": h.name, "address": h.address, "port": h.port, "user": h.user}
            for h in inv.jump_chain(host)
        ]
    except PitstopError as exc:
        out["jump_error"] = str(exc)
    return out


def _origin(origin: str | None, lang: str) -> str:
    """An origin label (see collectors/inventory.py) in the reader's language."""
    from pitstop.core.i18n import t

    if not origin:
        return ""
    if origin.startswith("ssh config "):
        return t("inventory.origin.ssh_config", lang, where=origin.removeprefix("ssh config "))
    if origin.startswith("imported: "):
        return t("inventory.origin.imported", lang, source=origin.removeprefix("imported: "))
    return t(
        {"inventory defaults": "inventory.origin.defaults", "default": "inventory.origin.default"}.get(
            origin, "inventory.origin.inventory"
        ),
        lang,
    )


def _text(d: dict[str, Any], lang: str) -> list[str]:
    from pitstop.core.i18n import t

    o = d["origins"]
    if d["transport"] == "local":
        return [d["name"], f"  {t('inventory.local', lang)}"]
    rows = [
        ("address", d["address"], o.get("address")),
        ("port", str(d["port"]), o.get("port")),
        ("user", d["user"] or t("inventory.local_user", lang, user=local_user()), o.get("user")),
        (
            "jump",
            " -> ".join(f"{j['name']} ({j['address']}:{j['port']})" for j in d["jump_chain"])
            or d.get("jump_error")
            or t("inventory.direct", lang),
            o.get("jump"),
        ),
        (
            "identity",
            ", ".join(d["identity_files"]) or t("inventory.default_keys", lang),
            o.get("identity_files"),
        ),
        ("known_hosts", ", ".join(d["known_hosts"]), o.get("user_known_hosts")),
    ]
    if d["proxy_command"]:
        rows.append(("proxy_command", d["proxy_command"], o.get("proxy_command")))
    if d["groups"]:
        rows.append(("groups", ", ".join(d["groups"]), None))
    if d["expect"]:
        rows.append(("expect", ", ".join(f"{k}={v}" for k, v in d["expect"].items()), None))
    rows += [("note", note, None) for note in d["notes"]]
    lines = [d["name"]]
    for label, value, origin in rows:
        name = t(f"inventory.field.{label}", lang)
        where = _origin(origin, lang)
        lines.append(f"  {name:<16} {value}" + (f"   [{where}]" if where else ""))
    return lines


def _show(args: argparse.Namespace) -> int:
    from pitstop.collectors import inventory
    from pitstop.core.config import load_settings
    from pitstop.core.errors import UsageError
    from pitstop.core.i18n import msg

    lang = lang_of(args)
    path = args.inventory or load_settings().inventory_path
    if path is None:
        raise UsageError(msg("inventory.none"))
    inv = inventory.load(path)
    hosts = inv.select(args.hosts, max_hosts=100_000) if args.hosts else tuple(inv.hosts.values())
    if not hosts:
        raise UsageError(msg("inventory.empty", source=inv.source))
    described = [describe(inv, h, "en" if args.json else lang) for h in hosts]
    if args.json:
        emit_json("inventory", {"inventory": inv.source, "hosts": described})
    else:
        print("\n\n".join("\n".join(_text(d, lang)) for d in described))
    return 0

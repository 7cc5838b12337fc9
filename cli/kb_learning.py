"""The learning actions of `pitstop kb`: drafts, approve, edit, reject, import, and `export --learned`.

`pitstop.commands.kb` calls `register_actions` and hands `export --learned` to `run_export_learned`.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.helptext import h
from pitstop.cli.kbargs import add_db_option, open_kb
from pitstop.cli.output import emit_json, lang_of
from pitstop.core.config import local_user

if TYPE_CHECKING:
    import sqlite_utils


def register_actions(actions: argparse._SubParsersAction) -> None:
    """Add drafts, approve, edit, reject and import to `pitstop kb`."""
    drafts = actions.add_parser("drafts", help=h("kb_learning.drafts"))
    drafts.add_argument("--all", action="store_true", help=h("kb_learning.drafts.all"))
    drafts.add_argument("--json", action="store_true", help=h("kb_learning.drafts.json"))
    drafts.set_defaults(func=run_drafts)
    approve = actions.add_parser("approve", help=h("kb_learning.approve"))
    approve.add_argument("id", help=h("kb_learning.approve.id"))
    approve.add_argument("--dir", type=Path, default=None, help=h("kb_learning.approve.dir"))
    approve.set_defaults(func=run_approve)
    edit = actions.add_parser("edit", help=h("kb_learning.edit"))
    edit.add_argument("id", help=h("kb_learning.approve.id"))
    for name in ("title", "title_zh", "layer", "severity", "summary", "summary_zh", "cause"):
        edit.add_argument(f"--{name.replace('_', '-')}", dest=name, help=h(f"kb_learning.edit.{name}"))
    for name in ("symptom", "signature", "fix", "reference"):
        edit.add_argument(
            f"--{name}",
            dest=f"{name}s" if name != "fix" else "fix",
            action="append",
            help=h("kb_learning.edit.list", field=name),
        )
    edit.set_defaults(func=run_edit)
    reject = actions.add_parser("reject", help=h("kb_learning.reject"))
    reject.add_argument("id", help=h("kb_learning.approve.id"))
    reject.set_defaults(func=run_reject)
    load = actions.add_parser("import", help=h("kb_learning.import"))
    load.add_argument("file", type=Path, help=h("kb_learning.load.file"))
    load.set_defaults(func=run_import)
    for action in (drafts, approve, edit, reject, load):
        add_db_option(action)
        action.add_argument("--user", default=None, help=h("kb_learning.action.user"))


def add_export_options(export: argparse.ArgumentParser) -> None:
    """`--learned` and `--origin` for `pitstop kb export`."""
    export.add_argument(
        "--learned",
        action="store_true",
        help=h("kb_learning.export.learned"),
    )
    export.add_argument("--origin", default=None, help=h("kb_learning.export.origin"))


def _user(args: argparse.Namespace) -> str:
    return args.user or f"cli:{local_user()}"


def _db(args: argparse.Namespace) -> sqlite_utils.Database:
    from pitstop.core.config import load_settings
    from pitstop.core.db import open_db

    return open_db(args.db or load_settings().db_path)


def run_export_learned(args: argparse.Namespace) -> int:
    """Print the learned bundle as JSON."""
    from pitstop.incidents.exchange import export_learned

    bundle = export_learned(_db(args), origin=args.origin or socket.gethostname())
    emit_json("learned-bundle", bundle)
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Import a learned bundle."""
    from pitstop.incidents.exchange import import_learned, read_bundle

    bundle = read_bundle(args.file)
    kb = open_kb(args)
    print(import_learned(kb, kb.db, bundle).sentence().render(lang_of(args)))
    return 0


def run_drafts(args: argparse.Namespace) -> int:
    """List drafts and merge proposals."""
    from pitstop.core.i18n import t
    from pitstop.incidents.drafts import list_drafts

    found = list_drafts(_db(args), status=None if args.all else "draft")
    if args.json:
        emit_json("drafts", {"drafts": [d.to_json() for d in found]})
        return 0
    lang = lang_of(args)
    for d in found:
        what = (
            t("cli.drafts.merge", lang, target=d.target_id, similarity=f"{d.similarity:.2f}")
            if d.kind == "merge"
            else t("cli.drafts.new", lang)
        )
        status = t(f"cli.drafts.status.{d.status}", lang)
        print(
            t(
                "cli.drafts.row",
                lang,
                id=d.id,
                status=status,
                what=what,
                title=d.title,
                incident=d.incident_id,
                by=d.created_by,
            )
        )
    print(t("cli.drafts.count", lang, n=len(found)))
    return 0


def run_approve(args: argparse.Namespace) -> int:
    """Approve a draft or merge proposal."""
    from pitstop.incidents import drafts

    kb = open_kb(args)
    extra = {"directory": args.dir} if args.dir else {}
    print(drafts.approve(kb, kb.db, args.id, user=_user(args), **extra).render(lang_of(args)))
    return 0


def run_edit(args: argparse.Namespace) -> int:
    """Edit a draft's fields."""
    from pitstop.core.errors import UsageError
    from pitstop.core.i18n import msg
    from pitstop.incidents import drafts

    fields = (*drafts.EDITABLE_TEXT, *drafts.EDITABLE_LISTS)
    changes = {name: getattr(args, name) for name in fields if getattr(args, name, None) is not None}
    if not changes:
        raise UsageError(msg("errors.cli.nothing_to_change"))

    kb = open_kb(args)
    entry = drafts.edit(kb, kb.db, args.id, changes)
    from pitstop.core.i18n import t

    print(t("cli.drafts.edited", lang_of(args), id=entry.id, fields=", ".join(sorted(changes))))
    return 0


def run_reject(args: argparse.Namespace) -> int:
    """Reject a draft or merge proposal."""
    from pitstop.incidents import drafts

    kb = open_kb(args)
    print(drafts.reject(kb, kb.db, args.id, user=_user(args)).render(lang_of(args)))
    return 0

"""`pitstop console`: the bot in a terminal (paste errors, /diagnose, buttons as commands)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.helptext import h

if TYPE_CHECKING:
    from pitstop.app.authz import Policy
    from pitstop.core.config import Settings


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop console`."""
    parser = sub.add_parser("console", help=h("console.console"))
    parser.add_argument("--inventory", type=Path, default=None, help=h("console.inventory"))
    parser.add_argument("--policy", type=Path, default=None, help=h("console.policy"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open the services named by the settings (and flags) and run the console on stdin."""
    from dataclasses import replace

    from pitstop.core.config import load_settings

    settings = load_settings()
    if args.inventory:
        settings = replace(settings, inventory_path=args.inventory)
    if args.policy:
        settings = replace(settings, policy_path=args.policy)
    return console(settings, lang=getattr(args, "lang", None))


def console(settings: Settings, policy: Policy | None = None, lang: str | None = None) -> int:
    """Run the console for `settings` on stdin/stdout (also used by `pitstop start`); `lang` (`--lang`)
    is stored as the user's choice, as `:lang` would."""
    from pitstop.app.services import open_services
    from pitstop.bot.console import Console
    from pitstop.core.i18n import resolve_lang, t

    interactive = sys.stdin.isatty()
    if interactive:
        print(t("cli.console.loading", resolve_lang(None, lang)), flush=True)
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="strict")  # binary input fails loudly below, not as lone surrogates
    services = open_services(settings, policy=policy)
    try:
        shell = Console(services, sys.stdout, lang=lang)
        if interactive and sys.stdout.isatty():
            shell.interactive(history=str(settings.db_path.parent / "console_history"))
        else:
            shell.run(sys.stdin, prompt=interactive)
    except UnicodeDecodeError:  # binary piped in: one sentence, exit 5, not a traceback
        from pitstop.core.errors import BadFile
        from pitstop.core.i18n import msg

        raise BadFile(msg("security.file.binary", what=msg("security.what.stdin"), path="-")) from None
    finally:
        services.close()
    return 0

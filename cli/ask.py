"""`pitstop ask [--json] [--top N] [--file F] TEXT`: the known root causes that fit a pasted error."""

from __future__ import annotations

import argparse
import shutil
import sys

from pitstop.cli import ask_server
from pitstop.cli.argtypes import COUNT
from pitstop.cli.helptext import h
from pitstop.cli.kbargs import MODES, add_db_option, add_text_options, db_path, text_of
from pitstop.core.terminal import printable


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `ask` sub-command."""
    parser = sub.add_parser(
        "ask",
        help=h("ask.ask"),
        description=h("ask.ask.description"),
    )
    add_text_options(parser)
    parser.add_argument("--json", action="store_true", help=h("ask.json"))
    parser.add_argument("--top", type=COUNT, default=5, metavar="N", help=h("ask.top"))
    parser.add_argument("--mode", choices=MODES, default="hybrid", help=argparse.SUPPRESS)
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer one paste through the ask use case (`app.ask`), as text or JSON: from the warm server of
    this KB when one is running (`cli.ask_server`), else in this process, which then starts one."""
    from pitstop.core.config import load_settings

    request = ask_server.Request(
        text=text_of(args),
        lang=getattr(args, "lang", None),
        top=max(1, args.top),
        mode=args.mode,
        json=args.json,
        verbose=getattr(args, "verbose", False),
        width=max(40, min(110, shutil.get_terminal_size((100, 24)).columns)),
    )
    settings = load_settings()
    db = db_path(args, settings)
    reply = ask_server.answer(db, request) if settings.ask_server else None
    if reply is not None:
        sys.stdout.write(reply.stdout)
        sys.stderr.write(printable(reply.stderr))
        return reply.status
    from pitstop.kb.service import KnowledgeBase

    sys.stdout.write(ask_server.answer_output(KnowledgeBase.open(db), request))
    if settings.ask_server:
        sys.stdout.flush()  # the answer first; the server loads while the person reads it
        ask_server.start(db, settings.ask_server_idle_s)
    return 0

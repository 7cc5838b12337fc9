"""`pitstop ask [--json] [--top N] [--file F] TEXT`: the known root causes that fit a pasted error."""

from __future__ import annotations

import argparse
import shutil

from pitstop.cli.argtypes import COUNT
from pitstop.cli.helptext import h
from pitstop.cli.kbargs import MODES, add_db_option, add_text_options, open_kb, text_of
from pitstop.cli.output import emit_json
from pitstop.core.redact import redact_data


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
    """Answer one paste through the ask use case (`app.ask`), as text or JSON."""
    from pitstop.app.ask import ask
    from pitstop.app.render import answer_text
    from pitstop.core.i18n import resolve_lang

    text = text_of(args)
    lang = resolve_lang(text, getattr(args, "lang", None))
    answer, card = ask(open_kb(args), text, lang=lang, top=max(1, args.top), mode=args.mode)
    if args.json:  # the answer quotes the paste (its query, the text a signature matched): masked
        emit_json("ask", redact_data(answer.to_json(lang)))
    else:
        width = max(40, min(110, shutil.get_terminal_size((100, 24)).columns))
        print(answer_text(card, verbose=getattr(args, "verbose", False), width=width))
    return 0

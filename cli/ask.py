"""`pitstop ask [--json] [--top N] [--file F] TEXT`: the known root causes that fit a pasted error."""

from __future__ import annotations

import argparse
import shutil
import textwrap
from typing import TYPE_CHECKING

from pitstop.cli.argtypes import COUNT
from pitstop.cli.kbargs import MODES, add_db_option, add_text_options, open_kb, text_of
from pitstop.cli.output import emit_json
from pitstop.core.redact import redact, redact_data

if TYPE_CHECKING:
    from pitstop.kb.retrieve import Answer, Match


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `ask` sub-command."""
    parser = sub.add_parser(
        "ask",
        help="find known root causes for an error message or log",
        description="Find the known root causes that fit an error message or log, best first, and say why.",
    )
    add_text_options(parser)
    parser.add_argument(
        "--json", action="store_true", help="print the answer as JSON (pitstop.ask/1, docs/JSON.md)"
    )
    parser.add_argument("--top", type=COUNT, default=5, metavar="N", help="how many causes (default 5)")
    parser.add_argument("--mode", choices=MODES, default="hybrid", help=argparse.SUPPRESS)
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer one paste."""
    from pitstop.core.i18n import resolve_lang

    text = text_of(args)
    answer = open_kb(args).ask(text, top=max(1, args.top), mode=args.mode)
    lang = resolve_lang(text, getattr(args, "lang", None))
    # The answer quotes the paste (its query, the text a signature matched): mask it like every sink.
    if args.json:
        emit_json("ask", redact_data(answer.to_json(lang)))
    else:
        print(redact(render(answer, lang, verbose=getattr(args, "verbose", False))))
    return 0


def _wrap(text: str, width: int, indent: str = "   ") -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ") or [indent]


def _match_lines(rank: int, match: Match, lang: str, width: int, verbose: bool) -> list[str]:
    from pitstop.core.i18n import t

    zh = lang == "zh"
    title = match.title_zh if zh and match.title_zh else match.title
    summary = match.summary_zh if zh and match.summary_zh else match.summary
    fix = match.fix_zh if zh and match.fix_zh else match.fix
    flags = "".join(
        f" [{t(f'cli.ask.flag.{name}', lang)}]"
        for name, on in (("draft", match.draft), ("benign", match.benign))
        if on
    )
    confidence = t(f"common.confidence.{match.confidence}", lang)
    lines = [f"{rank}. {title}{flags}"]
    lines += _wrap(
        t(
            "cli.ask.meta",
            lang,
            id=match.id,
            score=f"{match.score:.2f}",
            confidence=confidence,
            layer=match.layer,
        ),
        width,
    )
    lines += _wrap(summary, width)[:4]
    for reason in match.reasons_in(lang):
        lines += _wrap(t("cli.ask.why", lang, reason=reason), width)
    for ref in match.checks[:2] if verbose else ():
        from pitstop.collectors.checks.registry import CHECKS  # 0.3 s of imports: only when shown

        spec = CHECKS.get(ref.check)
        words = (ref.describe.get(lang) or ref.describe.get("en")) if ref.describe else None
        lines += _wrap(
            t("cli.ask.check", lang, description=words or (spec.description(lang) if spec else ref.check)),
            width,
        )
    if fix:
        lines += _wrap(t("cli.ask.fix", lang, step=fix), width)
    if verbose:
        lines += [f"   {t('cli.ask.details', lang, detail=detail)}" for detail in match.why]
    return lines


def render(answer: Answer, lang: str | None = None, verbose: bool = False, width: int | None = None) -> str:
    """The answer for a terminal: rank, title, confidence, why in words, first fix step (`verbose`: the
    checks and the signals behind the ranking). Lines wrap to the terminal's width."""
    from pitstop.core.i18n import t

    lang = lang or answer.lang
    width = width or max(40, min(110, shutil.get_terminal_size((100, 24)).columns))
    out: list[str] = []
    if not answer.confident:
        out.append(t("cli.ask.no_confident", lang))
    if answer.truncated:
        out.append(t("cli.ask.truncated", lang))
    for rank, match in enumerate(answer.results, start=1):
        out += _match_lines(rank, match, lang, width, verbose)
        out.append("")
    return "\n".join(out).rstrip()

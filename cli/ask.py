"""`pitstop ask [--json] [--top N] TEXT`: the known root causes that fit a pasted error."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import TYPE_CHECKING

from pitstop.cli.kbargs import MODES, add_db_option, open_kb, read_text
from pitstop.core.redact import redact, redact_data

if TYPE_CHECKING:
    from pitstop.kb.retrieve import Answer, Match


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `ask` sub-command."""
    parser = sub.add_parser(
        "ask",
        help="find known root causes for an error message or log",
        description="Find known root causes for an error message or log ('-' reads stdin).",
    )
    parser.add_argument("text", nargs="+", metavar="TEXT", help="the error text, or - to read stdin")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--top", type=int, default=5, metavar="N", help="how many causes (default 5)")
    parser.add_argument("--mode", choices=MODES, default="hybrid", help=argparse.SUPPRESS)
    add_db_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer one paste."""
    text = read_text(args.text)
    answer = open_kb(args).ask(text, top=max(1, args.top), mode=args.mode)
    # The answer quotes the paste (its query, the text a signature matched): mask it like every sink.
    if args.json:
        print(json.dumps(redact_data(answer.to_json()), ensure_ascii=False, indent=2))
    else:
        print(redact(render(answer)))
    return 0


def _match_lines(rank: int, match: Match, zh: bool) -> list[str]:
    title = match.title_zh if zh and match.title_zh else match.title
    summary = match.summary_zh if zh and match.summary_zh else match.summary
    flags = "".join((" [draft]" if match.draft else "", " [benign]" if match.benign else ""))
    lines = [
        f"{rank}. {title}{flags}",
        f"   {match.id} · score {match.score:.2f} · {match.confidence} confidence · {match.layer}",
    ]
    lines += textwrap.wrap(summary, 100, initial_indent="   ", subsequent_indent="   ")[:3]
    lines += [f"   why: {why}" for why in match.why[:3]]
    if match.fix:
        lines.append(f"   {'先做' if zh else 'first step'}: {match.fix}")
    return lines


def render(answer: Answer) -> str:
    """Human-readable answer: rank, title, score and confidence, why, first fix step."""
    zh = answer.lang == "zh"
    out: list[str] = []
    if not answer.confident:
        out.append(
            "没有可信的匹配；下面是较弱的猜测："
            if zh
            else "No confident match in the knowledge base; weak guesses follow:"
        )
    if answer.truncated:
        out.append("(long paste: only its error-bearing lines were searched)")
    for rank, match in enumerate(answer.results, start=1):
        out += _match_lines(rank, match, zh)
        out.append("")
    return "\n".join(out).rstrip()

"""`pitstop eval ...`: measure Pitstop against labelled cases.

Each evaluation is one entry of `EVALUATIONS`: a name and a function that adds its parser.
`eval retrieval FILE.jsonl [--json] [--mode hybrid|dense|lexical|signature|all]` reports recall@1,
recall@3 and MRR overall and per language, and lists the misses; `--mode all` puts every mode
side by side. Off-topic cases (`"slugs": []`) are right when the answer is not confident: their
accuracy is a line of its own.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.eval_learning import add_learning
from pitstop.cli.kbargs import MODES, add_db_option, open_kb

if TYPE_CHECKING:
    from pitstop.kb.evaluate import Report


def register(sub: argparse._SubParsersAction) -> None:
    """Add `eval` and one sub-command per evaluation."""
    parser = sub.add_parser("eval", help="measure retrieval (and later learning) on labelled cases")
    kinds = parser.add_subparsers(dest="eval_kind", metavar="KIND", required=True)
    for _name, add in EVALUATIONS:
        add(kinds)


def _add_retrieval(kinds: argparse._SubParsersAction) -> None:
    parser = kinds.add_parser("retrieval", help="recall@1, recall@3 and MRR of `ask` on a JSONL case file")
    parser.add_argument("file", type=Path, metavar="FILE.jsonl")
    parser.add_argument("--json", action="store_true", help="print JSON (with every case's top 10 ids)")
    parser.add_argument(
        "--mode",
        choices=(*MODES, "all"),
        default="hybrid",
        help="retrieval mode, or 'all' for every mode side by side",
    )
    add_db_option(parser)
    parser.set_defaults(func=run_retrieval)


def run_retrieval(args: argparse.Namespace) -> int:
    """Evaluate one mode (or all) over the case file."""
    from pitstop.kb.evaluate import RANK_DEPTH, evaluate, load_cases

    cases = load_cases(args.file)
    kb = open_kb(args)
    modes = MODES if args.mode == "all" else (args.mode,)
    reports = [
        evaluate(
            cases,
            lambda q, m=mode: [r.id for r in kb.ask(q, top=RANK_DEPTH, mode=m).results],
            mode,
            confident=lambda q, m=mode: kb.ask(q, mode=m).confident,
        )
        for mode in modes
    ]
    if args.json:
        data = reports[0].to_json()
        if len(reports) > 1:
            data["modes"] = {r.mode: {k: v for k, v in r.to_json().items() if k != "cases"} for r in reports}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(render(reports))
    return 0


def render(reports: list[Report]) -> str:
    """A side-by-side table of the modes, then the first mode's misses."""
    langs = sorted({lang for r in reports for lang in r.by_lang()})
    header = f"{'mode':10} {'n':>4} {'R@1':>6} {'R@3':>6} {'MRR':>6}" + "".join(
        f" {lang + ' R@1':>8} {lang + ' R@3':>8}" for lang in langs
    )
    lines = [header]
    for report in reports:
        o, per = report.overall, report.by_lang()
        row = f"{report.mode:10} {o.n:>4} {o.recall_at_1:>6.3f} {o.recall_at_3:>6.3f} {o.mrr:>6.3f}"
        for lang in langs:
            m = per.get(lang)
            row += f" {m.recall_at_1:>8.3f} {m.recall_at_3:>8.3f}" if m else f" {'-':>8} {'-':>8}"
        lines.append(row)
    if reports[0].off_topic.n:
        lines.append(
            "off-topic (not confident): "
            + ", ".join(
                f"{r.mode} {r.off_topic.correct}/{r.off_topic.n} ({r.off_topic.accuracy:.3f})"
                for r in reports
            )
        )
    misses = reports[0].misses()
    lines.append(f"\n{reports[0].mode} misses (not in the top 3; off-topic but confident): {len(misses)}")
    for miss in misses:
        if miss.case.off_topic:
            lines.append(
                f"  {miss.case.id} [{miss.case.lang}] off-topic, answered confidently: {miss.ranked[0]}"
            )
            continue
        where = f"rank {miss.rank}" if miss.rank else "not in top 10"
        lines.append(
            f"  {miss.case.id} [{miss.case.lang}] want {', '.join(miss.case.slugs)} ({where}); "
            f"got {', '.join(miss.ranked[:3])}"
        )
    return "\n".join(lines)


EVALUATIONS: tuple[tuple[str, Callable[[argparse._SubParsersAction], None]], ...] = (
    ("retrieval", _add_retrieval),
    ("learning", add_learning),
)

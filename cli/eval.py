"""`pitstop eval ...`: measure Pitstop against labelled cases.

Each evaluation is one entry of `EVALUATIONS`: a name and a function that adds its parser.
`eval retrieval FILE.jsonl [--json] [--mode hybrid|dense|lexical|signature|all] [--baseline bm25]`
reports recall@1, recall@3 and MRR overall, per language and per origin (English, real Chinese
post, Chinese from English, pure Chinese), and lists the misses; `--mode all` puts every mode side
by side and `--baseline bm25` adds a plain BM25 over the same KB text (`kb.baseline`) beside every
figure. Cases whose cause is not in the KB (`"slugs": []`) are right when the answer is "no
confident match": their share is a line of its own, as is the precision of "high" answers.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.eval_learning import add_learning
from pitstop.cli.helptext import h
from pitstop.cli.kbargs import MODES, add_db_option, open_kb
from pitstop.cli.output import emit_json, lang_of

if TYPE_CHECKING:
    from pitstop.kb.evaluate import Report


def register(sub: argparse._SubParsersAction) -> None:
    """Add `eval` and one sub-command per evaluation."""
    parser = sub.add_parser("eval", help=h("eval.eval"))
    kinds = parser.add_subparsers(dest="eval_kind", metavar="KIND", required=True)
    for _name, add in EVALUATIONS:
        add(kinds)


def _add_retrieval(kinds: argparse._SubParsersAction) -> None:
    parser = kinds.add_parser("retrieval", help=h("eval.retrieval"))
    parser.add_argument("file", type=Path, metavar="FILE.jsonl", help=h("eval.file"))
    parser.add_argument("--json", action="store_true", help=h("eval.json"))
    parser.add_argument(
        "--mode",
        choices=(*MODES, "all"),
        default="hybrid",
        help=h("eval.mode"),
    )
    parser.add_argument("--baseline", choices=("bm25",), default=None, help=h("eval.baseline"))
    add_db_option(parser)
    parser.set_defaults(func=run_retrieval)


def run_retrieval(args: argparse.Namespace) -> int:
    """Evaluate one mode (or all) over the case file."""
    from pitstop.kb.baseline import BM25
    from pitstop.kb.evaluate import RANK_DEPTH, Ranked, evaluate, load_cases

    cases = load_cases(args.file)
    kb = open_kb(args)
    modes = MODES if args.mode == "all" else (args.mode,)

    def ranked(query: str, mode: str) -> Ranked:
        answer = kb.ask(query, top=RANK_DEPTH, mode=mode)
        label = answer.results[0].confidence if answer.results else ""
        return Ranked(tuple(r.id for r in answer.results), label)

    reports = [evaluate(cases, functools.partial(ranked, mode=mode), mode) for mode in modes]
    if args.baseline == "bm25":
        bm25 = BM25.from_db(kb.db)
        reports.append(evaluate(cases, lambda q: Ranked(tuple(bm25.rank(q, RANK_DEPTH)), ALWAYS), "bm25"))
    if args.json:
        data = reports[0].to_json()
        if len(reports) > 1:
            data["modes"] = {r.mode: {k: v for k, v in r.to_json().items() if k != "cases"} for r in reports}
        emit_json("eval", data)
    else:
        print(render(reports, lang_of(args)))
    return 0


ALWAYS = "always"  # the baseline's "confidence": it always answers, and never says "high"


def _cells(report: Report, group: str) -> str:
    m = report.overall if group == "all" else {**report.by_lang(), **report.by_origin()}.get(group)
    if m is None or not m.n:
        return f" {'-':>6} {'-':>6} {'-':>6}"
    return f" {m.recall_at_1:>6.3f} {m.recall_at_3:>6.3f} {m.mrr:>6.3f}"


def render(reports: list[Report], lang: str = "en") -> str:
    """One row per group (all, each language, each origin), each mode's R@1/R@3/MRR side by side,
    then the not-in-KB share, "high" precision and the first mode's misses, in `lang`."""
    from pitstop.core.i18n import t

    first = reports[0]
    groups = ["all", *first.by_lang(), *(g for g in first.by_origin() if g not in first.by_lang())]
    header = f"{t('cli.eval.group', lang):11} {'n':>4}" + f" {'R@1':>6} {'R@3':>6} {'MRR':>6}" * len(reports)
    lines = [header]
    for group in groups:
        n = first.overall.n if group == "all" else {**first.by_lang(), **first.by_origin()}[group].n
        lines.append(f"{group:11} {n:>4}" + "".join(_cells(r, group) for r in reports))
    if first.off_topic.n:
        shares = ", ".join(
            f"{r.mode} {r.off_topic.correct}/{r.off_topic.n} ({r.off_topic.accuracy:.3f})" for r in reports
        )
        lines.append(t("cli.eval.off_topic", lang, shares=shares))
    lines.append(t("cli.eval.columns", lang, columns=" | ".join(f"{r.mode} R@1 R@3 MRR" for r in reports)))
    right, answered = first.high_precision
    if any(r.results and r.results[0].confidence != ALWAYS for r in reports):
        lines.append(
            t("cli.eval.high", lang, right=right, answered=answered, share=f"{right / answered:.3f}")
            if answered
            else t("cli.eval.high_none", lang)
        )
    misses = reports[0].misses()
    lines.append("\n" + t("cli.eval.misses", lang, mode=reports[0].mode, n=len(misses)))
    for miss in misses:
        case = f"{miss.case.id} [{miss.case.lang}]"
        if miss.case.off_topic:
            lines.append(t("cli.eval.miss_off_topic", lang, case=case, got=miss.ranked[0]))
            continue
        where = t("cli.eval.rank", lang, rank=miss.rank) if miss.rank else t("cli.eval.not_ranked", lang)
        want, got = ", ".join(miss.case.slugs), ", ".join(miss.ranked[:3])
        lines.append(t("cli.eval.miss", lang, case=case, want=want, where=where, got=got))
    return "\n".join(lines)


EVALUATIONS: tuple[tuple[str, Callable[[argparse._SubParsersAction], None]], ...] = (
    ("retrieval", _add_retrieval),
    ("learning", add_learning),
)

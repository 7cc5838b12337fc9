"""`pitstop eval learning TRAIN.jsonl TEST.jsonl [--json]` (or `--split FILE.jsonl`).

TRAIN cases with `"slugs": ["new:KEY"]` and a `"new_cause"` object are resolved through the new-cause
path; TEST cases with `new:KEY` are hits when KEY's draft is ranked (incidents.learning_eval).

Builds a knowledge base in a temporary database, measures TEST, resolves every TRAIN case through
`Incidents.resolve` (the Slack resolution path) as a maintainer would (`--as-member`: as one channel
member who is not, whose resolutions are not vouched for), and measures TEST again. `--split FILE` makes the
TRAIN/TEST halves per cause from one case file (`kb.learning_eval.split_half`); `--write-split DIR`
saves them as train.jsonl and test.jsonl.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from pitstop.cli.helptext import h
from pitstop.cli.output import emit_json, lang_of
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg


def add_learning(kinds: argparse._SubParsersAction) -> None:
    """Add `eval learning`."""
    parser = kinds.add_parser("learning", help=h("eval_learning.learning"))
    parser.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="TRAIN.jsonl TEST.jsonl",
        help=h("eval_learning.files"),
    )
    parser.add_argument(
        "--split",
        type=Path,
        metavar="FILE.jsonl",
        help=h("eval_learning.split"),
    )
    parser.add_argument("--write-split", type=Path, metavar="DIR", help=h("eval_learning.write_split"))
    parser.add_argument("--as-member", action="store_true", help=h("eval_learning.as_member"))
    parser.add_argument("--json", action="store_true", help=h("eval_learning.json"))
    parser.set_defaults(func=run_learning)


def _cases(args: argparse.Namespace) -> tuple[list, list]:
    from pitstop.incidents.learning_eval import split_half
    from pitstop.kb.evaluate import load_cases

    if args.split and not args.files:
        return split_half(load_cases(args.split))
    if len(args.files) == 2 and not args.split:
        return load_cases(args.files[0]), load_cases(args.files[1])
    raise UsageError(msg("errors.cli.learning_files"))


def _write(path: Path, cases: list) -> None:
    path.write_text(
        "".join(
            json.dumps(
                {
                    "id": c.id,
                    "lang": c.lang,
                    "query": c.query,
                    "slugs": list(c.slugs),
                    **({"new_cause": dict(c.new_cause)} if c.new_cause else {}),
                },
                ensure_ascii=False,
            )
            + "\n"
            for c in cases
        ),
        encoding="utf-8",
    )


def run_learning(args: argparse.Namespace) -> int:
    """Run the learning evaluation in a temporary database and print before/after."""
    from pitstop.core.db import open_db
    from pitstop.incidents.learning_eval import run
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase

    train, test = _cases(args)
    if args.write_split:
        args.write_split.mkdir(parents=True, exist_ok=True)
        _write(args.write_split / "train.jsonl", train)
        _write(args.write_split / "test.jsonl", test)
    with tempfile.TemporaryDirectory(prefix="pitstop-eval-learning-") as tmp:
        kb = KnowledgeBase.open(Path(tmp) / "eval.db")
        report = run(kb, Incidents(open_db(kb.db_path), kb=kb), train, test, vouched=not args.as_member)
        kb.close()
    if args.json:
        emit_json("eval-learning", report.to_json())
        return 0
    from pitstop.core.i18n import t

    lang = lang_of(args)
    skipped = len(report.skipped)
    print(
        t(
            "cli.learning.train",
            lang,
            train=report.train,
            learned=report.learned,
            skipped=skipped,
            test=report.before.n,
        )
    )
    for key, m in (("cli.learning.before", report.before), ("cli.learning.after", report.after)):
        print(f"{t(key, lang):7} R@1 {m.recall_at_1:.3f}  R@3 {m.recall_at_3:.3f}  MRR {m.mrr:.3f}")
    delta = report.after.recall_at_1 - report.before.recall_at_1
    print(t("cli.learning.change", lang, points=f"{delta * 100:+.1f}"))
    fresh = report.new_causes
    if fresh.n:
        print(
            t(
                "cli.learning.new_causes",
                lang,
                drafts=len(report.drafts),
                found=f"{fresh.recall_at_3 * fresh.n:.0f}",
                n=fresh.n,
                r3=f"{fresh.recall_at_3:.3f}",
                r1=f"{fresh.recall_at_1:.3f}",
            )
        )
    return 0

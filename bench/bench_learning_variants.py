"""Learning settings compared on several splits: does any boost or prior help siblings more than today's?

    python3 bench/bench_learning_variants.py --db KB.db split:bench/eval/real-v3.jsonl \
        split:bench/eval/real-v2-tune.jsonl split:bench/eval/real-v4-tune.jsonl \
        split:bench/eval/real-v5-tune.jsonl

Each SPEC is `split:FILE` (split per cause with `split_half`) or `pair:TRAIN,TEST`. For each one, a
private copy of KB.db (built with `pitstop kb build`) is asked every TEST case, every TRAIN case is
resolved as an incident (the path `pitstop eval learning` takes), and TEST is asked again under each
setting in VARIANTS: the learned-example boost (`Tuning.learned_*`) and the per-team prior
(`kb.feedback.PRIOR_STEP`/`PRIOR_MAX`). Prints R@1/R@3 before and after, and how many cases
gained or lost rank.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from pitstop.core.db import open_db  # noqa: E402
from pitstop.incidents.learning_eval import _resolve, split_half  # noqa: E402
from pitstop.incidents.store import Incidents  # noqa: E402
from pitstop.kb import feedback, retrieve  # noqa: E402
from pitstop.kb.evaluate import Case, load_cases  # noqa: E402
from pitstop.kb.schema import PITFALLS_DIR  # noqa: E402
from pitstop.kb.service import KnowledgeBase  # noqa: E402

VARIANTS: list[dict[str, Any]] = [
    {"name": "current"},
    {"name": "no prior", "prior": (0.0, 0.0)},
    {"name": "no boost", "tuning": {"learned_boost": 0.0}},
    {"name": "neither", "prior": (0.0, 0.0), "tuning": {"learned_boost": 0.0}},
    {"name": "floor 0.7", "tuning": {"learned_floor": 0.7}},
    {"name": "floor 0.8", "tuning": {"learned_floor": 0.8, "learned_full": 0.95}},
    {"name": "boost 0.15", "tuning": {"learned_boost": 0.15}},
    {"name": "prior x2", "prior": (0.04, 0.12)},
    {"name": "prior x4", "prior": (0.08, 0.24)},
    {"name": "prior x8", "prior": (0.16, 0.48)},
    # the cap reached from two incidents on (the prior is step x log2(1 + incidents))
    {"name": "prior flat 0.1", "prior": (0.1 / math.log2(3), 0.1)},
    {"name": "prior flat 0.2", "prior": (0.2 / math.log2(3), 0.2)},
    {
        "name": "prior x2, floor 0.8",
        "prior": (0.04, 0.12),
        "tuning": {"learned_floor": 0.8, "learned_full": 0.95},
    },
]


def ranks(kb: KnowledgeBase, test: list[Case]) -> list[int]:
    """The 1-based rank of each in-KB TEST case's cause (99 when not in the top 10)."""
    out = []
    for case in test:
        if case.slugs:
            ids = [m.id for m in kb.ask(case.query, top=10).results]
            out.append(next((i + 1 for i, pid in enumerate(ids) if pid in case.slugs), 99))
    return out


def recall(found: list[int]) -> str:
    n = len(found) or 1
    return f"R@1 {sum(r == 1 for r in found) / n:.3f} R@3 {sum(r <= 3 for r in found) / n:.3f}"


def cases_of(spec: str) -> tuple[list[Case], list[Case]]:
    kind, _, arg = spec.partition(":")
    if kind == "split":
        return split_half(load_cases(Path(arg)))
    train, test = arg.split(",")
    return load_cases(Path(train)), load_cases(Path(test))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a built KB (copied, never written)")
    parser.add_argument(
        "--entries", type=Path, help="the entry folder KB.db was built from (default: the bundled one)"
    )
    parser.add_argument(
        "--as-member", action="store_true", help="resolve TRAIN as a channel member, not a maintainer"
    )
    parser.add_argument(
        "--variant", action="append", metavar="NAME", help="run only these VARIANTS (default: all)"
    )
    parser.add_argument("specs", nargs="+", metavar="SPEC")
    args = parser.parse_args()
    default = (feedback.PRIOR_STEP, feedback.PRIOR_MAX)
    for spec in args.specs:
        train, test = cases_of(spec)
        work = Path(tempfile.mkdtemp(prefix="pitstop-learning-"))
        for suffix in ("", ".faiss", ".faiss.json"):
            shutil.copy(f"{args.db}{suffix}", work / f"kb.db{suffix}")
        kb = KnowledgeBase.open(work / "kb.db", entries_dir=args.entries or PITFALLS_DIR)
        try:
            incidents = Incidents(open_db(kb.db_path), kb=kb)
            before = ranks(kb, test)
            for case in train:
                if case.slugs:
                    _resolve(incidents, kb, case, not args.as_member)
            print(f"{spec}: {len(before)} in-KB TEST cases, before {recall(before)}", flush=True)
            for variant in [v for v in VARIANTS if not args.variant or v["name"] in args.variant]:
                kb.retriever.tuning = dataclasses.replace(retrieve.Tuning(), **variant.get("tuning", {}))
                feedback.PRIOR_STEP, feedback.PRIOR_MAX = variant.get("prior", default)
                after = ranks(kb, test)
                gained = sum(a < b for a, b in zip(after, before, strict=True))
                lost = sum(a > b for a, b in zip(after, before, strict=True))
                print(f"  {variant['name']:20s} {recall(after)}  gained {gained}, lost {lost}", flush=True)
        finally:
            kb.close()
            shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())

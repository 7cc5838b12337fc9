"""Learning benchmark: warm add_example / resolve latency, and `eval learning` on two splits.

    python3 bench/bench_learning.py [--db PATH] [--adds 40] [--latency-only] [--json]

Works on private copies of the database (SQLite backup + faiss cache); when PATH does not exist
a clean one is built from the bundled entries in a temporary directory. The original is never
written. Figures go to
bench/learning_RESULTS.md by hand, with this command.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pitstop.core.config import load_settings  # noqa: E402
from pitstop.core.db import open_db  # noqa: E402
from pitstop.incidents.learning_eval import run, split_half  # noqa: E402
from pitstop.incidents.store import Incidents  # noqa: E402
from pitstop.kb.evaluate import load_cases  # noqa: E402
from pitstop.kb.service import KnowledgeBase  # noqa: E402

DEV = REPO.parent / "shared" / "eval" / "dev-cases.jsonl"
PARAPHRASES = REPO / "tests" / "fixtures" / "learning"


def private_copy(source: Path, directory: Path) -> Path:
    """Back up `source` (and its faiss cache) into `directory`."""
    target = directory / "bench.db"
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    for suffix in (".faiss", ".faiss.json"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return target


def percentiles(samples: list[float]) -> dict[str, float]:
    """p50, p90 and max in milliseconds."""
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
        "n": len(ordered),
    }


def timed_adds(kb: KnowledgeBase, count: int) -> dict[str, float]:
    """Warm `add_example` latency: embed, store in SQLite, add to faiss, save the index."""
    kb.warm()
    kb.add_example("xid79-gpu-fell-off-bus", "warm-up example, GPU fell off the bus on node 0")
    samples = []
    for n in range(count):
        text = (
            f"node gpu-{n:03d} lost GPU {n % 8} off the PCIe bus during epoch {n}, Xid 79 in the kernel log"
        )
        start = time.perf_counter()
        kb.add_example("xid79-gpu-fell-off-bus", text)
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def timed_resolutions(kb: KnowledgeBase, count: int) -> dict[str, float]:
    """Warm `Incidents.resolve` latency (claim transaction + learning), answers recorded beforehand."""
    store = Incidents(open_db(kb.db_path), kb=kb)
    ids = [
        store.record_answer(
            channel="bench",
            thread_ts=str(n),
            user="U",
            text=f"rack {n} GPUs throttle at 3pm",
            answer=kb.ask(f"rack {n} GPUs throttle at 3pm"),
        )
        for n in range(count)
    ]
    samples = []
    for iid in ids:
        start = time.perf_counter()
        store.resolve(iid, user="U", cause_id="gpu-thermal-slowdown")
        samples.append(time.perf_counter() - start)
    return percentiles(samples)


def learning(db: Path, train: list, test: list) -> dict[str, object]:
    """`eval learning` on a fresh private copy."""
    with tempfile.TemporaryDirectory() as tmp:
        kb = KnowledgeBase.open(private_copy(db, Path(tmp)))
        report = run(kb, Incidents(open_db(kb.db_path), kb=kb), train, test)
        kb.close()
    return report.to_json() | {"test": report.before.n}


def main() -> int:
    """Run everything and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--adds", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--latency-only", action="store_true", help="skip the two learning evaluations")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        source = args.db or load_settings().db_path
        if not source.exists():  # build a clean one here rather than in the user's data directory
            source = Path(tmp) / "source.db"
            KnowledgeBase.open(source).close()
        (Path(tmp) / "work").mkdir()
        kb = KnowledgeBase.open(private_copy(source, Path(tmp) / "work"))
        figures["add_example_warm"] = timed_adds(kb, args.adds)
        figures["resolve_warm"] = timed_resolutions(kb, max(5, args.adds // 4))
        kb.close()
        if args.latency_only:
            return _print(figures, args.json)
        figures["dev_split"] = learning(source, *split_half(load_cases(DEV)))
        figures["paraphrases"] = learning(
            source,
            load_cases(PARAPHRASES / "paraphrase-train.jsonl"),
            load_cases(PARAPHRASES / "paraphrase-test.jsonl"),
        )
    return _print(figures, args.json)


def _print(figures: dict[str, object], as_json: bool) -> int:
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        for name, value in figures.items():
            print(f"{name}: {json.dumps(value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

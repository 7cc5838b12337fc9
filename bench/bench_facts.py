"""Facts benchmark: parsing cost of the real-output corpus, of a kernel log at the catalog's 8 MiB cap,
and of evaluating every KB entry's checks on one host (what a full sweep adds per host).

    python3 bench/bench_facts.py [--rounds 5]

Uses ../shared/outputs and the shipped lab scenario h100-sxm5-healthy; figures go to
bench/facts_RESULTS.md by hand, with this command.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pitstop.collectors.checks.registry import evaluate  # noqa: E402
from pitstop.collectors.model import CheckContext  # noqa: E402
from pitstop.collectors.parsers import kernel_log  # noqa: E402
from pitstop.kb.schema import load_pitfalls  # noqa: E402
from tests.collectors.test_checks_scenarios import scenario_results  # noqa: E402
from tests.collectors.test_parsers import FOLDERS  # noqa: E402

SHARED = REPO.parent / "shared" / "outputs"
SCENARIO = REPO / "collectors" / "lab" / "scenarios" / "h100-sxm5-healthy"


def best_of(rounds: int, fn) -> float:
    """The fastest of `rounds` runs, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    corpus = [
        (FOLDERS[p.parent.name], p.read_bytes().decode("utf-8", "replace"))
        for p in sorted(SHARED.glob("*/*"))
        if p.parent.name in FOLDERS
    ]
    size = sum(len(t) for _, t in corpus)
    corpus_s = best_of(args.rounds, lambda: [parse(text) for parse, text in corpus])
    boot = (SHARED / "dmesg" / "boot-mlx5-nvswitch-decode-iso.txt").read_text(encoding="utf-8")
    big = (boot * (8 * 2**20 // len(boot) + 1))[: 8 * 2**20]
    log_s = best_of(max(1, args.rounds // 2), lambda: kernel_log.parse(big))
    pitfalls = load_pitfalls()
    results = scenario_results(SCENARIO)
    ctx = CheckContext(
        host="bench",
        expectations={
            "gpu_model": "H100",
            "gpu_count": 8,
            "form_factor": "SXM5",
            "driver_branch": "535",
            "nvlink_count": 18,
        },
        now=datetime.now(UTC),
    )

    def sweep() -> None:
        fresh = dict(results)  # a new host's results: parsed once, shared by every entry
        for pitfall in pitfalls:
            evaluate(pitfall, fresh, ctx)

    sweep_s = best_of(args.rounds, sweep)
    print(f"corpus: {len(corpus)} files, {size / 1024:.0f} KiB parsed in {corpus_s * 1000:.1f} ms")
    print(f"kernel log at the 8 MiB cap: {big.count(chr(10))} lines parsed in {log_s:.2f} s")
    print(f"full sweep of {len(pitfalls)} entries on one host (parse + checks): {sweep_s * 1000:.1f} ms")


if __name__ == "__main__":
    main()

"""Leave-set-out: each tuning set asked on a KB built without the examples mined from its own threads.

    python3 bench/bench_leave_set_out.py --out DIR [--sets v2t,v3,v4t,v5t,v6t,v7t] [--grid]

Every tuning half is KB material by now (its incidents became examples), so asked on the shipped KB
it measures memory. Here each set NAME is asked on `DIR/NAME.db`, built from copies of
`kb/pitfalls` and `kb/examples` (in `DIR/NAME/`) less every example whose `source` is one of the
set's threads; dev and own are asked on the whole KB (`DIR/full.db`). Recorded answers are kept in
`DIR/rec-NAME.pkl` and reused. Prints, per set and for the pool, R@1 / R@3 hits of the four-signal
fusion (`bench_rank_variants.MAIN`) and of the shipped one (`Tuning`, checked equal to `ask` on every
recorded case) with the plain BM25 beside them, not-in-KB cases answered "no confident match", and
"high" right.

`--grid` also chooses a fusion (`bench_rank_variants.Fusion`: the four weights, RRF k, the dense
view, and the entry-level BM25 as a fifth signal) on the pool by R@1 + R@3 hits among options that
keep dev R@1 >= 0.95 and own R@1 >= 0.97, and estimates what choosing that way gains by
leave-one-set-out cross-validation: choose on four sets, read the fifth.

Never reads a test half.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_rank_variants as brv  # noqa: E402
from mined_sources import normalise  # noqa: E402

KB_DIR = brv.REPO / "kb"
SETS = ("v2t", "v3", "v4t", "v5t", "v6t", "v7t")


def filtered_kb(out: Path, name: str) -> Path:
    """`out/name/pitfalls` beside an `examples` copy without the examples from set `name`'s threads."""
    threads = {normalise(json.loads(line)["source"]) for line in brv.FILES[name].read_text().splitlines()}
    root = out / name
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(KB_DIR / "pitfalls", root / "pitfalls")
    (root / "examples").mkdir()
    removed = 0
    for path in sorted((KB_DIR / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        kept = [e for e in data["examples"] if normalise(e.get("source", "")) not in threads]
        removed += len(data["examples"]) - len(kept)
        if kept:
            data["examples"] = kept
            (root / "examples" / path.name).write_text(
                yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
            )
    print(f"{name}: {removed} examples from its own threads left out", file=sys.stderr)
    return root / "pitfalls"


def recorded(out: Path, sets: Sequence[str]) -> dict[str, list[brv.Case]]:
    """Every set's recorded answers on its own KB (dev and own on the whole KB), cached in `out`."""
    rec: dict[str, list[brv.Case]] = {}
    for name in (*sets, "full"):
        cache = out / f"rec-{name}.pkl"
        if not cache.exists():
            started = time.process_time()
            entries = KB_DIR / "pitfalls" if name == "full" else filtered_kb(out, name)
            names = ("dev", "own") if name == "full" else (name,)
            cache.write_bytes(pickle.dumps(brv.record(out / f"{name}.db", False, False, names, entries)))
            print(f"{name}: built and asked in {time.process_time() - started:.0f} s CPU", file=sys.stderr)
        rec.update(pickle.loads(cache.read_bytes()))
    return rec


def counts(cases: Sequence[brv.Case], rank: brv.Ranker) -> tuple[int, ...]:
    """In-KB cases, R@1 and R@3 hits, not-in-KB cases and those answered low, "high" right and all."""
    s = brv.score(cases, rank)
    return s.n, round(s.r1 * s.n), round(s.r3 * s.n), s.off[1], s.off[0], s.high[0], s.high[1]


def bm25(case: brv.Case) -> tuple[list[str], str]:
    return case.baseline, "always"


def fusion(f: brv.Fusion) -> brv.Ranker:
    return lambda case: brv.fuse(case, f)


def report(rec: dict[str, list[brv.Case]], sets: Sequence[str], options: dict[str, brv.Fusion]) -> None:
    """One table row per set (and the pool, dev, own) and option."""
    groups = {name: rec[name] for name in sets}
    groups["pool"] = [case for name in sets for case in rec[name]]
    groups |= {"dev": rec["dev"], "own": rec["own"]}
    print('| set | option | in KB | R@1 / R@3 hits | BM25 | not in KB: no confident match | "high" right |')
    print("|---|---|---|---|---|---|---|")
    for name, cases in groups.items():
        b = counts(cases, bm25)
        for label, f in options.items():
            n, r1, r3, off, low, right, high = counts(cases, fusion(f))
            print(
                f"| {name} | {label} | {n} | {r1} / {r3} | {b[1]} / {b[2]} | {low}/{off} | {right}/{high} |"
            )


GRID = [brv.MAIN] + [
    brv.Fusion(sig, words, tri, dense, k, entry, 0.0, view)
    for entry, words, sig, tri, dense, k, view in itertools.product(
        (0.0, 0.5, 1.0, 1.5, 2.0, 3.0),
        (0.5, 1.0, 1.5),
        (1.0, 1.5, 2.0),
        (0.25, 0.5),
        (0.5, 0.75, 1.0, 1.5),
        (5.0, 8.0, 15.0),
        ("merged", "whole"),
    )
]


def grid(rec: dict[str, list[brv.Case]], sets: Sequence[str]) -> brv.Fusion:
    """The pool's choice, and what leave-one-set-out cross-validation says choosing this way gains."""
    hits = {name: [counts(rec[name], fusion(f))[1:3] for f in GRID] for name in sets}
    allowed: dict[int, bool] = {}

    def eligible(i: int) -> bool:
        if i not in allowed:
            dev, own = counts(rec["dev"], fusion(GRID[i])), counts(rec["own"], fusion(GRID[i]))
            allowed[i] = dev[1] >= 0.95 * dev[0] and own[1] >= 0.97 * own[0]
        return allowed[i]

    def pick(names: Sequence[str]) -> int:
        total = [sum(sum(hits[n][i]) for n in names) for i in range(len(GRID))]
        return next(
            i for i in sorted(range(len(GRID)), key=lambda i: (-total[i], i)) if i == 0 or eligible(i)
        )

    print(
        f"\nLeave-one-set-out cross-validation over {len(GRID)} options (R@1 / R@3 hits on the held set):\n"
    )
    print("| held set | chosen on the other sets | main | chosen |")
    print("|---|---|---|---|")
    before, after = [0, 0], [0, 0]
    for held in sets:
        i = pick([n for n in sets if n != held])
        (m1, m3), (c1, c3) = hits[held][0], hits[held][i]
        before, after = [before[0] + m1, before[1] + m3], [after[0] + c1, after[1] + c3]
        print(f"| {held} | {GRID[i].label()} | {m1} / {m3} | {c1} / {c3} |")
    print(f"| all | | {before[0]} / {before[1]} | {after[0]} / {after[1]} |")
    chosen = GRID[pick(sets)]
    print(f"\nChosen on the whole pool: {chosen.label()}\n")
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the KBs and recorded answers")
    parser.add_argument(
        "--sets", default=",".join(SETS), help="tuning sets (bench_rank_variants.FILES names)"
    )
    parser.add_argument(
        "--grid", action="store_true", help="choose a fusion on the pool, with cross-validation"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    sets = args.sets.split(",")
    rec = recorded(args.out, sets)
    every = [case for name in (*sets, "dev", "own") for case in rec[name]]
    shipped = brv.shipped()  # what `ask` recorded the cases with
    moved = sum(brv.fuse(case, shipped) != (brv.base(case)[0][:10], brv.base(case)[1]) for case in every)
    print(
        f"the shipped fusion recomputed offline: {moved} of {len(every)} differ from `ask`", file=sys.stderr
    )
    options = {"four signals": brv.MAIN, "shipped": shipped}
    if args.grid:
        options["chosen"] = grid(rec, sets)
    report(rec, sets, options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

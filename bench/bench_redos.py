"""ReDoS figures: pathological signatures x pathological pastes, through admission and through kb.ask.

Every pattern of tests/security/redos.py is admitted (RE2 or the guarded fallback) or refused; every
admitted one is searched over every paste; then a KB copy holding all of them as one unvalidated draft
answers every paste. Prints counts and the worst times for bench/RESULTS.md.

    HF_HUB_OFFLINE=1 python3 bench/bench_redos.py [--generated N]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pitstop.core.errors import UsageError  # noqa: E402
from pitstop.kb.signatures import compile_signature, problem  # noqa: E402
from tests.security.redos import PASTES, PATTERNS, hostile_entry  # noqa: E402

ATOMS = ["a", r"\w", ".", r"\d", r"\s", " ", "[a-z]", "x", "(?:a|aa)", "[^b]"]
QUANTIFIERS = ["+", "*", "?", "{2,}", "{1,40}", "+?", ""]
PREFIXES = ["", "^", "(?<=x)", "(?<!b)", "(?=a)", "error "]


def generated(rng: random.Random, depth: int = 0) -> str:
    """A random nested, quantified pattern (the same grammar as the property test)."""
    parts = [
        rng.choice(ATOMS) if depth > 2 or rng.random() < 0.5 else generated(rng, depth + 1)
        for _ in range(rng.randint(1, 3))
    ]
    return f"({('|' if rng.random() < 0.5 else '').join(parts)}){rng.choice(QUANTIFIERS)}"


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU of this process) seconds that `fn()` took; on a shared machine the CPU figure is the
    one that does not depend on the load."""
    wall, cpu = time.monotonic(), time.process_time()
    fn()
    return time.monotonic() - wall, time.process_time() - cpu


def ask_quietly(kb: object, paste: str) -> None:
    """`kb.ask(paste)`, an empty paste's UsageError ignored."""
    try:
        kb.ask(paste, top=5)  # type: ignore[attr-defined]
    except UsageError:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=2_000, help="random patterns beyond the fixed list")
    args = parser.parse_args()
    rng = random.Random(12)
    patterns = list(PATTERNS) + [
        rng.choice(PREFIXES) + generated(rng) + rng.choice(["$", "b", "!", ""]) for _ in range(args.generated)
    ]
    pastes = list(PASTES) + [rng.choice("ax0 ") * rng.randint(1, 4_000) + "!" for _ in range(50)]
    admitted = refused = fallback = 0
    worst_search: list[float] = [0.0, 0.0]  # wall, CPU
    for pattern in patterns:
        if problem(pattern):
            refused += 1
            continue
        admitted += 1
        compiled = compile_signature(pattern)
        fallback += compiled.engine == "regex"
        for paste in pastes[:: max(1, len(pastes) // 12)] if pattern not in PATTERNS else pastes:
            took = timed(lambda: compiled.search(paste))  # noqa: B023 - called at once
            worst_search = [max(w, t) for w, t in zip(worst_search, took, strict=True)]
    from pitstop.kb.service import KnowledgeBase

    with tempfile.TemporaryDirectory() as tmp:
        kb = KnowledgeBase.open(Path(tmp) / "p.db")
        hostile_entry(kb)
        kb.warm()
        worst_ask: list[float] = [0.0, 0.0]  # wall, CPU
        for paste in pastes:
            took = timed(lambda: ask_quietly(kb, paste))  # noqa: B023 - called at once
            worst_ask = [max(w, t) for w, t in zip(worst_ask, took, strict=True)]
    print(f"patterns: {len(patterns)} ({len(PATTERNS)} fixed + {args.generated} generated)")
    print(f"admitted: {admitted} ({fallback} on the regex fallback), refused: {refused}")
    print(
        f"pastes: {len(pastes)}; searches: worst {worst_search[0] * 1000:.1f} ms wall, "
        f"{worst_search[1] * 1000:.1f} ms CPU"
    )
    print(
        f"kb.ask, all {len(PATTERNS)} fixed patterns stored as a draft: worst {worst_ask[0] * 1000:.0f} ms "
        f"wall, {worst_ask[1] * 1000:.0f} ms CPU"
    )
    print("load average (1, 5, 15 min): " + ", ".join(f"{v:.1f}" for v in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

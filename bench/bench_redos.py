"""ReDoS figures: pathological signatures x pathological pastes, through admission and through kb.ask.

Every pattern of tests/security/redos.py is admitted (RE2 or the guarded fallback) or refused; every
admitted one is searched over every paste; then a KB copy holding all of them as one unvalidated draft
answers every paste. Prints counts and the worst times for bench/RESULTS.md.

    HF_HUB_OFFLINE=1 python3 bench/bench_redos.py [--generated N]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
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
    worst_search = 0.0
    for pattern in patterns:
        if problem(pattern):
            refused += 1
            continue
        admitted += 1
        compiled = compile_signature(pattern)
        fallback += compiled.engine == "regex"
        for paste in pastes[:: max(1, len(pastes) // 12)] if pattern not in PATTERNS else pastes:
            started = time.monotonic()
            compiled.search(paste)
            worst_search = max(worst_search, time.monotonic() - started)
    from pitstop.kb.service import KnowledgeBase

    with tempfile.TemporaryDirectory() as tmp:
        kb = KnowledgeBase.open(Path(tmp) / "p.db")
        hostile_entry(kb)
        kb.warm()
        worst_ask = 0.0
        for paste in pastes:
            started = time.monotonic()
            try:
                kb.ask(paste, top=5)
            except UsageError:
                pass
            worst_ask = max(worst_ask, time.monotonic() - started)
    print(f"patterns: {len(patterns)} ({len(PATTERNS)} fixed + {args.generated} generated)")
    print(f"admitted: {admitted} ({fallback} on the regex fallback), refused: {refused}")
    print(f"pastes: {len(pastes)}; searches: worst {worst_search * 1000:.1f} ms")
    print(f"kb.ask, all {len(PATTERNS)} fixed patterns stored as a draft: worst {worst_ask * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

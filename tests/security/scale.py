"""How hard the property tests try: `PITSTOP_FUZZ_SCALE` multiplies every example budget and the number of
SIGKILL cycles (CI runs 1; bench/bench_security.py runs more)."""

from __future__ import annotations

import os

SCALE = max(1, int(os.environ.get("PITSTOP_FUZZ_SCALE", "1")))


def examples(n: int) -> int:
    """The example budget `n`, scaled."""
    return n * SCALE

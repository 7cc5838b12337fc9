"""Security and reliability figures: fuzz cases run, faults survived, load held.

Runs tests/security with a larger example budget (`PITSTOP_FUZZ_SCALE`, default 5 here) and prints a
Markdown fragment for bench/security_RESULTS.md: hypothesis examples per property, SIGKILL cycles
survived by the database, the 200-request load outcome and memory, and the wall time of each test.

    HF_HUB_OFFLINE=1 python3 bench/bench_security.py [--scale N]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_STATS = re.compile(r"^(tests/security/\S+::(\w+)):\s*$")
_EXAMPLES = re.compile(r"(\d+) passing examples?, (\d+) failing examples?")
_FIGURE_LINES = ("load:", "durability:")


def run(scale: int) -> tuple[str, float, int]:
    """Run the security tests once; returns their output, wall time and exit status."""
    env = {**os.environ, "PITSTOP_FUZZ_SCALE": str(scale), "HF_HUB_OFFLINE": "1"}
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "tests/security",
        "-q",
        "-s",
        "-p",
        "no:cacheprovider",
        "--hypothesis-show-statistics",
        "--durations=0",
        "-W",
        "ignore::DeprecationWarning",
    ]
    start = time.monotonic()
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True)
    return done.stdout + done.stderr, time.monotonic() - start, done.returncode


def examples_per_property(output: str) -> dict[str, tuple[int, int]]:
    """Hypothesis statistics: test name -> (passing, failing) examples over all phases."""
    found: dict[str, tuple[int, int]] = {}
    current = None
    for line in output.splitlines():
        head = _STATS.match(line)
        if head:
            current = head.group(2)
            continue
        m = _EXAMPLES.search(line)
        if current and m:
            ok, bad = found.get(current, (0, 0))
            found[current] = (ok + int(m.group(1)), bad + int(m.group(2)))
    return found


def main() -> int:
    """Run and print the fragment."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=5, help="multiply every example budget (default 5)")
    args = parser.parse_args()
    output, wall, code = run(args.scale)
    stats = examples_per_property(output)
    summary = next(
        (line for line in reversed(output.splitlines()) if " passed" in line or " failed" in line),
        "(no summary)",
    )
    print(f"## Security and reliability (`python3 bench/bench_security.py --scale {args.scale}`)\n")
    print(f"pytest: {summary.strip('= ')}; wall {wall:.0f} s; exit {code}\n")
    print("| property | examples run | failing |\n|---|---|---|")
    for name, (ok, bad) in sorted(stats.items()):
        print(f"| `{name}` | {ok + bad} | {bad} |")
    print(f"| **total** | {sum(a + b for a, b in stats.values())} | {sum(b for _, b in stats.values())} |\n")
    for line in output.splitlines():
        if line.strip().startswith(_FIGURE_LINES):
            print(f"- {line.strip()}")
    slowest = [line for line in output.splitlines() if re.match(r"^\d+\.\d+s (call|setup)", line)][:8]
    print("\nslowest steps:\n```\n" + "\n".join(slowest) + "\n```")
    return code


if __name__ == "__main__":
    sys.exit(main())

"""The second `pitstop ask`: one whole process per question, after a first one has built everything.

    python3 bench/bench_second_ask.py --runs 10

Builds the bundled KB once in a temporary folder (`pitstop kb build`, which also makes the ONNX export
if this install has none), asks once to warm the caches a first ask leaves (the faiss file, the
recorded signature admissions), then runs `python3 -m pitstop ask --db DB TEXT` `--runs` times in each
of two environments, interleaved: as this environment has it (PYTHONDONTWRITEBYTECODE=1 here, so the
checkout's modules are compiled from source in every process), and with bytecode caching (the
variable unset and PYTHONPYCACHEPREFIX pointing at a private folder, as an installed package with its
.pyc files would run). Each run's wall time, CPU time (user+sys, from wait4) and peak RSS are taken;
the medians are printed as JSON with the load average before and after. Figures go in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUESTION = "Failed to initialize NVML: Driver/library version mismatch"


def _run(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """One process: wall seconds, CPU seconds (user+sys) and peak RSS in MiB."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {
        **{f"{key}_median": round(statistics.median(r[key] for r in runs), 3) for key in runs[0]},
        "wall_s_min": round(min(r["wall_s"] for r in runs), 3),
        "wall_s_max": round(max(r["wall_s"] for r in runs), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--text", default=QUESTION)
    parser.add_argument("--db", type=Path, help="a KB already built (skips `pitstop kb build`)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="second-ask-") as tmp:
        db = args.db or Path(tmp) / "ask.db"
        pycache = Path(tmp) / "pycache"
        base = {**os.environ, "PYTHONPATH": str(REPO)}
        envs = {
            "as_set": {**base, "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE", "")},
            "bytecode_cached": {
                **{k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"},
                "PYTHONPYCACHEPREFIX": str(pycache),
            },
        }
        if args.db is None:
            build = [sys.executable, "-m", "pitstop", "kb", "build", "--db", str(db)]
            subprocess.run(build, env=base, cwd=REPO, check=True)
        ask = [sys.executable, "-m", "pitstop", "ask", "--db", str(db), args.text]
        for env in envs.values():
            _run(ask, env)  # the first ask (and, for the cached case, the one that writes the .pyc files)
        load_before = os.getloadavg()
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in envs}
        for _ in range(args.runs):
            for name, env in envs.items():
                runs[name].append(_run(ask, env))
        print(
            json.dumps(
                {
                    "command": " ".join(["python3", "-m", "pitstop", "ask", "--db", "DB", repr(args.text)]),
                    "runs": args.runs,
                    "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE"),
                    **{name: _medians(r) for name, r in runs.items()},
                    "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in os.getloadavg()],
                }
            )
        )


if __name__ == "__main__":
    main()

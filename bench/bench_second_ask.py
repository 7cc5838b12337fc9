"""The second `pitstop ask`: one whole process per question, after a first one has built everything.

    python3 bench/bench_second_ask.py --runs 10

Builds the bundled KB once in a temporary folder (`pitstop kb build`, which also makes the ONNX export
if this install has none), asks once to warm the caches a first ask leaves (the faiss file, the
recorded signature admissions) and to start the warm server (cli/ask_server.py), waits until that
server listens, then runs `python3 -m pitstop ask --db DB TEXT` `--runs` times in each of four setups,
interleaved:
- `own_process`: the server turned off (`PITSTOP_ASK_SERVER=0`), so the process loads everything
  itself, as every ask did before the server; as this environment has it (PYTHONDONTWRITEBYTECODE=1
  here, so the checkout's modules are compiled from source in every process);
- `own_process_bytecode_cached`: the same with bytecode caching (the variable unset and
  PYTHONPYCACHEPREFIX pointing at a private folder, as an installed package with its .pyc files runs);
- `warm` and `warm_bytecode_cached`: the server on (the default), as set and with bytecode cached.
Each run's wall time, CPU time (user+sys, from wait4) and peak RSS are taken; for the warm runs also
the server's CPU for that question (its /proc/PID/stat before and after), so the whole cost of an
answer is the client's CPU plus the server's. Every run's output must equal the first own-process
output. The medians are printed as JSON with the load average before and after; the server is
stopped at the end. Figures go in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
QUESTION = "Failed to initialize NVML: Driver/library version mismatch"
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    """A process's CPU seconds so far (user+sys)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _measure(command: list[str], env: dict[str, str], server: int | None) -> tuple[dict[str, float], bytes]:
    """One process: wall seconds, CPU seconds (user+sys, from wait4), peak RSS in MiB, its output; with
    `server`, also that process's CPU during the run."""
    before = _cpu_of(server) if server else 0.0
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(command, env=env, cwd=REPO, stdout=out_file, stderr=err_file)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {err.decode()}")
    figures = {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}
    if server:
        time.sleep(0.05)  # the server's accounting of the reply it just sent
        figures["server_cpu_s"] = _cpu_of(server) - before
    return figures, out


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {
        **{f"{key}_median": round(statistics.median(r[key] for r in runs), 3) for key in runs[0]},
        "wall_s_min": round(min(r["wall_s"] for r in runs), 3),
        "wall_s_max": round(max(r["wall_s"] for r in runs), 3),
    }


def main() -> None:
    from pitstop.cli import ask_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--text", default=QUESTION)
    parser.add_argument("--db", type=Path, help="a KB already built (skips `pitstop kb build`)")
    args = parser.parse_args()
    runtime = Path(tempfile.mkdtemp(prefix="pitstop-bench-"))  # the server's socket folder, short
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    server = 0
    try:
        with tempfile.TemporaryDirectory(prefix="second-ask-") as tmp:
            db = (args.db or Path(tmp) / "ask.db").resolve()
            pycache = Path(tmp) / "pycache"
            base = {**os.environ, "PYTHONPATH": str(REPO), "XDG_RUNTIME_DIR": str(runtime)}
            as_set = {**base, "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE", "")}
            cached = {
                **{k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"},
                "PYTHONPYCACHEPREFIX": str(pycache),
            }
            envs = {
                "own_process": {**as_set, "PITSTOP_ASK_SERVER": "0"},
                "own_process_bytecode_cached": {**cached, "PITSTOP_ASK_SERVER": "0"},
                "warm": {**as_set, "PITSTOP_ASK_SERVER": "1"},
                "warm_bytecode_cached": {**cached, "PITSTOP_ASK_SERVER": "1"},
            }
            if args.db is None:
                build = [sys.executable, "-m", "pitstop", "kb", "build", "--db", str(db)]
                subprocess.run(build, env=envs["own_process"], cwd=REPO, check=True)
            ask = [sys.executable, "-m", "pitstop", "ask", "--db", str(db), args.text]
            _, expected = _measure(ask, envs["own_process"], None)
            _measure(ask, envs["own_process_bytecode_cached"], None)  # writes the .pyc files
            _measure(ask, envs["warm"], None)  # answers in its own process and starts the server
            path = ask_server.socket_path(db)
            assert path is not None
            deadline = time.monotonic() + 120
            while not ask_server.listening(path):
                if time.monotonic() > deadline:
                    raise SystemExit(f"no server: {Path(f'{path}.log').read_text(errors='replace')}")
                time.sleep(0.1)
            server = int(Path(f"{path}.lock").read_text().split()[0])
            _measure(ask, envs["warm_bytecode_cached"], server)  # the server's first question
            load_before = os.getloadavg()
            runs: dict[str, list[dict[str, float]]] = {name: [] for name in envs}
            for _ in range(args.runs):
                for name, env in envs.items():
                    figures, out = _measure(ask, env, server if name.startswith("warm") else None)
                    if out != expected:
                        raise SystemExit(f"{name}: the output differs from an ask in its own process")
                    runs[name].append(figures)
            print(
                json.dumps(
                    {
                        "command": " ".join(
                            ["python3", "-m", "pitstop", "ask", "--db", "DB", repr(args.text)]
                        ),
                        "runs": args.runs,
                        "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE"),
                        "outputs_identical": True,
                        **{name: _medians(r) for name, r in runs.items()},
                        "load_before": [round(x, 2) for x in load_before],
                        "load_after": [round(x, 2) for x in os.getloadavg()],
                    }
                )
            )
    finally:
        if server:
            os.kill(server, signal.SIGTERM)
        shutil.rmtree(runtime, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Top-5 rankings of every case in the regression and tuning sets, to prove a change leaves them equal.

    python3 bench/bench_rankings.py --db KB.db --out before.json      # on the old checkout
    python3 bench/bench_rankings.py --db KB.db --out after.json --compare before.json
    python3 bench/bench_rankings.py --db KB.db --out warm.json --compare before.json --server

Asks each case of ../shared/eval/dev-cases.jsonl, bench/eval/own-cases.jsonl and
bench/eval/real-v2-tune.jsonl (never the test half) through the whole hybrid `ask` of the checkout
this script sits in, and writes {file: {case id: [[entry id, score, confidence], ...]}}. With
`--compare` it prints every case whose top 5 (ids, scores or confidences) differs and exits 1 if any.
With `--server` every case is asked through a warm `pitstop ask` server instead (cli/ask_server.py,
started for this run in a private socket folder and stopped after), reading its `--json` replies.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))
CASE_FILES = (
    SHARED / "eval" / "dev-cases.jsonl",
    REPO / "bench" / "eval" / "own-cases.jsonl",
    REPO / "bench" / "eval" / "real-v2-tune.jsonl",
)

sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def rankings(db: Path) -> dict[str, dict[str, list[list[object]]]]:
    """Each case's top 5 as [id, score, confidence], per case file."""
    from pitstop.kb.evaluate import load_cases
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db)
    return {
        path.name: {
            case.id: [[m.id, m.score, m.confidence] for m in kb.ask(case.query, top=5).results]
            for case in load_cases(path)
        }
        for path in CASE_FILES
    }


def server_rankings(db: Path) -> dict[str, dict[str, list[list[object]]]]:
    """`rankings`, each case asked through a warm server's JSON reply (the exact floats round-trip)."""
    import shutil
    import signal
    import tempfile
    import time

    from pitstop.cli import ask_server
    from pitstop.kb.evaluate import load_cases

    runtime = Path(tempfile.mkdtemp(prefix="pitstop-rank-"))
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    path = ask_server.socket_path(db)
    assert path is not None
    ask_server.start(db, 3600)
    try:
        deadline = time.monotonic() + 300
        while not ask_server.listening(path):
            if time.monotonic() > deadline:
                raise SystemExit(f"no server: {Path(f'{path}.log').read_text(errors='replace')}")
            time.sleep(0.2)
        found: dict[str, dict[str, list[list[object]]]] = {}
        for case_file in CASE_FILES:
            found[case_file.name] = {}
            for case in load_cases(case_file):
                request = ask_server.Request(case.query, None, 5, "hybrid", True, False, 100)
                reply = ask_server.answer(db, request)
                if reply is None or reply.status != 0:
                    raise SystemExit(f"{case.id}: no answer from the server ({reply})")
                results = json.loads(reply.stdout)["results"]
                found[case_file.name][case.id] = [[r["id"], r["score"], r["confidence"]] for r in results]
        return found
    finally:
        with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError):
            os.kill(int(Path(f"{path}.lock").read_text().split()[0]), signal.SIGTERM)
        shutil.rmtree(runtime, ignore_errors=True)


def differences(before: dict, after: dict) -> list[str]:
    """One line per case whose ranking differs (or that is missing on one side)."""
    out = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, {}), after.get(name, {})
        for case in sorted(set(old) | set(new)):
            if old.get(case) != new.get(case):
                out.append(f"{name} {case}: {old.get(case)} -> {new.get(case)}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the KB database (built if needed)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the rankings (JSON)")
    parser.add_argument("--compare", type=Path, help="rankings written before, to compare with")
    parser.add_argument("--server", action="store_true", help="ask through a warm `pitstop ask` server")
    args = parser.parse_args()
    found = server_rankings(args.db.resolve()) if args.server else rankings(args.db)
    args.out.write_text(json.dumps(found, indent=0, sort_keys=True))
    print(json.dumps({name: len(cases) for name, cases in found.items()}))
    if args.compare:
        diff = differences(json.loads(args.compare.read_text()), found)
        print("\n".join(diff) or "identical top 5 (ids, scores, confidences) on every case")
        sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()

"""Events acknowledged and lost under SIGKILL: the durable work queue (app/outbox.py) end to end.

    python3 bench/bench_outbox.py [--seeds 1 2 3] [--events 150] [--db PATH] [--out FILE]

For each seed, a fresh copy of the KB database and a real `pitstop serve --http` against the local Web
API recorder of tests/bot: a burst of `--events` signed app_mention events, SIGKILL after a random
number of acknowledgements, restart, Slack's retries of the unacknowledged ones, SIGKILL right as a
random answer is posted, restart, retries again, until every event is answered
(tests/security/burst.py). Prints per seed the events acknowledged, lost (acknowledged, never
answered) and doubled (answered twice), the outbox rows left unfinished and the wall time, as a
Markdown table; `--out FILE` writes it too. A fresh `--db` embeds the KB first (slow, once).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.bot.conftest import copy_kb, serve_env  # noqa: E402
from tests.bot.recorder import Recorder, serve  # noqa: E402
from tests.security import burst  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--events", type=int, default=150)
    parser.add_argument("--db", type=Path, default=None, help="a KB database to copy (built when missing)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pitstop-bench-outbox-"))
    template = args.db or work / "kb.db"
    if not template.exists():
        from pitstop.kb.service import KnowledgeBase

        KnowledgeBase.open(template).warm()
    lines = [
        "| seed | events acked | lost | doubled | outbox unfinished | kills "
        "| retried rows: looked / found posted | wall |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for seed in args.seeds:
        recorder = Recorder()
        api, url = serve(recorder)
        recorder.url = url  # type: ignore[attr-defined]
        home = work / f"seed{seed}"
        home.mkdir()
        env = serve_env(copy_kb(template, home / "pitstop.db"), home, url, PYTHONPATH=str(REPO))
        try:
            out = burst.run(env, recorder, seed=seed, events=args.events)
        finally:
            api.shutdown()
        lines.append(
            f"| {seed} | {len(out.acked)} of {out.events} ({out.first_acked} before the first SIGKILL, "
            f"{out.undispatched} not yet dispatched) "
            f"| {len(out.lost)} | {len(out.doubled)} | {out.unfinished} | {'; '.join(out.kills)} "
            f"| {out.looked} / {out.not_reposted} | {out.seconds:.0f} s |"
        )
        print(lines[-1], flush=True)
    table = "\n".join(lines)
    print(table)
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

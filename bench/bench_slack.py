"""Slack bot benchmark: ack latency under a burst, time to the first thread answer, /diagnose message count.

    python3 bench/bench_slack.py [--db PATH] [--burst 50] [--answers 20] [--hosts 20] [--out FILE]

Runs the real app (real KB, SQLite, Bolt over HTTP on 127.0.0.1) against the local Web API recorder
of tests/bot, with genuinely signed Slack requests:
1. `--burst` app_mention events sent at once: HTTP ack latency p50/p99 (target p99 < 300 ms);
2. `--answers` events one after another, warm: event sent -> chat.postMessage received, p50 (< 1.5 s);
3. `/diagnose` over `--hosts` lab hosts (copies of one scenario, real sshd): messages posted in total
   (chat.postMessage + files shared; target <= 3), chat.update calls, and wall time.
Prints a Markdown table; `--out FILE` writes it too. A fresh `--db` embeds the KB first (slow, once).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

from pitstop.bot.app import create_app  # noqa: E402
from pitstop.bot.http import make_server  # noqa: E402
from tests.bot.conftest import ALLOW_ALL, SECRET, Running, make_services, settings_for  # noqa: E402
from tests.bot.interactions import slash_command  # noqa: E402
from tests.bot.recorder import BOT_USER, Recorder, serve  # noqa: E402

PASTE = "NCCL WARN Cuda failure 'unknown error' after switching to FP16 (run {n})"


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def mention(n: int) -> str:
    body = json.loads((SHARED / "slack-payloads" / "bolt-app-mention.json").read_text())
    body["event_id"] = f"EvBench{n}"
    body["event"].update(
        text=f"<@{BOT_USER}> " + PASTE.format(n=n), ts=f"1700001000.{n:06d}", event_ts=f"1700001000.{n:06d}"
    )
    return json.dumps(body)


def start(db: Path, recorder: Recorder, **options: object) -> tuple[Running, object]:
    from pitstop.kb.embed import Embedder

    services = make_services(db, Embedder(), **options)
    services.kb.warm()
    app = create_app(settings_for(recorder, db), services, update_interval_s=1.5)
    server = make_server(app, services.jobs, SECRET, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return Running(f"http://127.0.0.1:{server.server_address[1]}", services, recorder, app), server


def bench_events(db: Path, burst: int, answers: int) -> list[tuple[str, str, str]]:
    recorder = Recorder()
    api, url = serve(recorder)
    recorder.url = url  # type: ignore[attr-defined]
    bot, server = start(db, recorder)
    rows = []
    try:
        bot.send(mention(0))  # warm: auth.test, first query
        recorder.wait_for("chat.postMessage", 1, 60)
        with ThreadPoolExecutor(burst) as pool:

            def timed(n: int) -> float:
                began = time.monotonic()
                status, _ = bot.send(mention(n))
                assert status == 200
                return time.monotonic() - began

            acks = list(pool.map(timed, range(1, burst + 1)))
        recorder.wait_for("chat.postMessage", burst + 1, 300)
        rows.append(
            (
                f"ack latency, {burst} events at once",
                f"p50 {percentile(acks, 50) * 1000:.0f} ms, p99 {percentile(acks, 99) * 1000:.0f} ms",
                "p99 < 300 ms",
            )
        )
        bot.idle()
        latencies = []
        for n in range(burst + 1, burst + 1 + answers):
            before = len(recorder.of("chat.postMessage"))
            began = time.monotonic()
            bot.send(mention(n))
            reply = recorder.wait_for("chat.postMessage", before + 1, 60)[-1]
            latencies.append(reply.at - began)
        rows.append(
            (
                f"first thread answer, warm, {answers} events",
                f"p50 {statistics.median(latencies):.2f} s, max {max(latencies):.2f} s",
                "p50 < 1.5 s",
            )
        )
    finally:
        server.shutdown()
        api.shutdown()
        bot.services.close()
    return rows


def bench_diagnose(db: Path, hosts: int, scenario: str) -> list[tuple[str, str, str]]:
    from pitstop.collectors import inventory
    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_scenario

    state = Path(tempfile.mkdtemp(prefix="pitstop-bench-lab-"))
    lab = fleet.up(
        [load_scenario(REPO / "collectors" / "lab" / "scenarios" / scenario)], state, copies=hosts, port=26000
    )
    recorder = Recorder()
    api, url = serve(recorder)
    recorder.url = url  # type: ignore[attr-defined]
    bot, server = start(db, recorder, policy=ALLOW_ALL, inventory=inventory.load(lab.inventory))
    try:
        began = time.monotonic()
        target = f"{scenario}-[001-{hosts:03d}]"
        body = slash_command(
            SHARED,
            f"{target} Failed to initialize NVML: Driver/library version mismatch",
            response_url=url + "/respond/1",
        )
        status, _ = bot.send(body, content_type="application/x-www-form-urlencoded")
        assert status == 200
        recorder.wait_for("chat.postMessage", 1, 60)
        bot.idle()
        wall = time.monotonic() - began
        posted = len(recorder.of("chat.postMessage")) + len(recorder.of("files.completeUploadExternal"))
        return [
            (
                f"/diagnose over {hosts} lab hosts",
                f"{posted} messages posted ({len(recorder.of('chat.update'))} "
                f"updates, {len(recorder.of('chat.postEphemeral'))} ephemeral), {wall:.1f} s",
                "<= 3 messages",
            )
        ]
    finally:
        server.shutdown()
        api.shutdown()
        bot.services.close()
        fleet.down(state)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="a KB database to reuse (default: build one)")
    parser.add_argument("--burst", type=int, default=50)
    parser.add_argument("--answers", type=int, default=20)
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--scenario", default="driver-library-mismatch")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    db = args.db or Path(tempfile.mkdtemp(prefix="pitstop-bench-")) / "pitstop.db"
    rows = bench_events(db, args.burst, args.answers) + bench_diagnose(db, args.hosts, args.scenario)
    table = "| measure | result | target |\n|---|---|---|\n" + "".join(
        f"| {a} | {b} | {c} |\n" for a, b, c in rows
    )
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

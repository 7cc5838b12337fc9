"""Slack burst benchmark: a real `pitstop serve --http` process, N signed app_mention events at once.

    python3 bench/bench_slack_burst.py --db KB.db [--events 200] [--rounds 3] [--checkout PATH]

The bot runs as its own process (as in production) against the local Web API stand-in of tests/bot,
on a copy of `--db` (a KB database; a fresh one is embedded first, slowly). Each round sends
`--events` app_mention events, genuinely signed, each on its own new TCP connection, all at once
from one asyncio client; then it waits for every answer. Reported per round: ack latency p50/p99/max
(connect to HTTP response), acks that were not 200 or never came (dropped), events never answered,
answers per second (burst start to the last chat.postMessage), and the server process's CPU time from
the burst's start to its last ack, per event (the GIL makes the acks share about one core, so this
times the events is the least an idle machine needs to acknowledge the burst), and the floor: the
p99 of as many GET /health requests sent the same way right after (answered on the server's event
loop with no work at all, so what the client, the kernel and aiohttp alone cost at that load).
`--checkout` runs the server of another source tree (for instance main before a change) with this
same client. Load averages are printed beside the figures: the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

from bench.bench_slack import PASTE, percentile  # noqa: E402
from tests.bot.conftest import SECRET, copy_kb, serve_env  # noqa: E402
from tests.bot.recorder import BOT_USER, Recorder, serve  # noqa: E402
from tests.bot.test_serve import Served, free_port  # noqa: E402


def signed_mention(n: int, round_no: int) -> tuple[bytes, dict[str, str]]:
    """An app_mention event body (distinct event id and ts) and Slack's signature headers for it."""
    body = json.loads((SHARED / "slack-payloads" / "bolt-app-mention.json").read_text())
    ts = f"17000{round_no:02d}000.{n:06d}"
    body["event_id"] = f"EvBurst{round_no}x{n}"
    body["event"].update(text=f"<@{BOT_USER}> " + PASTE.format(n=n), ts=ts, event_ts=ts)
    raw = json.dumps(body).encode()
    stamp = str(int(time.time()))
    mac = hmac.new(SECRET.encode(), b"v0:" + stamp.encode() + b":" + raw, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": "v0=" + mac,
    }
    return raw, headers


async def burst(url: str, requests: list[tuple[bytes, dict[str, str]] | None]) -> list[float | None]:
    """Send every request at once, one new connection each (None: GET `url`); latency in seconds (None:
    not a 200)."""
    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:

        async def one(request: tuple[bytes, dict[str, str]] | None) -> float | None:
            began = time.monotonic()
            try:
                if request is None:
                    sent = session.get(url)
                else:
                    sent = session.post(url, data=request[0], headers=request[1])
                async with sent as response:
                    await response.read()
                    return time.monotonic() - began if response.status == 200 else None
            except (aiohttp.ClientError, TimeoutError):
                return None

        return await asyncio.gather(*(one(request) for request in requests))


def _cpu_s(pid: int) -> float:
    """User plus system CPU seconds of process `pid` so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(db: Path, events: int, rounds: int, checkout: Path) -> list[dict[str, object]]:
    """Start the server, warm it with one event, then `rounds` bursts of `events`; one dict per round."""
    recorder = Recorder()
    api, api_url = serve(recorder)
    work = Path(tempfile.mkdtemp(prefix="pitstop-burst-"))
    env = serve_env(copy_kb(db, work / "pitstop.db"), work, api_url, PYTHONPATH=str(checkout))
    port = free_port()
    served = Served(["--http", "--host", "127.0.0.1", "--port", str(port)], env, cwd=checkout)
    url = f"http://127.0.0.1:{port}/slack/events"
    health = f"http://127.0.0.1:{port}/health"
    rows = []
    try:
        served.wait_line("Pitstop listening", timeout=600)
        asyncio.run(burst(url, [signed_mention(0, 0)]))
        recorder.wait_for("chat.postMessage", 1, 120)
        for round_no in range(1, rounds + 1):
            before = len(recorder.of("chat.postMessage"))
            requests: list[tuple[bytes, dict[str, str]] | None] = [
                signed_mention(n, round_no) for n in range(1, events + 1)
            ]
            load = os.getloadavg()[0]
            cpu = _cpu_s(served.proc.pid)
            began = time.monotonic()
            acks = asyncio.run(burst(url, requests))
            cpu = _cpu_s(served.proc.pid) - cpu
            answered = recorder.wait_for("chat.postMessage", before + events, 600)[before:]
            ok = [a for a in acks if a is not None]
            threads = {call.body.get("thread_ts") for call in answered}
            floor = [a for a in asyncio.run(burst(health, [None] * events)) if a is not None]
            rows.append(
                {
                    "round": round_no,
                    "events": events,
                    "acked": len(ok),
                    "dropped": events - len(ok),
                    "answered": len(threads),
                    "p50_ms": round(percentile(ok, 50) * 1000),
                    "p99_ms": round(percentile(ok, 99) * 1000),
                    "max_ms": round(max(ok) * 1000),
                    "answers_per_s": round(events / (max(c.at for c in answered) - began), 1),
                    "server_cpu_per_ack_ms": round(cpu / events * 1000, 2),
                    "floor_p99_ms": round(percentile(floor, 99) * 1000) if floor else None,
                    "load_before": round(load, 2),
                    "load_after": round(os.getloadavg()[0], 2),
                }
            )
    finally:
        served.stop()
        api.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a KB database to copy (pitstop kb build)")
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checkout", type=Path, default=REPO, help="source tree whose server runs")
    args = parser.parse_args()
    rows = run(args.db, args.events, args.rounds, args.checkout.resolve())
    print(f"server: {args.checkout.resolve()}")
    print(
        "| round | acked / sent | dropped | answered | ack p50 | ack p99 | ack max | server CPU per ack "
        "| answers/s | floor p99 (GET /health) | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['round']} | {r['acked']} / {r['events']} | {r['dropped']} | {r['answered']} "
            f"| {r['p50_ms']} ms | {r['p99_ms']} ms | {r['max_ms']} ms | {r['server_cpu_per_ack_ms']} ms "
            f"| {r['answers_per_s']} | {r['floor_p99_ms']} ms "
            f"| {r['load_before']} -> {r['load_after']} |"
        )
    return 0 if all(r["dropped"] == 0 and r["answered"] == r["events"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

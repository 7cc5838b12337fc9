"""SIGKILL a real `pitstop serve --http` during a burst of signed Slack events and after restarts; count
what Slack (the local Web API stand-in) received. Used by tests/security/test_outbox_sigkill.py and
bench/bench_outbox.py.

One run, for one seed: start the bot and send the whole burst at once, SIGKILL it after a random
number of acknowledgements; restart it, send again what was not acknowledged (as Slack retries),
SIGKILL it right as a random answer reaches Slack (mid-work: posted, not yet marked done); restart
it, send again what is still unacknowledged, and wait until every event has its answer.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import sqlite3
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.bot.conftest import SECRET, Running
from tests.bot.recorder import BOT_USER, Recorder
from tests.bot.test_serve import Served, free_port

SHARED = Path(__file__).resolve().parents[3] / "shared"
PASTE = "NCCL WARN Cuda failure 'unknown error' after switching to FP16 (burst {n})"
CHANNEL = "CBURST"


@dataclass
class Outcome:
    """What one run saw: acknowledged events, answers per event, the kills and the outbox at the end."""

    events: int
    acked: set[int] = field(default_factory=set)
    first_acked: int = 0  # acknowledged by the first process, before its SIGKILL
    undispatched: int = 0  # of those, events still stored as Slack sent them (not yet run through Bolt)
    kills: list[str] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)  # thread ts -> replies posted
    unfinished: int = -1  # outbox rows pending or running once the last process stopped
    looked: int = 0  # retried rows that read their thread before answering
    not_reposted: int = 0  # of those, rows whose answer had reached Slack before the kill (not posted again)
    seconds: float = 0.0

    def ts(self, n: int) -> str:
        return f"1700002000.{n:06d}"

    @property
    def lost(self) -> list[int]:
        """Acknowledged events never answered."""
        return sorted(n for n in self.acked if self.answers[self.ts(n)] == 0)

    @property
    def doubled(self) -> list[int]:
        """Events answered more than once."""
        return sorted(n for n in range(self.events) if self.answers[self.ts(n)] > 1)


def mention(n: int, ts: str) -> str:
    """The signed-to-be body of app_mention number `n`."""
    body = json.loads((SHARED / "slack-payloads" / "bolt-app-mention.json").read_text(encoding="utf-8"))
    body["event_id"] = f"EvBurst{n}"
    body["event"].update(text=f"<@{BOT_USER}> " + PASTE.format(n=n), ts=ts, event_ts=ts, channel=CHANNEL)
    return json.dumps(body)


def run(env: dict[str, str], recorder: Recorder, *, seed: int, events: int = 150) -> Outcome:
    """One seeded run against the database named by `env["PITSTOP_DB"]`; the bot is stopped on return."""
    rng = random.Random(seed)
    out = Outcome(events)
    started = time.monotonic()
    # 1. The burst, killed after a random number of acknowledgements.
    bot, client = _start(env, recorder)
    try:
        kill_after = rng.randint(5, events // 2)
        _send(client, out, range(events), kill=(bot, kill_after))
        out.first_acked = len(out.acked)
        out.kills.append(f"during the burst, after {out.first_acked} acks")
    finally:
        _kill(bot)
    with sqlite3.connect(env["PITSTOP_DB"]) as db:
        out.undispatched = db.execute(
            "SELECT COUNT(*) FROM outbox WHERE kind = 'event' AND state IN ('pending', 'running')"
        ).fetchone()[0]
    # 2. Restarted: Slack's retries of what was not acknowledged; killed right as an answer is posted.
    bot, client = _start(env, recorder)
    try:
        _send(client, out, _unacked(out), retry=True)
        posted = len(recorder.of("chat.postMessage"))
        target = posted + rng.randint(1, max(1, min(40, events - len(_threads(recorder)))))
        with recorder.lock:
            recorder.lock.wait_for(lambda: len(recorder.of("chat.postMessage")) >= target, 120)
        os.kill(bot.proc.pid, signal.SIGKILL)
        out.kills.append(f"mid-work, as answer {target} reached Slack")
    finally:
        _kill(bot)
    # 3. Restarted again: whatever is still unacknowledged is retried; everything gets its answer.
    bot, client = _start(env, recorder)
    try:
        _send(client, out, _unacked(out), retry=True)
        with recorder.lock:
            recorder.lock.wait_for(lambda: len(_threads(recorder)) >= events, 300)
    finally:
        assert bot.stop() == 0
    out.answers = Counter(_threads(recorder, distinct=False))
    posted: set[str] = set()
    for call in list(recorder.calls):
        if call.method == "chat.postMessage" and call.status == 200:
            posted.add(str(call.body.get("thread_ts")))
        elif call.method == "conversations.replies":
            out.looked += 1
            out.not_reposted += str(call.body.get("ts")) in posted
    with sqlite3.connect(env["PITSTOP_DB"]) as db:
        out.unfinished = db.execute(
            "SELECT COUNT(*) FROM outbox WHERE state IN ('pending', 'running')"
        ).fetchone()[0]
    out.seconds = time.monotonic() - started
    return out


def _start(env: dict[str, str], recorder: Recorder) -> tuple[Served, Running]:
    port = free_port()
    bot = Served(["--http", "--host", "127.0.0.1", "--port", str(port)], env)
    try:
        bot.wait_line("Pitstop listening")
    except BaseException:
        _kill(bot)
        raise
    return bot, Running(f"http://127.0.0.1:{port}", None, recorder, None)


def _kill(bot: Served) -> None:
    if bot.proc.poll() is None:
        bot.proc.send_signal(signal.SIGKILL)
    bot.proc.wait(timeout=60)


def _unacked(out: Outcome) -> list[int]:
    return [n for n in range(out.events) if n not in out.acked]


def _threads(recorder: Recorder, *, distinct: bool = True) -> list[str]:
    posts = recorder.of("chat.postMessage")
    threads = [str(c.body.get("thread_ts")) for c in posts if c.body.get("channel") == CHANNEL]
    return sorted(set(threads)) if distinct else threads


def _send(
    client: Running,
    out: Outcome,
    numbers: range | list[int],
    *,
    retry: bool = False,
    kill: tuple[Served, int] | None = None,
) -> None:
    """Send `numbers` at once from 16 threads; HTTP 200 marks an event acknowledged. With `kill`
    (bot, count), SIGKILL the bot as soon as `count` acknowledgements arrived."""
    headers = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_error"} if retry else {}

    def one(n: int) -> None:
        try:
            status, _ = client.send(mention(n, out.ts(n)), secret=SECRET, headers=headers)
        except (OSError, http.client.HTTPException):  # the connection died with the process: not acknowledged
            return
        if status == 200:
            out.acked.add(n)
            if kill is not None and len(out.acked) >= kill[1] and kill[0].proc.poll() is None:
                kill[0].proc.send_signal(signal.SIGKILL)

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(one, numbers))

"""Events API callbacks are acknowledged before Bolt runs them (`bot/inbox.py`), over genuinely signed HTTP
into the real app and real SQLite: the 200 comes while no outbox worker exists to run a listener, and
the stored event is answered by the next bot on that database (a restart between the 200 and the
dispatch); Slack's retries of it are one row; a bad signature stores nothing; a full queue still
tells the person."""

from __future__ import annotations

import json
import time

from pitstop.core.clock import stamp, utc_now
from tests.bot.conftest import payload
from tests.bot.recorder import BOT_USER
from tests.bot.slack_checks import all_text

NCCL = "NCCL WARN Cuda failure 'unknown error' after switching to FP16"
RETRY = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}


def mention(shared_dir, ts: str, event_id: str) -> str:
    body = payload(shared_dir, "bolt-app-mention.json")
    body["event_id"] = event_id
    body["event"].update(text=f"<@{BOT_USER}> {NCCL} token xoxb-1234567890-abcdefghij", ts=ts, event_ts=ts)
    return json.dumps(body)


def rows(bot) -> list[tuple[str, str, str]]:
    return bot.services.jobs.outbox.db.execute("SELECT kind, key, state FROM outbox ORDER BY id").fetchall()


def test_an_event_acked_before_any_listener_runs_is_answered_after_a_restart(serve_app, shared_dir):
    dead = serve_app(workers=0)  # no outbox worker: nothing can run a listener in this bot
    ts = "1700000700.000001"
    body = mention(shared_dir, ts, "EvEarly")
    assert dead.send(body) == (200, "")
    assert dead.send(body, headers=RETRY) == (200, "")  # Slack's retry (signed anew): the same row
    assert rows(dead) == [("event", "event:EvEarly", "pending")]
    stored = dead.services.jobs.outbox.db.execute("SELECT payload_json FROM outbox").fetchone()[0]
    assert json.loads(stored) == json.loads(body)  # as Slack signed it: redacted when it is dispatched
    time.sleep(0.3)
    assert dead.recorder.of("chat.postMessage") == []
    # The next bot on the same database (nothing else carries over) dispatches it through Bolt.
    restarted = serve_app(db=dead.db)
    reply = restarted.recorder.wait_for("chat.postMessage")[0].body
    assert (reply["channel"], reply["thread_ts"]) == ("C111", ts)
    assert "driver-install-corrupted-or-mixed" in all_text(reply)
    restarted.idle()
    assert len(restarted.recorder.of("chat.postMessage")) == 1
    assert rows(restarted) == [("event", "event:EvEarly", "done"), ("answer", f"msg:C111:{ts}", "done")]
    payloads = restarted.services.jobs.outbox.db.execute("SELECT payload_json FROM outbox").fetchall()
    assert payloads == [("{}",), ("{}",)]  # the raw body is gone once dispatched
    incident = restarted.services.incidents.find_by_thread("C111", ts)
    assert "xoxb-1234567890" not in incident.error_text  # redacted on the way, as before


def test_bad_signatures_are_refused_before_anything_is_stored(serve_app, shared_dir):
    bot = serve_app()
    body = mention(shared_dir, "1700000800.000001", "EvForged")
    command = "command=%2Fdiagnose&text=gpu-node-3&user_id=W222&channel_id=C111&trigger_id=1.2.3"
    now = int(time.time())
    refused = [
        bot.send(body, secret="not-the-secret"),
        bot.send(body, timestamp=now - 301),  # older than Slack's 5 minutes
        bot.send(body, timestamp=now + 301),
        bot.send(body, headers={"X-Slack-Signature": ""}),
        bot.send(body, headers={"X-Slack-Request-Timestamp": "soon"}),
        bot.send(command, content_type="application/x-www-form-urlencoded", secret="not-the-secret"),
    ]
    assert [status for status, _ in refused] == [401] * len(refused)
    time.sleep(0.3)
    db = bot.services.jobs.outbox.db
    assert db.execute("SELECT count(*) FROM outbox").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM slack_requests").fetchone()[0] == 0
    assert [c.method for c in bot.recorder.calls if c.method != "auth.test"] == []
    assert bot.send(body)[0] == 200  # the same event, signed: stored and answered
    bot.recorder.wait_for("chat.postMessage")


def test_a_full_queue_leaves_the_event_to_bolt_which_tells_the_person(serve_app, shared_dir):
    bot = serve_app(workers=0)
    now = stamp(utc_now(), millis=True)
    with bot.services.jobs.outbox.db.conn as conn:  # 1,000 rows waiting: the outbox's capacity
        conn.executemany(
            "INSERT INTO outbox (kind, key, created_at, due_at) VALUES ('answer', ?, ?, ?)",
            [(f"msg:CFULL:{n}", now, now) for n in range(1000)],
        )
    assert bot.send(mention(shared_dir, "1700000900.000001", "EvFull"))[0] == 200
    notice = bot.recorder.wait_for("chat.postMessage")[0].body
    assert notice["thread_ts"] == "1700000900.000001"
    assert "too much work waiting" in all_text(notice)
    assert bot.services.jobs.outbox.unfinished() == 1000  # neither the event nor its answer was stored

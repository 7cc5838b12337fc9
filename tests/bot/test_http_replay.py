"""Replayed Slack requests (the same signature again within the 5-minute window) run once, over
signed HTTP into the real app, and the memory of them survives a restart (real SQLite)."""

from __future__ import annotations

import json
import time

import pytest

from pitstop.bot.replay import WINDOW_S, Replays
from pitstop.core.db import open_db
from tests.bot.conftest import ALLOW_ALL, copy_kb, payload
from tests.bot.interactions import as_form, slash_command
from tests.bot.recorder import BOT_USER

FORM = "application/x-www-form-urlencoded"


def dead_host_bot(serve_app):
    from pitstop.collectors.inventory import build

    # nothing listens on the discard port: a diagnosis that ends fast, with one message
    hosts = {"gpu-dead": {"address": "127.0.0.250", "port": 9}}
    return serve_app(policy=ALLOW_ALL, inventory=build({"ssh_config": False, "hosts": hosts}))


def test_a_replayed_diagnose_runs_once(serve_app, shared_dir):
    bot = dead_host_bot(serve_app)
    body = slash_command(shared_dir, "gpu-dead", response_url=bot.recorder.url + "/respond/1")
    stamp = int(time.time())
    for _ in range(3):  # byte for byte the same request: same timestamp, same signature
        assert bot.send(body, content_type=FORM, timestamp=stamp)[0] == 200
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1
    again = slash_command(shared_dir, "gpu-dead", response_url=bot.recorder.url + "/respond/1")
    assert bot.send(again, content_type=FORM, timestamp=stamp + 1)[0] == 200  # the person asks again
    bot.recorder.wait_for("chat.postMessage", 2)
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 2


@pytest.mark.parametrize("kind", ["command", "block_actions"])
def test_a_replayed_request_reaches_no_listener(serve_app, shared_dir, kind):
    bot = serve_app()
    if kind == "command":
        body = slash_command(shared_dir, "x", command="/no-such-command", response_url=bot.url + "/unused")
    else:
        click = payload(shared_dir, "bolt-block-actions-button.json")
        action = {"type": "button", "action_id": "no-listener-has-this", "block_id": "b", "value": "1"}
        click["actions"] = [action]
        body = as_form(click)
    stamp = int(time.time())
    assert bot.send(body, content_type=FORM, timestamp=stamp)[0] == 404  # Bolt: no listener matched
    assert bot.send(body, content_type=FORM, timestamp=stamp) == (200, "")  # stopped before listeners
    kinds = [row[0] for row in bot.services.incidents.db.execute("SELECT kind FROM slack_requests")]
    assert kinds == [kind]


def test_events_are_left_to_the_event_dedupe(serve_app, shared_dir):
    bot = serve_app()
    mention = payload(shared_dir, "bolt-app-mention.json")
    mention["event"]["text"] = f"<@{BOT_USER}> NCCL WARN Cuda failure 'unknown error'"
    stamp = int(time.time())
    retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    assert bot.send(json.dumps(mention), timestamp=stamp)[0] == 200
    assert bot.send(json.dumps(mention), timestamp=stamp, headers=retry)[0] == 200
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1  # answered once, by the event id
    assert bot.services.incidents.db.execute("SELECT count(*) FROM slack_requests").fetchone()[0] == 0


def test_replays_are_remembered_across_a_restart_for_the_window(kb_path, tmp_path):
    db_path = copy_kb(kb_path, tmp_path / "replays.db")
    now = [1_700_000_000.0]
    first = open_db(db_path)
    assert Replays(lambda: first, clock=lambda: now[0]).first("v0=aa", int(now[0]), "command")
    first.close()
    second = open_db(db_path)  # a restarted bot
    replays = Replays(lambda: second, clock=lambda: now[0])
    assert not replays.first("v0=aa", int(now[0]), "command")
    assert replays.first("v0=bb", int(now[0]), "command")
    now[0] += WINDOW_S + 1  # Bolt now refuses that timestamp itself: the row is let go
    assert replays.first("v0=cc", int(now[0]), "command")
    rows = second.execute("SELECT signature FROM slack_requests ORDER BY signature").fetchall()
    assert rows == [("v0=cc",)]


def send_raw(url: str, body: str, headers: list[tuple[str, str]]) -> int:
    """POST `body` with exactly `headers`, in order and duplicates kept (urllib would merge them)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.putrequest("POST", "/slack/events")
        for name, value in [("Content-Type", FORM), ("Content-Length", str(len(body.encode()))), *headers]:
            connection.putheader(name, value)
        connection.endheaders(body.encode())
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@pytest.mark.parametrize("name", ["X-Slack-Signature", "x-slack-request-timestamp"])
def test_a_replay_with_a_duplicated_signature_header_reaches_no_listener(serve_app, shared_dir, name):
    """A captured request posted again with one more signature or timestamp header (any value, any
    case) must not slip past the replay check: the front verified the first one, Bolt saw the last."""
    import hashlib
    import hmac

    from tests.bot.conftest import SECRET

    bot = serve_app()
    body = slash_command(shared_dir, "x", command="/no-such-command", response_url=bot.url + "/unused")
    stamp = str(int(time.time()))
    signature = "v0=" + hmac.new(SECRET.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256).hexdigest()
    signed = [("X-Slack-Request-Timestamp", stamp), ("X-Slack-Signature", signature)]
    assert send_raw(bot.url, body, signed) == 404  # Bolt: no listener matched
    for extra in ("v0=" + "0" * 64, "replayed", stamp):  # one more header, a new value each time
        assert send_raw(bot.url, body, [*signed, (name, extra)]) != 404  # never reaches the listeners
    assert send_raw(bot.url, body, [(name, "v0=" + "0" * 64), *signed]) == 401  # the first one is checked

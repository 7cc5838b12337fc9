"""HTTP mode end to end: Slack's own payloads, genuinely signed, sent to the app on 127.0.0.1; the
app's Web API calls land on the local recorder."""

from __future__ import annotations

import copy
import json
import logging
import time

import pytest

from pitstop.bot import ids
from pitstop.core.clock import stamp, utc_now
from tests.bot.conftest import SECRET, payload
from tests.bot.interactions import suggest_in_message
from tests.bot.recorder import BOT_USER
from tests.bot.slack_checks import all_text, assert_within_limits

NCCL = "NCCL WARN Cuda failure 'unknown error' after switching to FP16"


def event(shared_dir, name, *, text=None, ts=None, event_id=None, channel="C111", **fields):
    """A payload file with the event's text/ts/ids replaced."""
    body = payload(shared_dir, name)
    ev = body["event"]
    if text is not None:
        ev["text"] = text
    if ts is not None:
        ev["ts"] = ev["event_ts"] = ts
    ev["channel"] = channel
    ev.update(fields)
    if event_id is not None:
        body["event_id"] = event_id
    return json.dumps(body)


@pytest.fixture
def bot(serve_app):
    return serve_app()


def test_url_verification_echoes_the_challenge(bot, shared_dir):
    status, body = bot.send((shared_dir / "slack-payloads" / "bolt-url-verification.json").read_text())
    assert status == 200
    assert json.loads(body)["challenge"] == payload(shared_dir, "bolt-url-verification.json")["challenge"]


def test_bad_signature_and_stale_timestamp_are_rejected_without_logging_the_body(bot, shared_dir, caplog):
    secret_text = "SECRETPASTE-" + "x" * 10
    body = event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL} {secret_text}")
    with caplog.at_level(logging.DEBUG):
        assert bot.send(body, secret="not-the-secret")[0] == 401
        assert bot.send(body, timestamp=int(time.time()) - 301)[0] == 401
    assert secret_text not in caplog.text
    time.sleep(0.3)
    assert bot.recorder.of("chat.postMessage") == []


def test_signing_helper_matches_the_sdk_known_answer(shared_dir):
    import hashlib
    import hmac

    body = (shared_dir / "slack-payloads" / "sdk-signature-vector-slash-command.txt").read_text()
    digest = hmac.new(SECRET.encode(), f"v0:1531420618:{body}".encode(), hashlib.sha256).hexdigest()
    assert digest == "a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"


def test_mention_gets_one_thread_reply_even_when_retried(bot, shared_dir):
    body = event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL} on gpu-node-3")
    started = time.monotonic()
    assert bot.send(body)[0] == 200
    assert time.monotonic() - started < 3  # Slack's own deadline, not a speed target
    reply = bot.recorder.wait_for("chat.postMessage")[0].body
    assert reply["thread_ts"] == "1595926230.009600" and reply["channel"] == "C111"
    assert_within_limits(reply)
    text = all_text(reply)
    assert "driver-install-corrupted-or-mixed" in text  # the top cause, carried by the buttons
    assert "Run checks on gpu-node-3" in text
    # Slack retries the same delivery: no second reply.
    assert (
        bot.send(body, headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})[0] == 200
    )
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1


def test_mention_and_message_for_the_same_message_answer_once(bot, shared_dir):
    ts = "1700000100.000100"
    mention = event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL}", ts=ts, event_id="EvA")
    message = event(
        shared_dir,
        "bolt-message-user-with-authorizations.json",
        text=f"<@{BOT_USER}> {NCCL}",
        ts=ts,
        event_id="EvB",
    )
    assert bot.send(message)[0] == 200
    assert bot.send(mention)[0] == 200
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1


def test_bots_edits_and_chatter_are_ignored_but_a_pasted_error_is_answered(bot, shared_dir):
    ignored = [
        event(shared_dir, "bolt-message-from-bot-bot_id.json", text=NCCL, event_id="Ev1"),
        event(shared_dir, "bolt-message-subtype-bot_message.json", text=NCCL, event_id="Ev2"),
        event(shared_dir, "bolt-message-changed.json", event_id="Ev3"),
        event(
            shared_dir, "bolt-message-user-with-authorizations.json", text="lunch at noon?", event_id="Ev4"
        ),
    ]
    for body in ignored:
        assert bot.send(body)[0] == 200  # every event type has a listener: no 404, so no Slack retry
    human = event(
        shared_dir, "bolt-message-channel-rich-text.json", text=NCCL, ts="1700000200.000200", event_id="Ev5"
    )
    assert bot.send(human)[0] == 200
    replies = bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert [r.body["thread_ts"] for r in bot.recorder.of("chat.postMessage")] == ["1700000200.000200"]
    assert_within_limits(replies[0].body)


def test_code_block_message_is_treated_as_an_error_paste(bot, shared_dir):
    body = payload(shared_dir, "composed-message-code-block.json")
    body["event"]["text"] = "```Failed to initialize NVML: Driver/library version mismatch```"
    assert bot.send(json.dumps(body))[0] == 200
    reply = bot.recorder.wait_for("chat.postMessage")[0].body
    assert "nvml-driver-library-mismatch" in all_text(reply)
    assert reply["thread_ts"] == body["event"]["ts"]


def test_in_threads_only_mentions_are_answered_and_the_reply_stays_in_that_thread(bot, shared_dir):
    name = "bolt-message-user-with-authorizations.json"
    thread = {"thread_ts": "1700000299.000001"}
    bot.send(event(shared_dir, name, text=NCCL, ts="1700000300.000300", event_id="EvT1", **thread))
    bot.send(
        event(
            shared_dir, name, text=f"<@{BOT_USER}> {NCCL}", ts="1700000300.000301", event_id="EvT2", **thread
        )
    )
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert [r.body["thread_ts"] for r in bot.recorder.of("chat.postMessage")] == ["1700000299.000001"]


def test_direct_messages_are_answered_without_a_mention(bot, shared_dir):
    name = "bolt-message-user-with-authorizations.json"
    bot.send(event(shared_dir, name, text="my training is slow", channel="D123", channel_type="im"))
    assert bot.recorder.wait_for("chat.postMessage")[0].body["channel"] == "D123"


def test_chinese_paste_is_answered_in_chinese_with_a_host_picker(bot, shared_dir):
    body = event(
        shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> 八卡训练 loss 抖得跟心电图似的，nccl 超时"
    )
    bot.send(body)
    reply = bot.recorder.wait_for("chat.postMessage")[0].body
    text = all_text(reply)
    assert "可能的原因" in text
    block, picker = next(
        (b, e)
        for b in reply["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
        if e["type"] == "external_select"
    )
    assert picker["action_id"] == ids.ACTION_PICK_HOST and picker["min_query_length"] == 0
    form = "application/x-www-form-urlencoded"
    status, options = bot.send(
        suggest_in_message(block["block_id"], ids.ACTION_PICK_HOST, ""), content_type=form
    )
    assert status == 200
    assert [o["text"]["text"] for o in json.loads(options)["options"]] == ["gpu-node-3", "gpu-node-4"]
    typed = json.loads(
        bot.send(suggest_in_message(block["block_id"], ids.ACTION_PICK_HOST, "node-4"), content_type=form)[1]
    )
    assert [o["text"]["text"] for o in typed["options"]] == ["gpu-node-4"]
    assert ids.unpack(typed["options"][0]["value"]) == {
        "i": ids.unpack(block["block_id"])["i"],
        "h": "gpu-node-4",
    }
    group = json.loads(
        bot.send(suggest_in_message(block["block_id"], ids.ACTION_PICK_HOST, "a100"), content_type=form)[1]
    )
    assert group["options"][0]["text"]["text"] == "a100（2 台主机）"  # the language of the paste
    bot.services.incidents.set_user_lang("W222", "en")  # a reader who chose English on App Home
    chosen = json.loads(
        bot.send(
            suggest_in_message(block["block_id"], ids.ACTION_PICK_HOST, "a100", user="W222"),
            content_type=form,
        )[1]
    )
    assert chosen["options"][0]["text"]["text"] == "a100 (2 hosts)"


def test_mention_only_channel_ignores_pastes_but_answers_mentions(serve_app, shared_dir):
    bot = serve_app(channel_modes="auto,C999=mention")
    bot.send(
        event(
            shared_dir,
            "bolt-message-channel-rich-text.json",
            text=NCCL,
            channel="C999",
            event_id="E1",
            ts="1700000400.000001",
        )
    )
    bot.send(
        event(
            shared_dir,
            "bolt-app-mention.json",
            text=f"<@{BOT_USER}> {NCCL}",
            channel="C999",
            event_id="E2",
            ts="1700000400.000002",
        )
    )
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert [r.body["thread_ts"] for r in bot.recorder.of("chat.postMessage")] == ["1700000400.000002"]


def test_rate_limited_reply_is_retried_after_retry_after(bot, shared_dir):
    bot.recorder.fail_next("chat.postMessage", retry_after=1)
    bot.send(event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL}"))
    bot.recorder.wait_for("chat.postMessage")
    statuses = [c.status for c in bot.recorder.calls if c.method == "chat.postMessage"]
    assert statuses == [429, 200]


def test_text_is_escaped_and_secrets_redacted(bot, shared_dir):
    paste = f"<@{BOT_USER}> {NCCL} <script> & token xoxb-1234567890-abcdefghij"
    body = json.loads(event(shared_dir, "bolt-app-mention.json", text=paste))
    bot.send(json.dumps(copy.deepcopy(body)))
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    stored = bot.services.incidents.find_by_thread("C111", body["event"]["ts"])
    assert "xoxb-1234567890" not in stored.error_text


def test_app_home_shows_incident_figures(bot, shared_dir):
    # COMPOSED: no app_home_opened sample exists in ../shared; the event follows
    # https://docs.slack.dev/reference/events/app_home_opened inside bolt's event envelope.
    body = payload(shared_dir, "bolt-app-mention.json")
    body["event_id"] = "EvHome"  # its own delivery: Slack's event ids are unique, retries share them
    body["event"] = {
        "type": "app_home_opened",
        "user": "W222",
        "channel": "D111",
        "tab": "home",
        "event_ts": "1700000500.000001",
    }
    bot.send(event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL}"))
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert bot.send(json.dumps(body))[0] == 200
    published = bot.recorder.wait_for("views.publish")[0].body
    assert published["user_id"] == "W222"
    assert "1 incidents (1 open, 0 resolved)" in all_text(published["view"])


def test_a_retry_of_a_message_answered_before_a_restart_is_not_answered_again(bot, shared_dir):
    answered, fresh = "1700000600.000001", "1700000600.000002"
    # The outbox is what survives a restart: it holds the finished row of `answered`.
    bot.services.jobs.outbox.db.execute(
        "INSERT INTO outbox (kind, key, state, attempts, created_at, due_at, finished_at)"
        " VALUES ('answer', ?, 'done', 1, ?, ?, ?)",
        [f"msg:C111:{answered}", *[stamp(utc_now(), millis=True)] * 3],
    )
    retry = {"X-Slack-Retry-Num": "2", "X-Slack-Retry-Reason": "http_error"}
    bot.send(
        event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL}", ts=answered), headers=retry
    )
    bot.send(
        event(shared_dir, "bolt-app-mention.json", text=f"<@{BOT_USER}> {NCCL}", ts=fresh, event_id="EvF"),
        headers=retry,
    )
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    assert [r.body["thread_ts"] for r in bot.recorder.of("chat.postMessage")] == [fresh]

"""Posting an outbox row's messages at most once (bot/delivery.py), through a real WebClient and the
local Web API stand-in: a retried row finds its earlier posts by their message metadata."""

from __future__ import annotations

from slack_sdk import WebClient

from pitstop.app.cards import Notice
from pitstop.app.outbox import Entry
from pitstop.bot.delivery import EVENT_TYPE, Delivery
from pitstop.bot.render.blocks import notice_message
from pitstop.bot.slack_io import upload_text
from pitstop.core.clock import stamp, utc_now

MESSAGE = notice_message(Notice("Incident #3 resolved as xid79.", ok=True))


def entry(entry_id: int, attempts: int) -> Entry:
    return Entry(entry_id, "answer", f"k{entry_id}", {}, attempts, stamp(utc_now(), millis=True))


def test_a_retried_row_reuses_what_it_posted_and_posts_the_rest(recorder) -> None:
    client = WebClient(token="xoxb-test-token-1234567890", base_url=recorder.url + "/api/")
    first = Delivery(client, entry(7, 1), "C1")
    thread_ts = first.post(MESSAGE, thread_ts=None, part="card")  # a top-level message
    reply_ts = first.post(MESSAGE, thread_ts=thread_ts, part="reply")
    metadata = recorder.of("chat.postMessage")[0].body["metadata"]
    assert metadata == {"event_type": EVENT_TYPE, "event_payload": {"id": 7, "part": "card"}}
    assert not recorder.of("conversations.replies")  # a first attempt never looks

    again = Delivery(client, entry(7, 2), "C1")
    assert again.post(MESSAGE, thread_ts=None, part="card") == thread_ts  # found in conversations.history
    assert again.post(MESSAGE, thread_ts=thread_ts, part="reply") == reply_ts  # found in the thread
    assert len(recorder.of("chat.postMessage")) == 2
    again.post(MESSAGE, thread_ts=thread_ts, part="draft:d1")  # not posted before: posted now
    assert len(recorder.of("chat.postMessage")) == 3
    history = recorder.of("conversations.history")[0].body
    assert history["include_all_metadata"] in (True, "1", "true") and float(history["oldest"]) > 0

    other = Delivery(client, entry(8, 2), "C1")  # another row's posts are not this row's
    other.post(MESSAGE, thread_ts=thread_ts, part="reply")
    assert len(recorder.of("chat.postMessage")) == 4


def test_a_retried_row_does_not_upload_its_outputs_twice(recorder) -> None:
    client = WebClient(token="xoxb-test-token-1234567890", base_url=recorder.url + "/api/")
    upload_text(client, "C1", "1.000001", "nvidia-smi output", "pitstop-1.000001.txt", "outputs")
    assert not Delivery(client, entry(9, 1), "C1").has_file("1.000001", "pitstop-1.000001.txt")
    retried = Delivery(client, entry(9, 2), "C1")
    assert retried.has_file("1.000001", "pitstop-1.000001.txt")
    assert not retried.has_file("1.000001", "pitstop-2.000002.txt")

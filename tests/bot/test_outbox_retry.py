"""A row whose work failed after Slack had already carried out the post (the response was lost, as in a
crash between the post and marking the row done) is tried again and does not post twice: the answer
and the diagnosis card are found by their message metadata (over signed HTTP, the local Web API
stand-in); a resolution already recorded is announced, not refused."""

from __future__ import annotations

import json

from pitstop.bot import ids
from pitstop.collectors.inventory import build
from tests.bot.conftest import ALLOW_ALL, payload
from tests.bot.interactions import slash_command, submit_view
from tests.bot.recorder import BOT_USER
from tests.bot.slack_checks import all_text

NCCL = "NCCL WARN Cuda failure 'unknown error'"
FORM = "application/x-www-form-urlencoded"


def _row(bot) -> tuple:
    """The work row (an event's own row, `bot.inbox`, only carries it to its listener)."""
    return bot.services.jobs.outbox.db.execute(
        "SELECT state, attempts, payload_json FROM outbox WHERE kind != 'event'"
    ).fetchone()


def test_an_answer_whose_response_was_lost_is_not_posted_again(serve_app, shared_dir):
    bot = serve_app()
    bot.recorder.lose_next("chat.postMessage")
    body = payload(shared_dir, "bolt-app-mention.json")
    body["event"]["text"] = f"<@{BOT_USER}> {NCCL}"
    assert bot.send(json.dumps(body))[0] == 200
    bot.idle()  # through the pause before the second attempt
    posts = bot.recorder.of("chat.postMessage")
    assert [p.body["thread_ts"] for p in posts] == [body["event"]["ts"]]
    assert [c.body["ts"] for c in bot.recorder.of("conversations.replies")] == [body["event"]["ts"]]
    assert _row(bot) == ("done", 2, "{}")


def test_a_diagnosis_whose_card_response_was_lost_updates_that_card(serve_app, shared_dir):
    dead = {f"dead{i}": {"address": f"127.0.0.{210 + i}", "port": 9} for i in (1, 2)}  # connection refused
    bot = serve_app(policy=ALLOW_ALL, inventory=build({"ssh_config": False, "hosts": dead}))
    bot.recorder.lose_next("chat.postMessage")
    command = slash_command(shared_dir, "dead[1-2]", response_url=bot.recorder.url + "/respond/1")
    assert bot.send(command, content_type=FORM)[0] == 200
    bot.idle()
    posts = bot.recorder.of("chat.postMessage")
    assert len(posts) == 1 and len(bot.recorder.of("conversations.history")) == 1
    card_ts = bot.recorder.messages["C111"][0]["ts"]
    updates = bot.recorder.of("chat.update")
    assert updates and {u.body["ts"] for u in updates} == {card_ts}
    assert _row(bot) == ("done", 2, "{}")
    bot.send(
        command, content_type=FORM
    )  # a replay of the same request (refused or deduplicated): nothing runs
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1


def test_a_resolution_whose_notice_response_was_lost_is_announced_once(serve_app, shared_dir):
    from pitstop.core.sealing import Sealer

    bot = serve_app()
    answer = bot.services.kb.ask("Xid 79")
    iid = bot.services.incidents.record_answer(
        channel="C111", thread_ts="1.2", user="W111", text="Xid 79", answer=answer
    )
    view = {
        "callback_id": ids.VIEW_RESOLUTION,
        "private_metadata": Sealer.from_db(bot.services.kb.db).seal(
            ids.VIEW_RESOLUTION, {"i": iid, "u": "W111"}
        ),
        "blocks": [],
    }
    cause = answer.results[0].id
    values = {"cause": {ids.CAUSE_SELECT: {"type": "external_select", "selected_option": {"value": cause}}}}
    bot.recorder.lose_next("chat.postMessage")
    assert bot.send(submit_view(shared_dir, view, values), content_type=FORM)[0] == 200
    bot.idle()  # the second attempt finds the incident resolved and the notice posted
    notices = [p.body for p in bot.recorder.of("chat.postMessage")]
    assert len(notices) == 1 and f"resolved as {cause}" in all_text(notices[0])
    assert bot.services.incidents.get(iid).status == "resolved"
    assert bot.recorder.of("chat.postEphemeral") == []  # nobody is told "already resolved"
    assert _row(bot) == ("done", 2, "{}")

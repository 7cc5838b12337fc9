"""Slash commands, buttons and the resolution modal over signed HTTP, against the real lab fleet."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pitstop.bot import ids
from tests.bot.conftest import ALLOW_ALL, payload
from tests.bot.interactions import click, elements, slash_command, submit_view, suggest
from tests.bot.recorder import BOT_USER
from tests.bot.slack_checks import all_text, assert_within_limits

FORM = "application/x-www-form-urlencoded"
HOST = "driver-library-mismatch"  # a lab scenario whose expect.yaml confirms nvml-driver-library-mismatch
CAUSE = "nvml-driver-library-mismatch"


@pytest.fixture
def lab_bot(serve_app, lab_inventory):
    from pitstop.collectors.inventory import Host

    # nothing listens on the discard port: connection refused (not 127.0.0.1: the Pitstop host is no target)
    dead = Host("gpu-dead", "127.0.0.250", port=9)
    inventory = dataclasses.replace(lab_inventory, hosts={**lab_inventory.hosts, "gpu-dead": dead})
    return serve_app(policy=ALLOW_ALL, inventory=inventory)


def respond_url(bot):
    return bot.recorder.url + "/respond/1"


def test_empty_diagnose_answers_usage_in_the_ack(serve_app, shared_dir):
    bot = serve_app()
    status, body = bot.send(slash_command(shared_dir, "", response_url=respond_url(bot)), content_type=FORM)
    assert status == 200 and "Usage: `/diagnose HOSTS" in body


def test_diagnose_refusals_are_ephemeral(serve_app, shared_dir):
    bot = serve_app()  # the default policy: nobody may run collectors
    for text, expected in (
        ("gpu-node-3", "No authorization policy is configured"),
        ("gpu-nod-3", "unknown host 'gpu-nod-3'"),
        ("gpu1;rm -rf /", "not a host name or host-list expression: 'gpu1;rm'"),
        ("$(reboot)", "not a host name or host-list expression"),
        ("gpu[1-99999]", "expands to 99999 hosts"),
    ):
        status, _ = bot.send(
            slash_command(shared_dir, text, response_url=respond_url(bot)), content_type=FORM
        )
        assert status == 200
        reply = json.loads(bot.recorder.wait_for("respond")[-1].raw)
        assert reply["response_type"] == "ephemeral" and expected in all_text(reply), reply
        bot.recorder.clear()
    assert bot.recorder.of("chat.postMessage") == []


@pytest.mark.lab
def test_paste_then_run_checks_confirms_the_cause(lab_bot, shared_dir):
    bot = lab_bot
    kb_title = bot.services.kb.get(CAUSE).title
    mention = payload(shared_dir, "bolt-app-mention.json")
    mention["event"]["text"] = (
        f"<@{BOT_USER}> Failed to initialize NVML: Driver/library version mismatch on {HOST}"
    )
    assert bot.send(json.dumps(mention))[0] == 200
    answer = bot.recorder.wait_for("chat.postMessage")[0].body
    assert CAUSE in all_text(answer)
    message = {
        "ts": "1700000000.000001",
        "thread_ts": mention["event"]["ts"],
        "text": answer["text"],
        "blocks": answer["blocks"],
    }
    run = next(e for e in elements(answer) if e["action_id"] == ids.ACTION_RUN)
    assert run["text"]["text"] == f"Run checks on {HOST}"

    assert (
        bot.send(click(shared_dir, run, message=message, response_url=respond_url(bot)), content_type=FORM)[0]
        == 200
    )
    progress = bot.recorder.wait_for("chat.postMessage", 2)[1].body
    assert progress["thread_ts"] == mention["event"]["ts"]
    bot.idle()
    final = bot.recorder.of("chat.update")[-1].body
    assert_within_limits(final)
    text = all_text(final)
    assert f"✅ *{kb_title}*" in text and f"confirmed (1): `{HOST}`" in text
    # Full outputs: the external upload flow, completed into the same thread.
    assert bot.recorder.of("files.getUploadURLExternal") and bot.recorder.of("upload")
    done = bot.recorder.of("files.completeUploadExternal")[0].body
    assert done["thread_ts"] == mention["event"]["ts"] and done["channel_id"] == "C111"
    assert f"===== {HOST} (ok) =====".encode() in bot.recorder.of("upload")[0].raw
    assert b"\n$ " in bot.recorder.of("upload")[0].raw  # every command with its full output
    incident = bot.services.incidents.find_by_thread("C111", mention["event"]["ts"])
    assert (HOST, CAUSE, "confirmed") in {(host, v.pitfall, v.verdict) for host, v in incident.verdicts}


@pytest.mark.parametrize("maintainer", [False, True], ids=["member", "maintainer"])
def test_feedback_then_record_resolution_through_the_modal(serve_app, shared_dir, maintainer):
    bot = serve_app(maintainers=("W111",) if maintainer else ())  # W111: who submits the modal
    mention = payload(shared_dir, "bolt-app-mention.json")
    mention["event"]["text"] = f"<@{BOT_USER}> Failed to initialize NVML: Driver/library version mismatch"
    bot.send(json.dumps(mention))
    answer = bot.recorder.wait_for("chat.postMessage")[0].body
    message = {"ts": "1700000000.000001", "thread_ts": mention["event"]["ts"], "blocks": answer["blocks"]}

    this = next(e for e in elements(answer) if e["action_id"] == ids.ACTION_THIS and CAUSE in e["value"])
    for _ in range(2):  # clicking twice stores one vote
        bot.send(click(shared_dir, this, message=message, response_url=respond_url(bot)), content_type=FORM)
    assert "marked as the cause" in all_text(bot.recorder.wait_for("chat.postEphemeral", 2)[-1].body)
    votes = bot.services.kb.db.execute("SELECT COUNT(*) FROM feedback").fetchone()[0]
    assert votes == 1

    resolve = next(e for e in elements(answer) if e["action_id"] == ids.ACTION_RESOLVE)
    bot.send(click(shared_dir, resolve, message=message, response_url=respond_url(bot)), content_type=FORM)
    view = bot.recorder.wait_for("views.open")[0].body["view"]
    select = view["blocks"][0]["element"]
    assert select["type"] == "external_select" and select["initial_option"]["value"] == CAUSE
    status, options = bot.send(suggest(view, ids.CAUSE_SELECT, ""), content_type=FORM)
    assert status == 200 and json.loads(options)["options"][0]["value"] == CAUSE  # the candidates first
    status, options = bot.send(suggest(view, ids.CAUSE_SELECT, "raid write"), content_type=FORM)
    assert "raid-write-through-cache" in [o["value"] for o in json.loads(options)["options"]]  # whole KB

    values = {
        "cause": {ids.CAUSE_SELECT: {"type": "external_select", "selected_option": select["initial_option"]}},
        "notes": {"value": {"type": "plain_text_input", "value": "rebooted to load the 535 module"}},
    }
    assert bot.send(submit_view(shared_dir, view, values), content_type=FORM)[0] == 200
    bot.idle()
    incident = bot.services.incidents.find_by_thread("C111", mention["event"]["ts"])
    assert incident.status == "resolved" and incident.resolution.cause_id == CAUSE
    assert incident.resolution.notes == "rebooted to load the 535 module"
    assert incident.resolution.vouched is maintainer  # what its example may do to a confidence
    done = bot.recorder.of("chat.postMessage")[-1].body
    assert f"resolved as {CAUSE}" in all_text(done) and done["thread_ts"] == mention["event"]["ts"]


def test_modal_rejects_an_empty_resolution(serve_app, shared_dir):
    from pitstop.core.sealing import Sealer

    bot = serve_app()
    iid = bot.services.incidents.record_answer(
        channel="C111", thread_ts="1.2", user="W111", text="Xid 79", answer=bot.services.kb.ask("Xid 79")
    )
    sealer = Sealer.from_db(bot.services.kb.db)  # the bot's own key: the same database
    view = {
        "callback_id": ids.VIEW_RESOLUTION,
        "private_metadata": sealer.seal(ids.VIEW_RESOLUTION, {"i": iid, "u": "W111"}),
        "blocks": [],
    }
    status, body = bot.send(submit_view(shared_dir, view, {}), content_type=FORM)
    assert status == 200 and json.loads(body)["response_action"] == "errors"


@pytest.mark.lab
def test_diagnose_with_a_dead_host_reports_it_and_tells_the_requester(lab_bot, shared_dir):
    bot = lab_bot
    text = f"{HOST},gpu-dead Failed to initialize NVML: Driver/library version mismatch"
    assert (
        bot.send(slash_command(shared_dir, text, response_url=respond_url(bot)), content_type=FORM)[0] == 200
    )
    posted = bot.recorder.wait_for("chat.postMessage")[0].body
    assert "thread_ts" not in posted or posted["thread_ts"] in (None, "")  # answered where it was typed
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1  # one message, updated in place
    final = all_text(bot.recorder.of("chat.update")[-1].body)
    assert "gpu-dead" in final and "unreachable" in final
    assert len(bot.recorder.of("respond")) == 1  # one notice per request, never one per host
    told = json.loads(bot.recorder.of("respond")[-1].raw)
    assert told["response_type"] == "ephemeral" and "1 host(s) could not be checked: gpu-dead" in all_text(
        told
    )

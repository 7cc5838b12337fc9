"""The "Details" button (raw ranking signals, to the clicker alone) and the App Home language menu,
over signed HTTP requests into the Bolt app and the local Web API stand-in."""

from __future__ import annotations

import json
import urllib.parse

from pitstop.bot import ids
from pitstop.core.i18n import Msg
from tests.bot.conftest import payload
from tests.bot.interactions import click, elements
from tests.bot.recorder import BOT_USER
from tests.bot.slack_checks import all_text, assert_within_limits

FORM = "application/x-www-form-urlencoded"
PASTE = "Failed to initialize NVML: Driver/library version mismatch"
CAUSE = "nvml-driver-library-mismatch"
USER = "W111"


def ask(bot, shared_dir, text: str, ts: str = "1700000100.000001", user: str = USER) -> dict:
    """Mention the bot with `text` as `user`; the answer it posted (body) and the message as Slack
    would hand it back in a click."""
    mention = payload(shared_dir, "bolt-app-mention.json")
    mention["event"].update(text=f"<@{BOT_USER}> {text}", ts=ts, user=user)
    mention["event_id"] = f"Ev{ts.replace('.', '')}"
    before = len(bot.recorder.of("chat.postMessage"))
    assert bot.send(json.dumps(mention))[0] == 200
    answer = bot.recorder.wait_for("chat.postMessage", before + 1)[-1].body
    return {"ts": "1700000000.000001", "thread_ts": ts, "text": answer["text"], "blocks": answer["blocks"]}


def open_home(bot, shared_dir, user: str = USER) -> dict:
    """Open the App Home tab (COMPOSED: no app_home_opened sample exists in ../shared; the event
    follows https://docs.slack.dev/reference/events/app_home_opened); the view published."""
    body = payload(shared_dir, "bolt-app-mention.json")
    body["event"] = {"type": "app_home_opened", "user": user, "channel": "D1", "tab": "home"}
    body["event_id"] = "EvHome"
    before = len(bot.recorder.of("views.publish"))
    assert bot.send(json.dumps(body))[0] == 200
    return bot.recorder.wait_for("views.publish", before + 1)[-1].body["view"]


def choose(bot, shared_dir, view: dict, choice: str, user: str = USER) -> dict:
    """Pick `choice` in the Home tab's language menu (a block_actions payload whose container is the
    view, as in tests/bot/test_drafts.py); the view published next."""
    menu = next(b["accessory"] for b in view["blocks"] if b.get("block_id") == "lang")
    option = next(o for o in menu["options"] if ids.unpack(o["value"]) == {"l": choice})
    body = payload(shared_dir, "bolt-block-actions-button.json")
    body.update(
        actions=[
            {
                "type": "static_select",
                "action_id": menu["action_id"],
                "block_id": "lang",
                "selected_option": option,
                "action_ts": "1.2",
            }
        ],
        user={**body["user"], "id": user},
        container={"type": "view", "view_id": "V1"},
        view={"id": "V1", "type": "home"},
    )
    body.pop("channel", None), body.pop("message", None)
    before = len(bot.recorder.of("views.publish"))
    assert bot.send("payload=" + urllib.parse.quote(json.dumps(body)), content_type=FORM)[0] == 200
    return bot.recorder.wait_for("views.publish", before + 1)[-1].body["view"]


def details_button(message: dict, cause: str) -> dict:
    return next(
        e
        for e in elements(message)
        if e["action_id"] == ids.ACTION_DETAILS and ids.unpack(e["value"]).get("p") == cause
    )


def test_details_show_the_raw_signals_to_the_clicker_alone_while_why_stays_in_words(serve_app, shared_dir):
    bot = serve_app()
    message = ask(bot, shared_dir, PASTE)
    answer = all_text(message)
    assert "Why:" in answer and "signature /" not in answer and "terms:" not in answer
    button = details_button(message, CAUSE)
    assert button["text"]["text"] == "Details"

    status, _ = bot.send(
        click(shared_dir, button, message=message, response_url=bot.recorder.url + "/respond/1", user="W222"),
        content_type=FORM,
    )
    assert status == 200
    shown = bot.recorder.wait_for("chat.postEphemeral")[-1].body
    assert_within_limits(shown)
    text = all_text(shown)
    assert (shown["user"], shown["channel"], shown["thread_ts"]) == ("W222", "C111", message["thread_ts"])
    assert "What ranked" in text and "signature /" in text  # the regex itself, as code
    stored = bot.services.incidents.find_by_thread("C111", message["thread_ts"])
    first = bot.services.incidents.candidate_details(stored.id, CAUSE)[0]
    assert isinstance(first, Msg) and str(first) in text.replace("&amp;", "&")
    assert bot.recorder.of("chat.postMessage")[-1].body["thread_ts"] == message["thread_ts"]  # nothing public


def test_details_of_a_cause_the_answer_never_had_are_refused_in_words(serve_app, shared_dir):
    bot = serve_app()
    message = ask(bot, shared_dir, PASTE)
    forged = {**details_button(message, CAUSE), "value": ids.pack(i=1, p="no-such-cause")}
    bot.send(
        click(shared_dir, forged, message=message, response_url=bot.recorder.url + "/respond/1"),
        content_type=FORM,
    )
    text = all_text(bot.recorder.wait_for("chat.postEphemeral")[-1].body)
    assert "has no recorded answer with no-such-cause" in text and "Traceback" not in text


def test_the_home_language_menu_is_stored_and_applies_to_later_answers(serve_app, shared_dir):
    bot = serve_app()
    view = open_home(bot, shared_dir)
    menu = next(b["accessory"] for b in view["blocks"] if b.get("block_id") == "lang")
    assert menu["type"] == "static_select" and ids.unpack(menu["initial_option"]["value"]) == {"l": "auto"}
    assert [o["text"]["text"] for o in menu["options"]] == ["Follow my paste", "English", "中文 (Chinese)"]

    view = choose(bot, shared_dir, view, "zh")
    assert bot.services.incidents.user_lang(USER) == "zh"
    text = all_text(view)
    assert "以后给你的回答将使用中文" in text and "回答语言" in text and "最近 30 天" in text
    menu = next(b["accessory"] for b in view["blocks"] if b.get("block_id") == "lang")
    assert ids.unpack(menu["initial_option"]["value"]) == {"l": "zh"}

    answer = all_text(ask(bot, shared_dir, PASTE, ts="1700000200.000001"))  # an English paste
    assert "可能的原因" in answer and "详情" in answer and "Likely causes" not in answer
    other = all_text(ask(bot, shared_dir, PASTE, ts="1700000300.000001", user="W333"))
    assert "Likely causes" in other  # only that person's answers change

    view = choose(bot, shared_dir, view, "auto")
    assert bot.services.incidents.user_lang(USER) is None
    assert "Answers for you will follow the language of your paste" in all_text(view)
    assert "Likely causes" in all_text(ask(bot, shared_dir, PASTE, ts="1700000400.000001"))

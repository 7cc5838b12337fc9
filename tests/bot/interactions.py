"""Build Slack's interactive request bodies from the payloads in ../shared/slack-payloads."""

from __future__ import annotations

import itertools
import json
import urllib.parse
from pathlib import Path
from typing import Any

from tests.bot.conftest import payload

_TRIGGERS = itertools.count(1)


def trigger_id() -> str:
    """A new trigger id in Slack's shape: like Slack, every request built here gets its own (the bot
    deduplicates on it, so a replay is the same body sent again)."""
    n = next(_TRIGGERS)
    return f"13345224609.{738474920 + n}.{n:021x}"


def slash_command(
    shared_dir: Path,
    text: str,
    *,
    response_url: str,
    command: str = "/diagnose",
    channel: str = "C111",
    user: str = "W111",
) -> str:
    """The form body of a slash command (bolt's sample with our command, text and response_url)."""
    raw = (shared_dir / "slack-payloads" / "bolt-slash-command.txt").read_text()
    form = dict(urllib.parse.parse_qsl(raw, keep_blank_values=True))
    form.update(command=command, text=text, channel_id=channel, user_id=user, response_url=response_url)
    form["trigger_id"] = trigger_id()
    return urllib.parse.urlencode(form)


def as_form(body: dict[str, Any]) -> str:
    """Interactive payloads travel as `payload=<urlencoded JSON>`."""
    return "payload=" + urllib.parse.quote(json.dumps(body))


def click(
    shared_dir: Path,
    element: dict[str, Any],
    *,
    message: dict[str, Any],
    response_url: str,
    channel: str = "C111",
    user: str = "W111",
) -> str:
    """A block_actions body for clicking `element` (a button or a chosen option) in the bot's `message`."""
    body = payload(shared_dir, "bolt-block-actions-button.json")
    action = {"block_id": "b", "action_ts": "1700000000.000001", **element}
    if element["type"] == "static_select":
        action["selected_option"] = element["options"][0]
    body.update(
        actions=[action],
        trigger_id=trigger_id(),
        response_url=response_url,
        message=message,
        channel={"id": channel, "name": "gpu-ops"},
        user={**body["user"], "id": user},
    )
    body["container"] = {
        "type": "message",
        "message_ts": message["ts"],
        "channel_id": channel,
        "is_ephemeral": False,
        **({"thread_ts": message["thread_ts"]} if "thread_ts" in message else {}),
    }
    return as_form(body)


def submit_view(
    shared_dir: Path, view: dict[str, Any], values: dict[str, dict[str, Any]], user: str = "W111"
) -> str:
    """A view_submission body for the modal `view` (as opened) with `values` filled in."""
    body = payload(shared_dir, "bolt-view-submission.json")
    body["view"].update(
        callback_id=view["callback_id"],
        private_metadata=view["private_metadata"],
        blocks=view["blocks"],
        state={"values": values},
    )
    body["user"]["id"] = user
    body["trigger_id"] = trigger_id()
    return as_form(body)


def suggest(view: dict[str, Any], action_id: str, value: str, user: str = "W111") -> str:
    """A block_suggestion body (COMPOSED: no verbatim sample exists in ../shared/slack-payloads).

    Shape per https://docs.slack.dev/reference/interaction-payloads/block-suggestion-payload
    """
    body = {
        "type": "block_suggestion",
        "user": {"id": user, "team_id": "T111"},
        "team": {"id": "T111"},
        "api_app_id": "A111",
        "token": "verification_token",
        "container": {"type": "view", "view_id": "V1"},
        "action_id": action_id,
        "block_id": "cause",
        "value": value,
        "view": {
            "id": "V1",
            "type": "modal",
            "callback_id": view["callback_id"],
            "private_metadata": view["private_metadata"],
        },
    }
    return as_form(body)


def suggest_in_message(element_block: str, action_id: str, value: str, user: str = "W111") -> str:
    """A block_suggestion body for a menu in a message (COMPOSED like `suggest`): the block id is the
    one the bot wrote, the container a message."""
    body = {
        "type": "block_suggestion",
        "user": {"id": user, "team_id": "T111"},
        "team": {"id": "T111"},
        "api_app_id": "A111",
        "token": "verification_token",
        "container": {"type": "message", "message_ts": "1700000000.000001", "channel_id": "C111"},
        "action_id": action_id,
        "block_id": element_block,
        "value": value,
        "channel": {"id": "C111", "name": "gpu-ops"},
    }
    return as_form(body)


def elements(message_body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every interactive element in a posted message's blocks."""
    return [e for b in message_body.get("blocks") or [] if b["type"] == "actions" for e in b["elements"]]

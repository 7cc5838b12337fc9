"""The App Home language menu: store the person's answer language and show the tab in it."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.bot.deps import Deps
from pitstop.bot.home import publish_home
from pitstop.bot.payload import clicked


def set_language_callback(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Store English, Chinese or "follow my paste" for the person, then republish their Home tab."""
    user = body["user"]["id"]
    notice = flows.set_language(deps.services, user, str(clicked(body).get("l", "")))
    publish_home(deps, client, user, notice)
    ack()

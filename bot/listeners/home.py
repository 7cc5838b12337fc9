"""The App Home tab: pending drafts and incident figures, published when someone opens it."""

from __future__ import annotations

from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from pitstop.bot.errors import describe
from pitstop.bot.listeners import Deps
from pitstop.bot.listeners.drafts import publish_home
from pitstop.bot.render import blocks
from pitstop.bot.render.model import Notice


def register(app: App, deps: Deps) -> None:
    """Register the App Home listener."""

    @app.event("app_home_opened")
    def on_home(event: dict[str, Any], client: WebClient) -> None:
        if event.get("tab") != "home" or not event.get("user"):
            return
        try:
            publish_home(deps, client, event["user"])
        except Exception as exc:  # noqa: BLE001 - an empty tab says why
            view = {"type": "home", "blocks": list(blocks.notice_message(Notice(describe(exc))).blocks)}
            client.views_publish(user_id=event["user"], view=view)

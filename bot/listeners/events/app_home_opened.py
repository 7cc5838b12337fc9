"""The App Home tab: pending drafts and incident figures, published when someone opens it."""

from __future__ import annotations

from typing import Any

from slack_sdk import WebClient

from pitstop.bot.deps import Deps
from pitstop.bot.home import publish_home


def app_home_opened_callback(event: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Publish the Home tab for the person who opened it."""
    if event.get("tab") != "home" or not event.get("user"):
        return
    publish_home(deps, client, event["user"])

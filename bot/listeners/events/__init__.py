"""Event listeners: every event type the manifest subscribes to has one (an unmatched event gets a
404 and Slack retries it); `tests/bot/test_registry.py` checks that against the built app."""

from __future__ import annotations

from slack_bolt import App

from pitstop.bot.listeners.events.app_home_opened import app_home_opened_callback
from pitstop.bot.listeners.events.app_mention import app_mention_callback
from pitstop.bot.listeners.events.message import message_callback


def register(app: App) -> None:
    """Register the event listeners."""
    app.event("app_mention")(app_mention_callback)
    app.event("message")(message_callback)
    app.event("app_home_opened")(app_home_opened_callback)

"""Options listeners: the resolution modal's cause search and the answer's host picker."""

from __future__ import annotations

from slack_bolt import App

from pitstop.bot import ids
from pitstop.bot.listeners.options.causes import causes_callback
from pitstop.bot.listeners.options.hosts import hosts_callback


def register(app: App) -> None:
    """Register the options (external select) listeners."""
    app.options(ids.CAUSE_SELECT)(causes_callback)
    app.options(ids.ACTION_PICK_HOST)(hosts_callback)

"""Modal submission listeners: the resolution modal and the draft edit modal."""

from __future__ import annotations

from slack_bolt import App

from pitstop.bot import ids
from pitstop.bot.listeners.views.draft_edit import draft_edit_callback
from pitstop.bot.listeners.views.resolution import resolution_callback


def register(app: App) -> None:
    """Register the view-submission listeners."""
    app.view(ids.VIEW_RESOLUTION)(resolution_callback)
    app.view(ids.VIEW_DRAFT_EDIT)(draft_edit_callback)

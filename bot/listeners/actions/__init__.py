"""Button and menu listeners: feedback, "Details", "Record resolution", "Run checks on HOST", draft
review, the App Home language menu."""

from __future__ import annotations

from slack_bolt import App

from pitstop.bot import ids
from pitstop.bot.listeners.actions.details import details_callback
from pitstop.bot.listeners.actions.edit_draft import edit_draft_callback
from pitstop.bot.listeners.actions.feedback import feedback_callback
from pitstop.bot.listeners.actions.record_resolution import record_resolution_callback
from pitstop.bot.listeners.actions.review_draft import review_draft_callback
from pitstop.bot.listeners.actions.run_checks import run_checks_callback
from pitstop.bot.listeners.actions.set_language import set_language_callback


def register(app: App) -> None:
    """Register the action listeners (a callback serving two ids tells them apart by action id)."""
    app.action(ids.ACTION_THIS)(feedback_callback)
    app.action(ids.ACTION_NOT_IT)(feedback_callback)
    app.action(ids.ACTION_RESOLVE)(record_resolution_callback)
    app.action(ids.ACTION_RUN)(run_checks_callback)
    app.action(ids.ACTION_PICK_HOST)(run_checks_callback)
    app.action(ids.ACTION_APPROVE)(review_draft_callback)
    app.action(ids.ACTION_REJECT)(review_draft_callback)
    app.action(ids.ACTION_EDIT)(edit_draft_callback)
    app.action(ids.ACTION_DETAILS)(details_callback)
    app.action(ids.ACTION_LANG)(set_language_callback)

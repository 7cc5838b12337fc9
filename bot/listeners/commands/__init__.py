"""Slash-command listeners; the manifest's commands are checked against them by the registry test."""

from __future__ import annotations

from slack_bolt import App

from pitstop.bot.listeners.commands.diagnose import diagnose_callback


def register(app: App) -> None:
    """Register the slash-command listeners."""
    app.command("/diagnose")(diagnose_callback)

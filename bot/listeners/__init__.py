"""Bolt listeners, one module per kind; `register` wires them all onto an app."""

from __future__ import annotations

from dataclasses import dataclass

from slack_bolt import App

from pitstop.app.services import Services
from pitstop.bot.dedupe import Seen


@dataclass(frozen=True)
class Deps:
    """What every listener needs besides Bolt's arguments."""

    services: Services
    seen: Seen
    update_interval_s: float = 1.5


def register(app: App, deps: Deps) -> None:
    """Register every listener module's listeners on `app`."""
    from pitstop.bot.listeners import actions, commands, drafts, events, home, views

    for module in (events, commands, actions, views, home, drafts):
        module.register(app, deps)

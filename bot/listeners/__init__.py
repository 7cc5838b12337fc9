"""Bolt listeners: one callback per module, grouped by kind (`<kind>/<name>.py`, as in Slack's
bolt-python starter template); each kind's `register` wires its callbacks onto an app.

A listener module imports helpers from `pitstop.bot` and use cases from `pitstop.app`, never
another listener module. Listeners let failures propagate to the one error handler,
`pitstop.bot.errors.on_listener_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from slack_bolt import App, BoltContext

from pitstop.bot.deps import Deps
from pitstop.bot.errors import on_listener_error


def register(app: App, deps: Deps) -> None:
    """Hand `deps` to every listener (Bolt's context), install the error handler, register every kind,
    and start the workers that do the outbox's rows (first those a previous process left unfinished)."""
    from pitstop.bot import answer, checks, inbox
    from pitstop.bot.listeners import actions, commands, events, options, views
    from pitstop.bot.listeners.views import resolution

    def provide_deps(context: BoltContext, next_: Callable[[], None]) -> None:
        context["deps"] = deps
        next_()

    app.use(provide_deps)
    app.error(on_listener_error)
    for kind in (events, commands, actions, views, options):
        kind.register(app)
    handlers = {
        answer.KIND: partial(answer.answer_entry, deps, app.client),
        checks.KIND: partial(checks.checks_entry, deps, app.client),
        resolution.KIND: partial(resolution.resolve_entry, deps, app.client),
        inbox.KIND: partial(inbox.dispatch_entry, app),
    }
    deps.services.jobs.start(handlers)

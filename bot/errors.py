"""The one place where exceptions become the sentence a person reads (never a traceback).

Listeners let every failure propagate: `on_listener_error` is the Bolt app's one `@app.error`
handler and tells the person where they acted. Background jobs run outside Bolt, so each job
passes its failure route to `reporting` instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from slack_bolt import BoltContext, BoltResponse
from slack_sdk import WebClient

from pitstop.core.errors import NotAllowed, NotFound, PitstopError
from pitstop.core.i18n import render, t
from pitstop.core.redact import redact

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_FIELD_ERROR = 1900  # Slack's limit on a modal field's error text is 2,000 characters

_PREFIX: tuple[tuple[type[PitstopError], str], ...] = (
    (NotAllowed, "chat.error.not_allowed"),
    (NotFound, "chat.error.not_found"),
)


def describe(exc: BaseException, lang: str = "en") -> str:
    """A short human message for `exc` in `lang` (an error carrying a catalogue `Msg` renders in it);
    unexpected errors are logged with their traceback."""
    if isinstance(exc, PitstopError):
        text = render(exc.args[0], lang) if exc.args else type(exc).__name__
        key = next((k for kind, k in _PREFIX if isinstance(exc, kind)), None)
        return redact(t(key, lang, message=text) if key else str(text))
    log.error("unexpected error", exc_info=exc)
    return t("chat.error.unexpected", lang, kind=type(exc).__name__)


def reader_lang(body: dict[str, Any], deps: Any) -> str:
    """The language to tell the person behind `body` something in: their choice (App Home), else that
    of what they wrote or clicked on, else English."""
    from pitstop.core.i18n import detect_lang

    event = body.get("event") or {}
    user = str((body.get("user") or {}).get("id") or body.get("user_id") or event.get("user") or "")
    try:
        chosen = deps.services.incidents.user_lang(user) if deps is not None and user else None
    except Exception:  # noqa: BLE001 - an unreadable setting must not stop the error reaching them
        chosen = None
    said = event.get("text") or body.get("text") or (body.get("message") or {}).get("text") or ""
    return chosen or (detect_lang(said) if said else "en")


def reporting(fn: Callable[[], T], report: Callable[[str], object], lang: str = "en") -> T | None:
    """`fn()` for a background job; on failure `report(describe(exc, lang))` and None."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - jobs run outside Bolt; this is their error handler
        report(describe(exc, lang))
        return None


def on_listener_error(
    error: Exception,
    body: dict[str, Any],
    client: WebClient,
    context: BoltContext,
    response: BoltResponse | None,
) -> BoltResponse | None:
    """The Bolt app's error handler: one sentence for whoever acted, where they acted, and the ack.

    A modal stays open with the sentence on its first field; a menu that cannot load shows no
    options; a slash command answers privately; a click is answered with an ephemeral in its
    channel (on App Home, the tab is republished with the sentence on top).

    Listeners acknowledge last, once their quick work (storing their work in the outbox) succeeded, so
    a failure arrives here unacknowledged (`response` not None) and this handler's response is the
    acknowledgement (Bolt runs with `process_before_response=True` and answers Slack afterwards).
    """
    from pitstop.app.cards import Notice
    from pitstop.bot.home import publish_home, publish_notice
    from pitstop.bot.payload import where
    from pitstop.bot.render import blocks
    from pitstop.bot.slack_io import tell

    text = describe(error, reader_lang(body, context.get("deps")))
    kind = body.get("type")
    event = body.get("event") or {}
    user = str((body.get("user") or {}).get("id") or body.get("user_id") or event.get("user") or "")
    acknowledged: dict[str, Any] = {}
    if kind == "view_submission":
        field = _first_input((body.get("view") or {}).get("blocks") or ())
        if field:
            acknowledged = {"response_action": "errors", "errors": {field: text[:MAX_FIELD_ERROR]}}
    elif kind == "block_suggestion":
        acknowledged = {"options": []}  # an empty list beats a broken menu
    elif body.get("command") and context.respond is not None:  # Bolt sets respond for every command
        context.respond(
            response_type="ephemeral", replace_original=False, **blocks.notice_message(Notice(text)).kwargs()
        )
    elif kind == "block_actions" and user:
        channel, thread = where(body)
        if channel:
            tell(client, channel, user, text, thread_ts=thread)
        elif "deps" in context:  # the App Home tab has no channel: republish it with the sentence on top
            publish_home(context["deps"], client, user, Notice(text))
    elif event.get("type") == "app_home_opened" and user:
        publish_notice(client, user, text)  # an empty tab says why
    if response is None:
        return None
    return BoltResponse(status=200, body=acknowledged) if acknowledged else BoltResponse(status=200, body="")


def _first_input(view_blocks: Any) -> str:
    """The block id of a modal's first input block ('' when it has none)."""
    return next((str(b.get("block_id")) for b in view_blocks if b.get("type") == "input"), "")

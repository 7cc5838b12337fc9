"""The resolution modal: cause search (options load) and the submission that resolves the incident."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from pitstop.bot import flows, ids
from pitstop.bot.errors import describe
from pitstop.bot.listeners import Deps
from pitstop.bot.render import blocks
from pitstop.bot.render.model import Notice
from pitstop.bot.slack_io import post, tell

log = logging.getLogger(__name__)


def form_values(view: dict[str, Any]) -> dict[str, str]:
    """The modal's inputs by block id: the chosen cause's id or each text field's value ('' when empty)."""
    state = (view.get("state") or {}).get("values") or {}
    out: dict[str, str] = {}
    for block_id, action_id in (
        ids.FIELD_CAUSE,
        ids.FIELD_NEW_TITLE,
        ids.FIELD_NEW_WHAT,
        ids.FIELD_NEW_FIX,
        ids.FIELD_NEW_SYMPTOMS,
        ids.FIELD_NOTES,
    ):
        element = (state.get(block_id) or {}).get(action_id) or {}
        chosen = element.get("selected_option") or {}
        out[block_id] = str(chosen.get("value") or element.get("value") or "").strip()
    return out


def validate(values: dict[str, str]) -> dict[str, str]:
    """Errors to show in the modal (block id -> message); empty when the form can be submitted."""
    new = any(values[f[0]] for f in (ids.FIELD_NEW_TITLE, ids.FIELD_NEW_WHAT, ids.FIELD_NEW_FIX))
    cause = values[ids.FIELD_CAUSE[0]]
    if cause and new:
        return {ids.FIELD_CAUSE[0]: "Pick a known cause or describe a new one, not both."}
    if not cause and not new:
        return {ids.FIELD_CAUSE[0]: "Pick the real cause, or describe a new one below."}
    if new:
        missing = {
            f[0]: "Needed for a new cause."
            for f in (ids.FIELD_NEW_TITLE, ids.FIELD_NEW_WHAT)
            if not values[f[0]]
        }
        return missing
    return {}


def new_cause(values: dict[str, str]) -> Any:
    """The `NewCause` the form describes, or None when a known cause was picked."""
    if not values[ids.FIELD_NEW_TITLE[0]]:
        return None
    from pitstop.incidents.model import NewCause

    symptoms = tuple(line.strip() for line in values[ids.FIELD_NEW_SYMPTOMS[0]].splitlines() if line.strip())
    return NewCause(
        title=values[ids.FIELD_NEW_TITLE[0]],
        what=values[ids.FIELD_NEW_WHAT[0]],
        fix=values[ids.FIELD_NEW_FIX[0]],
        symptoms=symptoms,
    )


def register(app: App, deps: Deps) -> None:
    """Register the modal's listeners."""
    services = deps.services

    @app.options(ids.CAUSE_SELECT)
    def on_cause_options(ack: Ack, body: dict[str, Any]) -> None:
        meta = ids.unpack((body.get("view") or {}).get("private_metadata"))
        iid = meta.get("i") if isinstance(meta.get("i"), int) else None
        try:
            choices = flows.search_causes(services, str(body.get("value") or ""), iid)
        except Exception as exc:  # noqa: BLE001 - an empty list beats a broken menu
            log.info("cause search failed: %s", describe(exc))
            choices = ()
        ack(options=blocks.cause_options(choices))

    @app.view(ids.VIEW_RESOLUTION)
    def on_submit(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        values = form_values(view)
        errors = validate(values)
        if errors:
            ack(response_action="errors", errors=errors)
            return
        ack()
        meta = ids.unpack(view.get("private_metadata"))
        user = body["user"]["id"]
        deps.services.jobs.submit(_resolve, deps, client, meta, values, user)


def _resolve(deps: Deps, client: WebClient, meta: dict[str, Any], values: dict[str, str], user: str) -> None:
    channel, thread = str(meta.get("c") or ""), meta.get("t")
    try:
        notice = flows.resolve(
            deps.services,
            int(meta["i"]),
            user=user,
            cause_id=values[ids.FIELD_CAUSE[0]] or None,
            new_cause=new_cause(values),
            notes=values[ids.FIELD_NOTES[0]],
        )
    except Exception as exc:  # noqa: BLE001 - told to the person who submitted
        if channel:
            tell(client, channel, user, describe(exc), thread_ts=thread)
        return
    if channel:
        post(
            client,
            channel,
            blocks.notice_message(Notice(notice.text, ok=True, mention=user)),
            thread_ts=thread,
        )
        for card in flows.pending_drafts(deps.services, int(meta["i"])):
            post(client, channel, blocks.draft_message(card), thread_ts=thread)

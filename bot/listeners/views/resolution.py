"""The resolution modal's submission: checked in the modal, then the incident resolved in the background."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.app.cards import Notice
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reporting
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import post, tell
from pitstop.core.i18n import t
from pitstop.incidents.model import NewCause


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


def validate(values: dict[str, str], lang: str = "en") -> dict[str, str]:
    """Errors to show in the modal (block id -> message in `lang`); empty when the form can be submitted."""
    new = any(values[f[0]] for f in (ids.FIELD_NEW_TITLE, ids.FIELD_NEW_WHAT, ids.FIELD_NEW_FIX))
    cause = values[ids.FIELD_CAUSE[0]]
    if cause and new:
        return {ids.FIELD_CAUSE[0]: t("chat.form.both", lang)}
    if not cause and not new:
        return {ids.FIELD_CAUSE[0]: t("chat.form.neither", lang)}
    if new:
        needed = t("chat.form.needed", lang)
        return {f[0]: needed for f in (ids.FIELD_NEW_TITLE, ids.FIELD_NEW_WHAT) if not values[f[0]]}
    return {}


def new_cause(values: dict[str, str]) -> NewCause | None:
    """The `NewCause` the form describes, or None when a known cause was picked."""
    if not values[ids.FIELD_NEW_TITLE[0]]:
        return None
    symptoms = tuple(line.strip() for line in values[ids.FIELD_NEW_SYMPTOMS[0]].splitlines() if line.strip())
    return NewCause(
        title=values[ids.FIELD_NEW_TITLE[0]],
        what=values[ids.FIELD_NEW_WHAT[0]],
        fix=values[ids.FIELD_NEW_FIX[0]],
        symptoms=symptoms,
    )


def resolution_callback(
    ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient, deps: Deps
) -> None:
    """Show the form's errors in the modal, or close it and resolve the incident in the background."""
    values = form_values(view)
    meta = ids.unpack(view.get("private_metadata"))
    errors = validate(values, str(meta.get("l") or "en"))
    if errors:
        ack(response_action="errors", errors=errors)
        return
    ack()
    deps.services.jobs.submit(_resolve, deps, client, meta, values, body["user"]["id"])


def _resolve(deps: Deps, client: WebClient, meta: dict[str, Any], values: dict[str, str], user: str) -> None:
    channel, thread = str(meta.get("c") or ""), meta.get("t")

    def told(text: str) -> None:  # told to the person who submitted
        if channel:
            tell(client, channel, user, text, thread_ts=thread)

    notice = reporting(
        lambda: flows.resolve(
            deps.services,
            int(meta["i"]),
            user=user,
            cause_id=values[ids.FIELD_CAUSE[0]] or None,
            new_cause=new_cause(values),
            notes=values[ids.FIELD_NOTES[0]],
        ),
        told,
        str(meta.get("l") or "en"),
    )
    if notice is None or not channel:
        return
    post(client, channel, blocks.notice_message(Notice(notice.text, ok=True, mention=user)), thread_ts=thread)
    for card in flows.pending_drafts(deps.services, int(meta["i"])):
        post(client, channel, blocks.draft_message(card), thread_ts=thread)

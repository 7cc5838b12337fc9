"""The resolution modal's submission: checked in the modal, then the incident resolved in the background."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows, interactions
from pitstop.app.cards import Notice
from pitstop.bot import ids
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reporting
from pitstop.bot.payload import incident_of, user_of, view_metadata
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import post, tell
from pitstop.incidents.model import NewCause

if TYPE_CHECKING:
    from pitstop.incidents.store import Incident


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
    """Show the form's errors in the modal, or close it and resolve the incident in the background.

    Refused in the modal, before anything is stored: metadata that is not signed for this modal and
    person, an incident already resolved (a replayed submission), a cause id the KB does not hold.
    """
    meta = view_metadata(deps.sealer, body)
    record = interactions.unresolved(interactions.stored_incident(deps.services, incident_of(meta)))
    values = form_values(view)
    errors = validate(values)
    if errors:
        ack(response_action="errors", errors=errors)
        return
    if values[ids.FIELD_CAUSE[0]]:
        interactions.known_cause(deps.services, values[ids.FIELD_CAUSE[0]])
    ack()
    deps.services.jobs.submit(_resolve, deps, client, record, values, user_of(body))


def _resolve(deps: Deps, client: WebClient, record: Incident, values: dict[str, str], user: str) -> None:
    """Resolve `record` and answer in its own thread (the stored channel, never one from the payload)."""
    channel, thread = record.channel, record.thread_ts

    def told(text: str) -> None:  # told to the person who submitted
        tell(client, channel, user, text, thread_ts=thread)

    notice = reporting(
        lambda: flows.resolve(
            deps.services,
            record.id,
            user=user,
            cause_id=values[ids.FIELD_CAUSE[0]] or None,
            new_cause=new_cause(values),
            notes=values[ids.FIELD_NOTES[0]],
        ),
        told,
    )
    if notice is None:
        return
    post(client, channel, blocks.notice_message(Notice(notice.text, ok=True, mention=user)), thread_ts=thread)
    for card in flows.pending_drafts(deps.services, record.id):
        post(client, channel, blocks.draft_message(card), thread_ts=thread)

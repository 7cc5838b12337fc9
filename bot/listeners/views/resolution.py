"""The resolution modal's submission: checked in the modal, stored in the outbox, then the incident
resolved in the background."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.app import flows, interactions
from pitstop.app.cards import Notice
from pitstop.app.outbox import Entry
from pitstop.bot import ids
from pitstop.bot.delivery import Delivery, trigger_key
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reporting
from pitstop.bot.payload import incident_of, user_of, view_metadata
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import tell
from pitstop.core.i18n import t
from pitstop.incidents.model import NewCause
from pitstop.incidents.store import AlreadyResolved


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


KIND = "resolve"  # outbox rows: a submitted resolution to record and announce in its thread


def resolution_callback(
    ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient, deps: Deps
) -> None:
    """Show the form's errors in the modal, or store the resolution in the outbox and close the modal.

    Refused in the modal, before anything is stored: metadata that is not signed for this modal and
    person, an incident already resolved (a replayed submission), a cause id the KB does not hold.
    """
    meta = view_metadata(deps.sealer, body)
    record = interactions.unresolved(interactions.stored_incident(deps.services, incident_of(meta)))
    values = form_values(view)
    errors = validate(values, flows.reader_lang(deps.services, user_of(body), record.lang))
    if errors:
        ack(response_action="errors", errors=errors)
        return
    if values[ids.FIELD_CAUSE[0]]:
        interactions.known_cause(deps.services, values[ids.FIELD_CAUSE[0]])
    work = {"incident": record.id, "values": values, "user": user_of(body)}
    deps.services.jobs.put(KIND, trigger_key(body), work)
    ack()


def resolve_entry(deps: Deps, client: WebClient, entry: Entry) -> None:
    """Resolve one stored submission and announce it (and the drafts it made) once, in the incident's
    own thread (the stored channel, never one from the payload)."""
    values, user = entry.payload["values"], entry.payload["user"]
    record = deps.services.incidents.get(int(entry.payload["incident"]))
    channel, thread = record.channel, record.thread_ts
    out = Delivery(client, entry, channel)

    def told(text: str) -> None:  # told to the person who submitted
        tell(client, channel, user, text, thread_ts=thread)

    def resolve() -> Notice:
        try:
            return flows.resolve(
                deps.services,
                record.id,
                user=user,
                cause_id=values[ids.FIELD_CAUSE[0]] or None,
                new_cause=new_cause(values),
                notes=values[ids.FIELD_NOTES[0]],
                vouched=deps.maintainers.allows(user),
            )
        except AlreadyResolved:
            if not entry.retry:
                raise
            # the earlier attempt resolved it, then died before announcing it
            return flows.resolved_notice(deps.services.incidents.get(record.id), lang)

    lang = flows.reader_lang(deps.services, user, record.lang)
    notice = reporting(resolve, told, lang)
    if notice is None:
        return
    message = blocks.notice_message(Notice(notice.text, ok=True, mention=user))
    out.post(message, thread_ts=thread, part="notice")
    for card in flows.pending_drafts(deps.services, record.id):
        out.post(blocks.draft_message(card), thread_ts=thread, part=f"draft:{card.id}")

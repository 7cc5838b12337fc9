"""Authorization of clicks and form submissions on the server, whatever the payload claims.

A Slack click carries values Pitstop wrote (an incident id, a cause id) and values Slack asserts
(who clicked, in which conversation). Only the latter are trusted: an incident may be changed only
from the conversation it was recorded in, a resolution only while the incident is unresolved, and
every cause id must name a pitfall the knowledge base holds. Replies go to the incident's own
channel and thread, read from the store, never to a place the payload names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pitstop.core.errors import NotAllowed, NotFound
from pitstop.core.i18n import msg
from pitstop.core.redact import redact

if TYPE_CHECKING:
    from pitstop.app.services import Services
    from pitstop.incidents.store import Incident

MAX_ID = 2**63 - 1  # SQLite's largest integer; a larger id names nothing


def stored_incident(services: Services, incident: int) -> Incident:
    """The incident with this id (a number a payload carried); NotFound when there is none."""
    if not 0 < incident <= MAX_ID:
        raise NotFound(msg("security.interaction.no_incident", incident=incident))
    try:
        return services.incidents.get(incident)
    except NotFound:
        raise NotFound(msg("security.interaction.no_incident", incident=incident)) from None


def incident_in(services: Services, incident: int, *, channel: str) -> Incident:
    """The incident a click names, if it was recorded in `channel` (where Slack says the click was)."""
    record = stored_incident(services, incident)
    if not channel or record.channel != channel:
        raise NotAllowed(msg("security.interaction.other_channel", incident=incident))
    return record


def unresolved(record: Incident) -> Incident:
    """`record`, if nobody resolved it yet (a replayed or second resolution is refused)."""
    if record.resolution is not None:
        raise NotAllowed(
            msg("security.interaction.already_resolved", incident=record.id, cause=record.resolution.cause_id)
        )
    return record


def known_cause(services: Services, cause_id: str) -> str:
    """`cause_id`, if the knowledge base holds it (drafts included, rejected ones not); else NotFound."""
    from pitstop.incidents.learning import pitfall_exists

    if not pitfall_exists(services.kb.db, cause_id):
        raise NotFound(msg("security.interaction.unknown_cause", cause=redact(cause_id)[:60]))
    return cause_id

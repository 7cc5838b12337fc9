"""Identifiers shared by renderers and listeners: action ids, the modal's callback and field ids."""

from __future__ import annotations

import json
from typing import Any

ACTION_THIS = "pitstop_this"
ACTION_NOT_IT = "pitstop_not_it"
ACTION_RESOLVE = "pitstop_resolve"
ACTION_RUN = "pitstop_run"
ACTION_PICK_HOST = "pitstop_pick_host"
ACTION_APPROVE = "pitstop_draft_approve"
ACTION_REJECT = "pitstop_draft_reject"
ACTION_EDIT = "pitstop_draft_edit"
ACTION_DETAILS = "pitstop_details"
ACTION_LANG = "pitstop_lang"

ACTIONS: tuple[str, ...] = (
    ACTION_THIS,
    ACTION_NOT_IT,
    ACTION_RESOLVE,
    ACTION_RUN,
    ACTION_PICK_HOST,
    ACTION_APPROVE,
    ACTION_REJECT,
    ACTION_EDIT,
    ACTION_DETAILS,
    ACTION_LANG,
)

VIEW_RESOLUTION = "pitstop_resolution"
VIEW_DRAFT_EDIT = "pitstop_draft_edit"
CAUSE_SELECT = "pitstop_cause"  # action id of the external_select served by the options listener

# (block_id, action_id) of each input in the resolution modal.
FIELD_CAUSE = ("cause", CAUSE_SELECT)
FIELD_NEW_TITLE = ("new_title", "value")
FIELD_NEW_WHAT = ("new_what", "value")
FIELD_NEW_FIX = ("new_fix", "value")
FIELD_NEW_SYMPTOMS = ("new_symptoms", "value")
FIELD_NOTES = ("notes", "value")
# (block_id, action_id, kb.drafts field, is a list) of each input in the draft edit modal.
DRAFT_FIELDS: tuple[tuple[str, str, str, bool], ...] = (
    ("d_title", "value", "title", False),
    ("d_summary", "value", "summary", False),
    ("d_symptoms", "value", "symptoms", True),
    ("d_fix", "value", "fix", True),
)


def pack(**fields: Any) -> str:
    """Encode a button value compactly (modal metadata is signed instead: `bot.payload.seal_view`)."""
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)


def unpack(value: str | None) -> dict[str, Any]:
    """Decode what `pack` wrote; anything else (tampered, empty) decodes to {}."""
    try:
        decoded = json.loads(value or "{}")
    except ValueError:
        return {}
    return decoded if isinstance(decoded, dict) else {}

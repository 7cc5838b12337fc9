"""Resolve -> learn: what a resolution teaches the knowledge base.

An existing cause gains the incident's error text as a new example (embedded and added to the
index at once, no rebuild). A new cause becomes a draft pitfall, searchable at once and marked
unreviewed in answers, unless it is semantically close to an existing pitfall: then it becomes a
merge proposal for a maintainer instead (`kb.drafts`). Every step is idempotent, so that
`Incidents.learn_pending` can finish a resolution that a crash cut short.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

import sqlite_utils

from pitstop.core.clock import Clock, stamp
from pitstop.core.db import immediate
from pitstop.core.errors import UsageError
from pitstop.core.i18n import Msg, msg, stored
from pitstop.incidents.model import NewCause
from pitstop.kb.preprocess import prepare
from pitstop.kb.schema import MERGE_ID, Pitfall

if TYPE_CHECKING:
    from pitstop.kb.service import KnowledgeBase

# Cosine between a described new cause and the nearest curated example; docs/LEARNING.md has the figures.
MERGE_SIMILARITY = 0.67
MERGE_NEIGHBOURS = 3  # the entries this close are all checked against the causes the team turned down
DEFAULT_SEVERITY = "medium"
MAX_SLUG = 60


def pitfall_exists(db: sqlite_utils.Database, pitfall_id: str) -> bool:
    """True when the KB holds a pitfall with this id that is not rejected."""
    return (
        db.execute("SELECT 1 FROM pitfalls WHERE id = ? AND status != 'rejected'", [pitfall_id]).fetchone()
        is not None
    )


def slugify(title: str) -> str:
    """A pitfall id from a title: lowercase ASCII words joined by dashes, at most MAX_SLUG characters."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > MAX_SLUG:
            break
        slug = candidate
    return slug


def reserve_draft_id(db: sqlite_utils.Database, title: str, incident_id: int) -> str:
    """An id for a new cause that no pitfall, draft or pending resolution uses yet, and never the name
    a merge proposal will need (`merge-<incident>`: a title "Merge 57" is `merge-57-cause`)."""
    base = slugify(title)
    if len(base) < 3:
        base = f"incident-{incident_id}-cause"
    elif MERGE_ID.fullmatch(base):
        base = f"{base}-cause"
    taken = {
        row[0]
        for row in db.execute(
            "SELECT id FROM pitfalls WHERE id = ?1 OR id LIKE ?1 || '-%' UNION SELECT id FROM drafts"
            " WHERE id = ?1 OR id LIKE ?1 || '-%' UNION SELECT cause_id FROM resolutions"
            " WHERE cause_id = ?1 OR cause_id LIKE ?1 || '-%'",
            [base],
        )
    }
    suffix = 2
    slug = base
    while slug in taken:
        slug = f"{base}-{suffix}"
        suffix += 1
    return slug


def learn(kb: KnowledgeBase, db: sqlite_utils.Database, incident_id: int, *, clock: Clock) -> Msg | str:
    """Teach the KB from one recorded resolution (idempotent); returns what was learned, as a message
    (the stored English text for a resolution learned before messages were kept)."""
    row = db.execute(
        "SELECT r.kind, r.cause_id, r.new_cause_json, r.learn_state, r.learned, r.learned_msg_json,"
        " r.resolved_by, i.error_text, i.channel, i.thread_ts FROM resolutions r"
        " JOIN incidents i ON i.id = r.incident_id WHERE r.incident_id = ?",
        [incident_id],
    ).fetchone()
    kind, cause_id, new_json, state, text_learned, msg_json, user, text, channel, thread = row
    if state == "done":
        return stored(json.loads(msg_json or "null"), text_learned)
    origin = f"incident #{incident_id} ({channel} {thread}), resolved by {user}"
    if kind == "existing":
        learned = _add_example(kb, db, cause_id, text, incident_id, origin)
    else:
        new = NewCause.from_json(json.loads(new_json))
        kind, cause_id, learned = _new_cause(kb, db, cause_id, new, text, incident_id, origin, user, clock)
    with immediate(db):
        db.execute(
            "UPDATE resolutions SET kind = ?, cause_id = ?, learn_state = 'done', learned = ?,"
            " learned_msg_json = ? WHERE incident_id = ?",
            [kind, cause_id, str(learned), json.dumps(learned.to_json(), ensure_ascii=False), incident_id],
        )
    return learned


def example_text(error_text: str) -> str:
    """What an incident teaches: the retriever's cleaned view of its paste ('' when there is none)."""
    try:
        return prepare(error_text).clean.strip()
    except UsageError:
        return ""


def _add_example(
    kb: KnowledgeBase, db: sqlite_utils.Database, pitfall_id: str, text: str, incident_id: int, origin: str
) -> Msg:
    text = example_text(text)
    if not text:
        return msg("learning.nothing")
    existing = db.execute(
        "SELECT id FROM examples WHERE incident_id = ? AND pitfall_id = ?",
        [incident_id, pitfall_id],
    ).fetchone()
    example_id = (
        existing[0]
        if existing
        else kb.add_example(pitfall_id, text, source="incident", incident_id=incident_id, provenance=origin)
    )
    return msg("learning.example", example=example_id, cause=pitfall_id)


def _new_cause(
    kb: KnowledgeBase,
    db: sqlite_utils.Database,
    draft_id: str,
    new: NewCause,
    text: str,
    incident_id: int,
    origin: str,
    user: str,
    clock: Clock,
) -> tuple[str, str, Msg]:
    """Create the draft or the merge proposal (decided once: a retry reuses the recorded decision).

    A merge is proposed into the nearest entry when the description is close to some entries and the
    team was offered none of them: "none of these" over an offered close entry says the closeness
    is the model's confusion, not a duplicate, so that case becomes a draft the next paste can find.

    Returns (kind, cause_id, sentence).
    """
    text = example_text(text)
    row = db.execute(
        "SELECT kind, target_id, similarity, body_json FROM drafts WHERE incident_id = ?", [incident_id]
    ).fetchone()
    if row is None:
        found = kb.nearest(describe(new), top=MERGE_NEIGHBOURS)
        near = found[0] if found else None
        close = [n.pitfall_id for n in found if n.similarity >= MERGE_SIMILARITY]
        now = stamp(clock())
        if close and not set(close) & _offered(db, incident_id):
            row = (
                "merge",
                found[0].pitfall_id,
                found[0].similarity,
                {"new_cause": new.to_json(), "error_text": text},
            )
            _insert_draft(db, f"merge-{incident_id}", incident_id, row, user, now)
        else:
            pitfall = draft_pitfall(
                draft_id,
                new,
                text,
                layer=kb.get(near.pitfall_id).layer if near else "gpu",
                incident_id=incident_id,
                provenance=f"learned from {origin} on {now}",
            )
            row = ("new", None, near.similarity if near else None, pitfall.to_dict())
            _insert_draft(db, draft_id, incident_id, row, user, now)
    else:
        row = (*row[:3], json.loads(row[3]))
    kind, target, similarity, body = row
    if kind == "merge":
        return (
            "merge",
            target,
            msg("learning.merge", target=target, similarity=f"{similarity:.2f}", id=f"merge-{incident_id}"),
        )
    kb.upsert_pitfall(Pitfall.from_dict(body), examples=[t for t in (text, *new.symptoms) if t])
    return "draft", draft_id, msg("learning.draft", cause=draft_id)


def _offered(db: sqlite_utils.Database, incident_id: int) -> set[str]:
    """The causes the incident's answers offered: "none of these" turned them down."""
    rows = db.execute("SELECT pitfall_id FROM incident_candidates WHERE incident_id = ?", [incident_id])
    return {row[0] for row in rows}


def _insert_draft(
    db: sqlite_utils.Database,
    draft_id: str,
    incident_id: int,
    decision: tuple[str, str | None, float | None, Mapping[str, object]],
    user: str,
    now: str,
) -> None:
    kind, target, similarity, body = decision
    with immediate(db):
        db.execute(
            "INSERT INTO drafts (id, kind, incident_id, target_id, similarity, body_json, created_by,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [
                draft_id,
                kind,
                incident_id,
                target,
                similarity,
                json.dumps(body, ensure_ascii=False),
                user,
                now,
            ],
        )


def describe(new: NewCause) -> str:
    """The text that stands for a new cause when comparing it with existing entries."""
    return "\n".join([new.title, new.what, *new.symptoms])


def draft_pitfall(
    draft_id: str, new: NewCause, text: str, *, layer: str, incident_id: int, provenance: str
) -> Pitfall:
    """A draft entry from a new cause, with placeholders a maintainer reviews before approval."""
    symptoms = list(new.symptoms) or [line for line in text.splitlines() if line.strip()][:3]
    return Pitfall(
        id=draft_id,
        title=new.title,
        title_zh=new.title,
        layer=layer,
        severity=DEFAULT_SEVERITY,
        summary=new.what,
        summary_zh=new.what,
        cause=new.what,
        symptoms=tuple(symptoms),
        signatures=tuple(re.escape(s.strip()[:120]).replace("\\ ", " ") for s in symptoms[:3]),
        fix=(new.fix,) if new.fix else ("(to be written by the reviewer)",),
        references=(f"pitstop incident #{incident_id}",),
        status="draft",
        provenance=provenance,
    )

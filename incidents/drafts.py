"""Maintainers' side of learning: list, edit, approve or reject drafts and merge proposals.

A 'new' draft is a pitfall with status 'draft' (searchable, marked unreviewed); approving it
writes `<directory>/<id>.yaml` (by default `kb/pitfalls/`, for review in git) that
`kb.schema.load_pitfalls` accepts, and makes the entry curated. A 'merge' proposal says that a
described new cause looks like an existing entry; approving it adds the incident's text and
symptom lines to that entry as examples.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlite_utils
import yaml

from pitstop.core.clock import Clock, stamp, utc_now
from pitstop.core.db import immediate
from pitstop.core.errors import NotFound, UsageError
from pitstop.core.i18n import Msg, msg
from pitstop.core.redact import redact
from pitstop.core.strings import map_strings
from pitstop.core.terminal import printable, without_controls
from pitstop.kb.schema import PITFALLS_DIR, Pitfall, validate_entry

if TYPE_CHECKING:
    from pitstop.kb.service import KnowledgeBase

EDITABLE_TEXT = ("title", "title_zh", "layer", "severity", "summary", "summary_zh", "cause")
EDITABLE_LISTS = ("symptoms", "signatures", "fix", "references")


@dataclass(frozen=True)
class Draft:
    """A draft pitfall or a merge proposal, with its review state."""

    id: str
    kind: str  # new | merge
    incident_id: int | None
    target_id: str | None
    similarity: float | None
    status: str  # draft | approved | rejected
    body: Mapping[str, Any]
    created_by: str
    created_at: str
    decided_by: str | None
    decided_at: str | None
    file_path: str | None

    @property
    def title(self) -> str:
        """What the draft is called: its title, or the described cause of a merge proposal."""
        return str(self.body.get("title") or self.body.get("new_cause", {}).get("title", ""))

    def to_json(self) -> dict[str, Any]:
        """Plain data for `--json` output."""
        return {**self.__dict__, "body": dict(self.body), "title": self.title}


def list_drafts(db: sqlite_utils.Database, status: str | None = "draft") -> list[Draft]:
    """Drafts with this status (None: all), oldest first."""
    where, params = ("WHERE status = ?", [status]) if status else ("", [])
    return [_draft(row) for row in db.query(f"SELECT * FROM drafts {where} ORDER BY created_at, id", params)]


def get_draft(db: sqlite_utils.Database, draft_id: str) -> Draft:
    """One draft; raises NotFound."""
    rows = list(db.query("SELECT * FROM drafts WHERE id = ?", [draft_id]))
    if not rows:
        raise NotFound(msg("errors.drafts.none", id=draft_id))
    return _draft(rows[0])


def _draft(row: Mapping[str, Any]) -> Draft:
    data = dict(row)
    data["body"] = json.loads(data.pop("body_json"))
    return Draft(**data)


def _pending(db: sqlite_utils.Database, draft_id: str) -> Draft:
    draft = get_draft(db, draft_id)
    if draft.status != "draft":
        raise UsageError(
            msg(
                "errors.drafts.decided",
                id=draft_id,
                status=msg(f"errors.drafts.status.{draft.status}"),
                user=draft.decided_by,
            )
        )
    return draft


def _superseded(db: sqlite_utils.Database, draft: Draft) -> bool:
    """True when a curated entry now has the draft's name (a release or another approval shipped an
    entry file with that id while the draft waited): the draft must not write over it."""
    row = db.execute("SELECT status FROM pitfalls WHERE id = ?", [draft.id]).fetchone()
    return draft.kind == "new" and row is not None and row[0] == "curated"


def _refuse_superseded(db: sqlite_utils.Database, draft: Draft) -> None:
    if _superseded(db, draft):
        raise UsageError(msg("errors.drafts.superseded", id=draft.id))


def edit(kb: KnowledgeBase, db: sqlite_utils.Database, draft_id: str, changes: Mapping[str, Any]) -> Pitfall:
    """Change fields of a new-cause draft; the result must be a valid entry. Returns the new entry."""
    draft = _pending(db, draft_id)
    if draft.kind != "new":
        raise UsageError(msg("errors.drafts.merge_only", id=draft_id, target=draft.target_id))
    _refuse_superseded(db, draft)
    unknown = sorted(set(changes) - set(EDITABLE_TEXT) - set(EDITABLE_LISTS))
    if unknown:
        raise UsageError(msg("errors.drafts.not_editable", fields=", ".join(unknown)))
    body = {**draft.body, **{key: _clean(key, value) for key, value in changes.items()}}
    _require_valid(draft_id, body, "edited")
    pitfall = Pitfall.from_dict(body)
    with immediate(db):
        db.execute(
            "UPDATE drafts SET body_json = ? WHERE id = ?",
            [json.dumps(pitfall.to_dict(), ensure_ascii=False), draft_id],
        )
    kb.upsert_pitfall(pitfall)
    return pitfall


def approve(
    kb: KnowledgeBase,
    db: sqlite_utils.Database,
    draft_id: str,
    *,
    user: str,
    directory: Path = PITFALLS_DIR,
    clock: Clock = utc_now,
) -> Msg:
    """Accept a draft (write its entry file) or a merge proposal (add its examples); returns a sentence."""
    draft = _pending(db, draft_id)
    now = stamp(clock())
    if draft.kind == "merge":
        sentence = _merge(kb, db, draft, user)
        path = None
    else:
        _refuse_superseded(db, draft)
        pitfall = Pitfall.from_dict(draft.body)
        pitfall = replace(
            pitfall, status="curated", provenance=f"{pitfall.provenance}; approved by {user} on {now}"
        )
        data = pitfall.to_dict()
        _require_valid(draft_id, data, "approved")
        path = directory / f"{pitfall.id}.yaml"
        _write_entry(path, data)
        kb.upsert_pitfall(pitfall)
        sentence = msg("drafts.approved", id=pitfall.id, path=str(path))
    with immediate(db):
        db.execute(
            "UPDATE drafts SET status = 'approved', decided_by = ?, decided_at = ?, file_path = ?"
            " WHERE id = ?",
            [user, now, None if path is None else str(path), draft_id],
        )
    return sentence


def reject(
    kb: KnowledgeBase, db: sqlite_utils.Database, draft_id: str, *, user: str, clock: Clock = utc_now
) -> Msg:
    """Refuse a draft (it leaves search) or a merge proposal (nothing is added); returns a sentence. A
    draft whose name a curated entry now has is only marked rejected: the curated entry stays."""
    draft = _pending(db, draft_id)
    if draft.kind == "new" and not _superseded(db, draft):
        kb.upsert_pitfall(replace(Pitfall.from_dict(draft.body), status="rejected"))
    with immediate(db):
        db.execute(
            "UPDATE drafts SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?",
            [user, stamp(clock()), draft_id],
        )
    return msg("drafts.rejected", id=draft_id)


def _merge(kb: KnowledgeBase, db: sqlite_utils.Database, draft: Draft, user: str) -> Msg:
    """Add the proposal's incident text and symptom lines to the target entry (skipping ones it has)."""
    target = draft.target_id
    if target is None:  # a merge proposal always names the entry it would grow
        raise UsageError(msg("errors.drafts.no_target", id=draft.id))

    new = draft.body.get("new_cause", {})
    texts = [t for t in (str(draft.body.get("error_text", "")).strip(), *new.get("symptoms", ())) if t]
    have = {
        row[0]
        for row in db.execute(
            "SELECT text FROM examples WHERE pitfall_id = ? AND incident_id IS ?",
            [target, draft.incident_id],
        )
    }
    added = [
        kb.add_example(
            target,
            text,
            source="incident",
            incident_id=draft.incident_id,
            provenance=f"merge of incident #{draft.incident_id} approved by {user}",
        )
        for text in dict.fromkeys(texts)
        if text not in have
    ]
    return msg("drafts.merged", target=target, n=len(added))


def _clean(key: str, value: Any) -> str | list[str]:
    """A redacted field value without control or bidi characters; list fields take a list (a lone
    string becomes a one-item list)."""
    if key not in EDITABLE_LISTS:
        return without_controls(redact(str(value)))
    return [without_controls(redact(str(v))) for v in ([value] if isinstance(value, str) else value)]


def _require_valid(draft_id: str, data: Mapping[str, Any], action: str) -> None:
    problems = validate_entry(dict(data), f"{draft_id}.yaml")
    if problems:
        raise UsageError(msg(f"errors.drafts.invalid_{action}", id=draft_id, problems="\n  ".join(problems)))


def _write_entry(path: Path, data: Mapping[str, Any]) -> None:
    """Write one entry file atomically; an existing file with other content is never overwritten. Control
    and bidi characters (from a resolution or an edit) are written as `\\uXXXX` text, so the file a
    maintainer reviews in a terminal or a pull request cannot be shown reordered or restyled."""
    text = yaml.safe_dump(map_strings(dict(data), printable), sort_keys=False, allow_unicode=True, width=100)
    if path.exists() and path.read_text(encoding="utf-8") != text:
        raise UsageError(msg("errors.drafts.file_exists", path=str(path)))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)

"""Incidents: one per chat thread (or console/CLI session), opened by answers and diagnoses.

Every text that lands here passes `pitstop.redact.redact` first. Resolving goes through exactly one
function, `Incidents.resolve`, whichever front-end asks (Slack modal, console, CLI, `eval learning`):
it claims the incident in one IMMEDIATE transaction (so a second resolver gets `AlreadyResolved`),
then hands the resolution to `kb.learning`, which teaches the KB. A crash between the two leaves a
resolution with `learn_state = 'pending'` that `learn_pending()` finishes on the next start.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlite_utils

from pitstop.collectors.model import Verdict
from pitstop.core.clock import Clock, stamp, utc_now
from pitstop.core.db import immediate, inserted_id, open_db
from pitstop.core.errors import NotFound, PitstopError, UsageError
from pitstop.core.i18n import Msg, msg, render, stored
from pitstop.core.redact import redact
from pitstop.incidents.model import NewCause

if TYPE_CHECKING:
    from pitstop.kb.service import KnowledgeBase

MAX_STORED_CHARS = 32_000
STATUSES = ("open", "resolved", "no_action", "expired")  # migrations/m006_incident_lifecycle.py


class AlreadyResolved(PitstopError):
    """A second resolution for an incident that is already resolved (the first one stands)."""

    exit_code = 5


@dataclass(frozen=True)
class Candidate:
    """A cause the KB proposed for this incident, with its best score so far."""

    pitfall_id: str
    rank: int
    score: float
    confidence: str
    draft: bool


@dataclass(frozen=True)
class Resolution:
    """How an incident ended: the cause, who said so, and what the KB learned from it."""

    resolved_by: str
    vouched: bool  # a maintainer or the operator recorded it (`m016_resolution_vouched`)
    kind: str  # existing | draft | merge
    cause_id: str
    notes: str
    resolved_at: str
    learn_state: str  # pending | done
    learned: Msg | str  # one human sentence: a catalogue message (plain English text in older rows)
    new_cause: NewCause | None


@dataclass(frozen=True)
class Incident:
    """One incident with everything recorded about it."""

    id: int
    channel: str
    thread_ts: str
    requester: str
    hosts: tuple[str, ...]
    error_text: str
    lang: str
    status: str  # open | resolved | no_action | expired (see STATUSES)
    created_at: str
    updated_at: str
    candidates: tuple[Candidate, ...]
    verdicts: tuple[tuple[str, Verdict], ...]  # (host, the latest verdict there on one cause)
    resolution: Resolution | None
    closed_at: str | None = None
    closed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data for `--json` output and the bot."""
        resolution = self.resolution
        return {
            "id": self.id,
            "channel": self.channel,
            "thread_ts": self.thread_ts,
            "requester": self.requester,
            "hosts": list(self.hosts),
            "error_text": self.error_text,
            "lang": self.lang,
            "status": self.status,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "closed_at": self.closed_at,
            "closed_by": self.closed_by,
            "candidates": [c.__dict__ for c in self.candidates],
            "verdicts": [{"host": host, **v.to_json(self.lang)} for host, v in self.verdicts],
            "resolution": None
            if resolution is None
            else {
                **resolution.__dict__,
                "learned": render(resolution.learned, self.lang),
                "learned_msg": resolution.learned.to_json() if isinstance(resolution.learned, Msg) else None,
                "new_cause": None if resolution.new_cause is None else resolution.new_cause.to_json(),
            },
        }


def cap_text(text: str, limit: int = MAX_STORED_CHARS) -> str:
    """Keep the head and tail of a very long paste, saying how much was left out."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters omitted ...]\n{text[-half:]}"


class Incidents:
    """The incident store: over one connection (used by one thread), or over a database path with
    one connection per calling thread (as `KnowledgeBase` keeps), which any thread may call.

    `kb` is needed to learn from resolutions; without it resolutions are recorded with
    learning pending, and any later `Incidents` with a KB finishes them (`learn_pending`).
    """

    def __init__(
        self,
        db: sqlite_utils.Database | str | Path,
        kb: KnowledgeBase | None = None,
        *,
        clock: Clock = utc_now,
    ) -> None:
        self._fixed = db if isinstance(db, sqlite_utils.Database) else None
        self._path = None if isinstance(db, sqlite_utils.Database) else Path(db)
        self._local = threading.local()
        self.kb = kb
        self.clock = clock

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection for the calling thread."""
        if self._fixed is not None:
            return self._fixed
        db = getattr(self._local, "db", None)
        if db is None:
            assert self._path is not None
            db = self._local.db = open_db(self._path)
        return db

    # -- recording -------------------------------------------------------------------------

    def record_answer(
        self, *, channel: str, thread_ts: str, user: str, text: str, answer: Any, hosts: Iterable[str] = ()
    ) -> int:
        """Open or update the thread's incident with a paste, the KB's answer and any hosts it names."""
        now = stamp(self.clock())
        with immediate(self.db):
            iid = self._upsert(
                channel, thread_ts, user, now, text=text, lang=getattr(answer, "lang", None), hosts=hosts
            )
            for rank, match in enumerate(getattr(answer, "results", ()) or (), start=1):
                self.db.execute(
                    "INSERT INTO incident_candidates (incident_id, pitfall_id, rank, score, confidence,"
                    " draft, recorded_at, details_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (incident_id, pitfall_id)"
                    " DO UPDATE SET rank = min(rank, excluded.rank), score = max(score, excluded.score),"
                    " confidence = CASE WHEN excluded.score >= score THEN excluded.confidence"
                    " ELSE confidence END, draft = excluded.draft, recorded_at = excluded.recorded_at,"
                    " details_json = excluded.details_json",
                    [
                        iid,
                        match.id,
                        rank,
                        float(match.score),
                        str(getattr(match, "confidence", "")),
                        int(bool(getattr(match, "draft", False))),
                        now,
                        json.dumps(
                            [_detail_json(d) for d in getattr(match, "why", ()) or ()], ensure_ascii=False
                        ),
                    ],
                )
        return iid

    def record_diagnosis(
        self,
        *,
        channel: str,
        thread_ts: str,
        user: str,
        hosts: Iterable[str],
        verdicts: Iterable[tuple[str, Verdict]],
        text: str | None = None,
        lang: str | None = None,
    ) -> int:
        """Open or update the thread's incident with a diagnosis: (host, verdict) pairs, stored redacted;
        `lang` is a new incident's language (its error text's)."""
        found = list(verdicts)
        names = [str(h) for h in hosts] + [host for host, _ in found]
        now = stamp(self.clock())
        with immediate(self.db):
            iid = self._upsert(channel, thread_ts, user, now, text=text, lang=lang, hosts=names)
            for host, verdict in found:
                self._store_verdict(iid, host, verdict, now)
        return iid

    def _upsert(
        self,
        channel: str,
        thread_ts: str,
        user: str,
        now: str,
        *,
        text: str | None = None,
        lang: str | None = None,
        hosts: Iterable[str] = (),
    ) -> int:
        if not channel or not thread_ts:
            raise UsageError(msg("errors.incident.needs_thread"))
        row = self.db.execute(
            "SELECT id, error_text, hosts_json FROM incidents WHERE channel = ? AND thread_ts = ?",
            [channel, thread_ts],
        ).fetchone()
        paste = cap_text(redact(text).strip()) if text else ""
        if row is None:
            cursor = self.db.execute(
                "INSERT INTO incidents (channel, thread_ts, requester, hosts_json, error_text, lang,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [channel, thread_ts, user or "", json.dumps(_unique(hosts)), paste, lang or "en", now, now],
            )
            return inserted_id(cursor)
        iid, stored, hosts_json = row
        if paste and paste not in stored:
            stored = cap_text(f"{stored}\n\n{paste}" if stored else paste)
        merged = _unique([*json.loads(hosts_json), *hosts])
        self.db.execute(
            "UPDATE incidents SET error_text = ?, hosts_json = ?, lang = coalesce(?, lang), updated_at = ?,"
            " status = CASE WHEN status IN ('no_action', 'expired') THEN 'open' ELSE status END,"
            " closed_at = CASE WHEN status IN ('no_action', 'expired') THEN NULL ELSE closed_at END,"
            " closed_by = CASE WHEN status IN ('no_action', 'expired') THEN NULL ELSE closed_by END"
            " WHERE id = ?",
            [stored, json.dumps(merged), lang, now, iid],
        )
        return int(iid)

    def candidate_details(self, iid: int, pitfall_id: str) -> tuple[Msg | str, ...] | None:
        """The signals behind `pitfall_id`'s rank in the incident's latest answer (redacted); None
        when the incident never had that candidate."""
        row = self.db.execute(
            "SELECT details_json FROM incident_candidates WHERE incident_id = ? AND pitfall_id = ?",
            [iid, pitfall_id],
        ).fetchone()
        return None if row is None else tuple(stored(line, str(line)) for line in json.loads(row[0]))

    def user_lang(self, user: str) -> str | None:
        """The answer language `user` chose (None: follow the paste); see pitstop.core.prefs."""
        from pitstop.core.prefs import user_lang

        return user_lang(self.db, user)

    def set_user_lang(self, user: str, lang: str | None) -> str | None:
        """Store `user`'s answer language ('en', 'zh'; None or 'auto': follow the paste)."""
        from pitstop.core.prefs import set_user_lang

        return set_user_lang(self.db, user, lang)

    def close(self, iid: int, *, user: str) -> Incident:
        """Close an open incident as "no action needed" (it resolved itself, or was not a problem)."""
        now = stamp(self.clock())
        with immediate(self.db):
            row = self.db.execute("SELECT status FROM incidents WHERE id = ?", [iid]).fetchone()
            if row is None:
                raise NotFound(msg("errors.incident.none", id=iid))
            if row[0] != "open":
                raise UsageError(
                    msg("errors.incident.closed", id=iid, status=msg(f"errors.incident.status.{row[0]}"))
                )
            self.db.execute(
                "UPDATE incidents SET status = 'no_action', updated_at = ?, closed_at = ?, closed_by = ?"
                " WHERE id = ?",
                [now, now, user, iid],
            )
        return self.get(iid)

    def expire(self, quiet: timedelta) -> int:
        """Close, as expired, every open incident with no activity for `quiet`; returns how many."""
        now = self.clock()
        cursor = self.db.execute(
            "UPDATE incidents SET status = 'expired', closed_at = ?, closed_by = 'pitstop'"
            " WHERE status = 'open' AND updated_at < ?",
            [stamp(now), stamp(now - quiet)],
        )
        return cursor.rowcount

    def _store_verdict(self, iid: int, host: str, verdict: Verdict, now: str) -> None:
        data = verdict.to_json()  # the one serialization, redacted
        self.db.execute(
            "INSERT INTO incident_verdicts (incident_id, host, pitfall_id, verdict, benign, reason,"
            " reason_msg_json, evidence_json, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (incident_id, host, pitfall_id) DO UPDATE SET verdict = excluded.verdict,"
            " benign = excluded.benign, reason = excluded.reason, reason_msg_json = excluded.reason_msg_json,"
            " evidence_json = excluded.evidence_json, recorded_at = excluded.recorded_at",
            [
                iid,
                host,
                data["pitfall"],
                data["verdict"],
                int(data["benign"]),
                data["reason"],
                None if data["reason_msg"] is None else json.dumps(data["reason_msg"], ensure_ascii=False),
                json.dumps(data["evidence"], ensure_ascii=False),
                now,
            ],
        )

    # -- reading ---------------------------------------------------------------------------

    def find_by_thread(self, channel: str, thread_ts: str) -> Incident | None:
        """The incident of a thread, or None."""
        row = self.db.execute(
            "SELECT id FROM incidents WHERE channel = ? AND thread_ts = ?", [channel, thread_ts]
        ).fetchone()
        return None if row is None else self.get(int(row[0]))

    def get(self, iid: int) -> Incident:
        """One incident with candidates, verdicts and resolution; raises NotFound."""
        rows = list(self.db.query("SELECT * FROM incidents WHERE id = ?", [iid]))
        if not rows:
            raise NotFound(msg("errors.incident.none", id=iid))
        return self._build(rows[0])

    def list(self, status: str | None = None, since: str | None = None, limit: int = 50) -> list[Incident]:
        """Incidents, newest first; `status` one of STATUSES, `since` a stored timestamp."""
        if status not in (None, *STATUSES):
            raise UsageError(
                msg("errors.incident.bad_status", statuses=", ".join(STATUSES), status=repr(status))
            )
        where, params = ["1 = 1"], []
        if status:
            where.append("status = ?")
            params.append(status)
        if since:
            where.append("created_at >= ?")
            params.append(since)
        rows = self.db.query(
            f"SELECT * FROM incidents WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ?",
            [*params, limit],
        )
        return [self._build(row) for row in rows]

    def _build(self, row: Mapping[str, Any]) -> Incident:
        iid = row["id"]
        candidates = tuple(
            Candidate(r["pitfall_id"], r["rank"], r["score"], r["confidence"], bool(r["draft"]))
            for r in self.db.query(
                "SELECT * FROM incident_candidates WHERE incident_id = ? ORDER BY score DESC, rank", [iid]
            )
        )
        verdicts = tuple(
            (
                r["host"],
                Verdict.from_json(
                    {
                        "pitfall": r["pitfall_id"],
                        "verdict": r["verdict"],
                        "reason": r["reason"],
                        "reason_msg": json.loads(r["reason_msg_json"]) if r["reason_msg_json"] else None,
                        "benign": bool(r["benign"]),
                        "evidence": json.loads(r["evidence_json"]),
                    }
                ),
            )
            for r in self.db.query(
                "SELECT * FROM incident_verdicts WHERE incident_id = ? ORDER BY host, pitfall_id", [iid]
            )
        )
        return Incident(
            id=iid,
            channel=row["channel"],
            thread_ts=row["thread_ts"],
            requester=row["requester"],
            hosts=tuple(json.loads(row["hosts_json"])),
            error_text=row["error_text"],
            lang=row["lang"],
            status=row["status"],
            closed_at=row["closed_at"],
            closed_by=row["closed_by"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            candidates=candidates,
            verdicts=verdicts,
            resolution=self._resolution(iid),
        )

    def _resolution(self, iid: int) -> Resolution | None:
        rows = list(self.db.query("SELECT * FROM resolutions WHERE incident_id = ?", [iid]))
        if not rows:
            return None
        r = rows[0]
        return Resolution(
            resolved_by=r["resolved_by"],
            vouched=bool(r["vouched"]),
            kind=r["kind"],
            cause_id=r["cause_id"],
            notes=r["notes"],
            resolved_at=r["resolved_at"],
            learn_state=r["learn_state"],
            learned=stored(json.loads(r["learned_msg_json"] or "null"), r["learned"]),
            new_cause=NewCause.from_json(json.loads(r["new_cause_json"])) if r["new_cause_json"] else None,
        )

    # -- resolving and feedback ------------------------------------------------------------

    def resolve(
        self,
        iid: int,
        *,
        user: str,
        cause_id: str | None = None,
        new_cause: NewCause | None = None,
        notes: str = "",
        vouched: bool = False,
    ) -> Incident:
        """Record the real cause of an incident and teach the KB; the one path for every front-end.

        Exactly one of `cause_id` (an existing pitfall) and `new_cause` is given. `vouched`: a
        maintainer or the operator says so, not just anyone in the channel (what its example may do to
        an answer's confidence, `kb.retrieve`). A second resolution of the same incident raises
        `AlreadyResolved` naming the first; nothing else changes.
        """
        from pitstop.incidents import learning

        if (cause_id is None) == (new_cause is None):
            raise UsageError(msg("errors.incident.one_cause"))
        if cause_id is not None and not learning.pitfall_exists(self.db, cause_id):
            raise NotFound(msg("errors.kb.no_pitfall", id=cause_id))
        new = None if new_cause is None else new_cause.redacted()
        if new is not None and not (new.title and new.what):
            raise UsageError(msg("errors.incident.new_cause_fields"))
        now = stamp(self.clock())
        with immediate(self.db):
            row = self.db.execute("SELECT status FROM incidents WHERE id = ?", [iid]).fetchone()
            if row is None:
                raise NotFound(msg("errors.incident.none", id=iid))
            done = self._resolution(iid)
            if done is not None:
                raise AlreadyResolved(
                    msg(
                        "errors.incident.already_resolved",
                        id=iid,
                        user=done.resolved_by,
                        at=done.resolved_at,
                        cause=done.cause_id,
                    )
                )
            kind, cause = (
                ("existing", cause_id)
                if new is None
                else ("draft", learning.reserve_draft_id(self.db, new.title, iid))
            )
            self.db.execute(
                "INSERT INTO resolutions (incident_id, resolved_by, vouched, kind, cause_id, new_cause_json,"
                " notes, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    iid,
                    user,
                    int(vouched),
                    kind,
                    cause,
                    None if new is None else json.dumps(new.to_json(), ensure_ascii=False),
                    redact(notes).strip(),
                    now,
                ],
            )
            self.db.execute(
                "UPDATE incidents SET status = 'resolved', updated_at = ?, closed_at = ?, closed_by = ?"
                " WHERE id = ?",
                [now, now, user, iid],
            )
        if self.kb is not None:
            learning.learn(self.kb, self.db, iid, clock=self.clock)
        return self.get(iid)

    def learn_pending(self) -> int:
        """Finish learning for resolutions recorded without a KB or cut short by a crash; returns how many."""
        if self.kb is None:
            raise UsageError(msg("errors.incident.needs_kb"))
        from pitstop.incidents import learning

        pending = [
            r[0]
            for r in self.db.execute(
                "SELECT incident_id FROM resolutions WHERE learn_state = 'pending' ORDER BY incident_id"
            )
        ]
        for iid in pending:
            learning.learn(self.kb, self.db, iid, clock=self.clock)
        return len(pending)

    def feedback(self, iid: int, *, user: str, pitfall_id: str, helpful: bool) -> None:
        """Store "This was it" / "Not it" for one cause; idempotent per (incident, user, cause).

        The cause id comes from a button or a console command, so it is checked against the KB: an id
        that names no (unrejected) pitfall is refused with NotFound and nothing is stored.
        """
        from pitstop.incidents.learning import pitfall_exists

        if not isinstance(pitfall_id, str) or not pitfall_exists(self.db, pitfall_id):
            raise NotFound(msg("security.feedback.unknown_cause", cause=redact(str(pitfall_id))[:60]))
        now = stamp(self.clock())
        try:
            with immediate(self.db):
                self.db.execute(
                    "INSERT INTO feedback (incident_id, user, pitfall_id, helpful, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (incident_id, user, pitfall_id) DO UPDATE SET"
                    " helpful = excluded.helpful, updated_at = CASE WHEN helpful = excluded.helpful"
                    " THEN updated_at ELSE excluded.updated_at END",
                    [iid, user, pitfall_id, int(bool(helpful)), now, now],
                )
        except sqlite3.IntegrityError as exc:
            raise NotFound(msg("errors.incident.none", id=iid)) from exc


def _unique(items: Iterable[str]) -> list[str]:
    """Non-empty items in first-seen order."""
    return list(dict.fromkeys(i for i in items if i))


def _detail_json(detail: Msg | str) -> Any:
    """One detail line as stored: a message's `to_json` (its text redacted), else the redacted text."""
    return detail.map_text(redact).to_json() if isinstance(detail, Msg) else redact(str(detail))

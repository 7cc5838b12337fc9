"""What this deployment's own incidents change in a ranking: its causes, its hosts, "Not it" votes.

`FeedbackAdjuster` is the retriever's hook (`Retriever(adjustments=...)`): given the prepared paste
it returns `{pitfall_id: Adjustment(delta, why, reason)}`, applied to causes already among the
candidates:
- a per-deployment prior: causes this team resolved before gain `PRIOR_STEP` per doubling of their
  count, at most `PRIOR_MAX` ("this team resolved 3 incident(s) as this, latest #12");
- a host prior: when the paste names a host whose incident was resolved as a cause, that cause gains
  `HOST_BOOST` once, however many of its incidents or hosts the paste names ("host gpu07 had this
  cause in incident #12");
- demotion by feedback: repeated "Not it" for near-identical questions. Votes count only from incidents
  whose error text embeds within `NEAR` cosine of the query; a cause is demoted when at least
  `MIN_NOT_IT` distinct people said "Not it" and they outnumber the people who said "This was it"
  (each person counts once per cause and side, however many incidents they voted from), by `STEP` per
  net vote, never more than `MAX_DEMOTION` of the 0..1 score. Incident texts and queries are embedded
  through the same view as the KB's examples (`kb.glossary.dense_view`); the incident vectors are
  cached in `incident_vectors` keyed by that view's hash, like the KB's own embeddings.

The two priors are people's word, like a learned example (`kb.retrieve._Learned`): unless a
maintainer or the operator vouched for one of the resolutions behind a prior, or two different people
resolved as that cause, what it adds is `Adjustment.unvouched`, which ranks but is not confidence and
never lifts a cause above one more confident without it (`Retriever._below_the_confident`): one
channel member resolving a host's incidents as a wrong cause must not put it first for every paste
that names the host.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlite_utils

from pitstop.core.db import immediate
from pitstop.core.errors import UsageError
from pitstop.core.i18n import Msg, msg
from pitstop.core.names import name_at
from pitstop.kb.embed import Embedder
from pitstop.kb.glossary import DenseView, dense_view
from pitstop.kb.preprocess import Prepared, prepare

if TYPE_CHECKING:
    import numpy as np

    from pitstop.kb.onnx_embed import OnnxEmbedder

NEAR = 0.90
MIN_NOT_IT = 2
STEP = 0.05
MAX_DEMOTION = 0.15
PRIOR_STEP = 0.02
PRIOR_MAX = 0.06
HOST_BOOST = 0.2  # lifts a named host's earlier cause for a vague paste; a signature hit still wins


@dataclass(frozen=True)
class Adjustment:
    """A change to one cause's fused score, the detail lines for `why` and the reader's sentence."""

    delta: float
    why: tuple[Msg, ...]
    reason: Msg
    unvouched: float = 0.0  # the part of `delta` only one person's unvouched resolutions give


@dataclass(frozen=True)
class _Votes:
    pitfall_ids: tuple[str, ...]
    users: tuple[str, ...]  # who voted
    helpful: np.ndarray  # bool per vote
    vectors: np.ndarray  # (votes, dim) unit vectors of the voted incident's text


class FeedbackAdjuster:
    """Callable hook for the retriever; reloads the votes only when the feedback table changed."""

    def __init__(self, db: Callable[[], sqlite_utils.Database], embedder: Embedder | OnnxEmbedder) -> None:
        self._db = db
        self._embedder = embedder
        self._key: tuple[object, ...] | None = None
        self._votes: _Votes | None = None
        self._resolved_key: tuple[object, ...] | None = None
        self._by_cause: dict[str, list[int]] = {}
        self._trusted: set[str] = set()  # causes a vouched resolution or two resolvers stand behind
        self._hosts: list[tuple[str, str, int]] = []  # (host, cause, incident), oldest first
        self._trusted_hosts: set[tuple[str, str]] = set()  # (host, cause) likewise

    def __call__(self, prepared: Prepared, vector: np.ndarray | None = None) -> dict[str, Adjustment]:
        """The prior, host and feedback adjustments for this paste (empty when there are none).

        `vector`: the embedding of the paste's cleaned text's view (`dense_view(prepared.clean)`), when
        the caller has it (the retriever's dense signal embeds that view first); else it is embedded."""
        out: dict[str, Adjustment] = {}
        for part in (self._priors(prepared.raw), self._demotions(prepared.clean, vector)):
            for pid, change in part.items():
                old = out.get(pid)
                out[pid] = (
                    Adjustment(
                        old.delta + change.delta,
                        old.why + change.why,
                        change.reason,
                        old.unvouched + change.unvouched,
                    )
                    if old
                    else change
                )
        return out

    def _priors(self, raw: str) -> dict[str, Adjustment]:
        """Boosts for causes this deployment resolved, more for those a host named in the paste had."""
        out = {}
        for pid, incidents in self._resolved().items():
            delta = min(PRIOR_MAX, PRIOR_STEP * math.log2(1 + len(incidents)))
            why = (msg("kb.detail.prior", count=len(incidents), incident=max(incidents)),)
            out[pid] = Adjustment(
                delta,
                why,
                msg("kb.why.prior", count=len(incidents), incident=max(incidents)),
                0.0 if pid in self._trusted else delta,
            )
        boosted: set[str] = set()
        for host, pid, iid in reversed(self._hosts):  # the latest incident names the boost
            if pid in boosted or name_at(raw, host) is None:
                continue
            boosted.add(pid)
            own = 0.0 if (host, pid) in self._trusted_hosts else HOST_BOOST
            old = out[pid]
            out[pid] = Adjustment(
                old.delta + HOST_BOOST,
                old.why + (msg("kb.detail.host", host=host, incident=iid),),
                msg("kb.why.host", host=host, incident=iid),
                old.unvouched + own,
            )
        return out

    def _resolved(self) -> dict[str, list[int]]:
        """Cause id -> the incidents resolved as it (reloaded when the resolutions change)."""
        db = self._db()
        key = tuple(db.execute("SELECT count(*), max(resolved_at) FROM resolutions").fetchone())
        if key != self._resolved_key:
            by_cause: dict[str, list[int]] = defaultdict(list)
            hosts: list[tuple[str, str, int]] = []
            people: dict[object, set[str]] = defaultdict(set)  # cause or (host, cause) -> resolvers
            vouched: set[object] = set()
            for iid, cause, hosts_json, user, sure in db.execute(
                "SELECT r.incident_id, r.cause_id, i.hosts_json, r.resolved_by, r.vouched FROM resolutions r"
                " JOIN incidents i ON i.id = r.incident_id WHERE r.kind IN ('existing', 'draft')"
                " ORDER BY r.incident_id"
            ):
                by_cause[cause].append(iid)
                named = [(str(h), cause, iid) for h in json.loads(hosts_json or "[]") if len(str(h)) >= 3]
                hosts += named
                for who in (cause, *((h, cause) for h, _, _ in named)):
                    people[who].add(str(user))
                    if sure:
                        vouched.add(who)
            trusted = vouched | {who for who, users in people.items() if len(users) >= 2}
            self._trusted = {who for who in trusted if isinstance(who, str)}
            self._trusted_hosts = {who for who in trusted if isinstance(who, tuple)}
            self._by_cause, self._hosts, self._resolved_key = dict(by_cause), hosts, key
        return self._by_cause

    def _demotions(self, query: str, vector: np.ndarray | None) -> dict[str, Adjustment]:
        """Demotions for the causes people rejected on questions like `query` (empty when none);
        `vector` is its view's embedding when already computed."""
        votes = self._load()
        if votes is None or not votes.helpful.size or votes.helpful.all():
            return {}
        view = dense_view(query)
        if view is None:
            return {}
        if vector is None:
            vector = self._embedder.encode([view.text])[0]
        near = votes.vectors @ vector >= NEAR
        # cause -> (people who said "Not it", people who said "This was it"): one person voting from
        # many incidents (the same error pasted in several threads) is still one voice
        tally: dict[str, tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))
        for pitfall_id, user, helpful, close in zip(
            votes.pitfall_ids, votes.users, votes.helpful, near, strict=True
        ):
            if close:
                tally[pitfall_id][int(helpful)].add(user)
        out = {}
        for pitfall_id, (not_it_users, was_it_users) in tally.items():
            not_it, was_it = len(not_it_users), len(was_it_users)
            net = not_it - was_it
            if not_it >= MIN_NOT_IT and net > 0:
                delta = min(STEP * net, MAX_DEMOTION)
                out[pitfall_id] = Adjustment(
                    -delta,
                    (msg("kb.detail.demoted", delta=f"{delta:.2f}", not_it=not_it, was_it=was_it),),
                    msg("kb.why.demoted", not_it=not_it, was_it=was_it),
                )
        return out

    def _load(self) -> _Votes | None:
        db = self._db()
        key = tuple(db.execute("SELECT count(*), total(helpful), max(updated_at) FROM feedback").fetchone())
        if key != self._key:
            self._votes = self._read(db) if key[0] else None
            self._key = key
        return self._votes

    def _read(self, db: sqlite_utils.Database) -> _Votes:
        import numpy as np

        rows = db.execute(
            "SELECT f.pitfall_id, f.helpful, i.id, i.error_text, f.user FROM feedback f JOIN incidents i"
            " ON i.id = f.incident_id WHERE i.error_text != '' ORDER BY f.rowid"
        ).fetchall()
        vectors = self._incident_vectors(db, {iid: text for _, _, iid, text, _ in rows})
        kept = [r for r in rows if r[2] in vectors]
        dim = self._embedder.dim
        return _Votes(
            pitfall_ids=tuple(r[0] for r in kept),
            users=tuple(str(r[4]) for r in kept),
            helpful=np.array([bool(r[1]) for r in kept], dtype=bool),
            vectors=np.vstack([vectors[r[2]] for r in kept]) if kept else np.zeros((0, dim), np.float32),
        )

    def _incident_vectors(self, db: sqlite_utils.Database, texts: dict[int, str]) -> dict[int, np.ndarray]:
        """Cached vectors of incident texts (embedding the ones missing or stale)."""
        import numpy as np

        model, dim = self._embedder.name, self._embedder.dim
        views = {iid: view for iid, text in texts.items() if (view := _view(text)) is not None}
        found = {
            iid: np.frombuffer(blob, dtype=np.float32)
            for iid, blob, digest in db.execute(
                "SELECT incident_id, vector, content_hash FROM incident_vectors WHERE model = ? AND dim = ?",
                [model, dim],
            )
            if iid in views and views[iid].digest == digest
        }
        missing = [iid for iid in views if iid not in found]
        if missing:
            fresh = self._embedder.encode([views[iid].text for iid in missing])
            with immediate(db):
                for iid, vector in zip(missing, fresh, strict=True):
                    db.execute(
                        "INSERT OR REPLACE INTO incident_vectors (incident_id, model, dim, vector,"
                        " content_hash) VALUES (?, ?, ?, ?, ?)",
                        [iid, model, dim, vector.tobytes(), views[iid].digest],
                    )
                    found[iid] = vector
        return found


def _view(text: str) -> DenseView | None:
    """The embedding view of an incident's paste, cleaned as the retriever cleans a query."""
    try:
        return dense_view(prepare(text).clean)
    except UsageError:
        return None

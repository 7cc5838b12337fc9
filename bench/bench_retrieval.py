"""Retrieval benchmark: quality per mode and language, warm latency, cold start, a 100,000-entry KB.

    python3 bench/bench_retrieval.py quality latency cold          # bundled KB (builds it in a temp dir)
    python3 bench/bench_retrieval.py scale --entries 100000       # synthetic KB

Prints one JSON object per part. Figures and the exact commands go in bench/retrieval_RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))
CASE_FILES = (SHARED / "eval" / "dev-cases.jsonl", REPO / "tests" / "kb" / "fixtures" / "paraphrases.jsonl")
MODES = ("hybrid", "dense", "lexical", "signature")

sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


if TYPE_CHECKING:
    import numpy as np
    from sqlite_utils import Database

    from pitstop.kb.schema import Pitfall


def synthetic_pitfall(n: int, rng: random.Random, real: list[Pitfall]) -> Pitfall:
    """Synthetic entry `n`: text mixed from three real entries plus a unique code (scale benches)."""
    from pitstop.kb.schema import Pitfall

    a, b, c = rng.choice(real), rng.choice(real), rng.choice(real)
    code = f"SYN{n:06d}"
    return Pitfall(
        id=f"synthetic-{n:06d}",
        title=f"{a.title} ({code})",
        title_zh=a.title_zh,
        layer=a.layer,
        severity=a.severity,
        summary=b.summary,
        summary_zh=b.summary_zh,
        cause=c.cause,
        symptoms=(rng.choice(b.symptoms), f"{rng.choice(c.symptoms)} {code}"),
        signatures=(),
        fix=a.fix[:1],
        references=a.references[:1],
    )


def real_vectors_by_text(conn: Database, model: str, dim: int) -> dict[str, np.ndarray]:
    """The stored vector of every searchable example, by its text."""
    from pitstop.kb import store

    ids = store.searchable_ids(conn, model, dim)
    vectors = store.vectors_of(conn, model, dim, ids)
    texts = store.examples_by_id(conn, ids.tolist())
    return {texts[int(eid)].text: vectors[i] for i, eid in enumerate(ids)}


def add_synthetic_entries(
    conn: Database, entries: int, by_text: dict[str, np.ndarray], model: str, dim: int
) -> tuple[float, float]:
    """Insert `entries` synthetic entries (`synthetic_pitfall`) through the product's own upsert, and
    store for each new example a noisy copy of the real vector of the text it was copied from, under
    the embedding view's digest as the KB would (so nothing is re-embedded). Returns the seconds spent
    inserting and storing vectors."""
    import numpy as np

    from pitstop.kb import store
    from pitstop.kb.glossary import dense_view
    from pitstop.kb.schema import load_pitfalls

    real = load_pitfalls()
    rng, noise = random.Random(7), np.random.default_rng(7)
    began = time.perf_counter()
    with conn.conn:
        conn.execute("BEGIN IMMEDIATE")
        for n in range(entries):
            store.upsert_pitfall(conn, synthetic_pitfall(n, rng, real), "curated")
    inserted = time.perf_counter()
    rows: list[tuple[int, str, bytes]] = []
    with conn.conn:
        conn.execute("BEGIN IMMEDIATE")
        for eid, text, have in list(store.embedding_state(conn, model)):  # written to below
            base = by_text.get(re.sub(r" \(?SYN\d{6}\)?$", "", text))
            view = dense_view(text)
            if have is not None or base is None or view is None:
                continue
            vec = base + noise.normal(scale=0.02, size=base.shape).astype(np.float32)
            rows.append((eid, view.digest, (vec / np.linalg.norm(vec)).astype(np.float32).tobytes()))
            if len(rows) >= 20_000:  # bounded memory at 100k entries
                store.store_vectors(conn, model, rows, dim)
                rows = []
        store.store_vectors(conn, model, rows, dim)
    return inserted - began, time.perf_counter() - inserted


def _pcts(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "n": len(ordered),
    }


def _rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def quality(db: Path) -> dict:
    """Recall@1/@3 and MRR per mode, overall and per language, on each case file."""
    from pitstop.kb.evaluate import evaluate, load_cases
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db)
    out = {}
    for path in CASE_FILES:
        cases = load_cases(path)
        out[path.name] = {}
        for mode in MODES:
            report = evaluate(
                cases, lambda q, m=mode: [r.id for r in kb.ask(q, top=10, mode=m).results], mode
            )
            out[path.name][mode] = {
                "overall": report.overall.__dict__,
                **{lang: m.__dict__ for lang, m in report.by_lang().items()},
            }
    return out


def latency(db: Path) -> dict:
    """Warm `ask` latency over the dev-case queries (model, index and catalog loaded first)."""
    from pitstop.kb.evaluate import load_cases
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db)
    kb.warm()
    queries = [c.query for path in CASE_FILES for c in load_cases(path)]
    for query in queries[:10]:
        kb.ask(query)
    out = {"load_average": os.getloadavg()[0]}
    for mode in MODES:
        samples = []
        for _ in range(3):
            for query in queries:
                start = time.perf_counter()
                kb.ask(query, mode=mode)
                samples.append(time.perf_counter() - start)
        out[mode] = _pcts(samples)
    big = _one_mb_log()
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        kb.ask(big)
        samples.append(time.perf_counter() - start)
    out["hybrid_1mb_log"] = _pcts(samples)
    return out


def _one_mb_log() -> str:
    """About 1 MB of training-log noise with one decisive error line near the end."""
    noise = (
        "2026-11-30 10:{m:02d}:{s:02d} INFO rank {r}: step {n} loss 2.{n:04d} lr 3.0e-4 batch size 32"
        " tokens/s 41234 32G RAM in use, checkpoint every 500 steps\n"
    )
    lines, size, n = [], 0, 0
    while size < 1_000_000:
        line = noise.format(m=n // 60 % 60, s=n % 60, r=n % 8, n=n)
        lines.append(line)
        size += len(line)
        n += 1
    lines.insert(len(lines) - 40, "NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.\n")
    return "".join(lines)


COLD_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
from pitstop.kb.service import KnowledgeBase
t1 = time.perf_counter()
kb = KnowledgeBase.open(sys.argv[1])
t2 = time.perf_counter()
kb.ask("Failed to initialize NVML: Driver/library version mismatch", mode="lexical")
t3 = time.perf_counter()
kb.ask("Failed to initialize NVML: Driver/library version mismatch")
t4 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "open_s": t2 - t1, "first_lexical_ask_s": t3 - t2,
                  "first_hybrid_ask_s (model + index load)": t4 - t3, "total_s": t4 - t0}))
"""


def cold(db: Path) -> dict:
    """Cold start in a fresh interpreter: import, open, first lexical answer, first hybrid answer."""
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", COLD_SCRIPT, str(db)], capture_output=True, text=True, cwd=REPO, check=True
        )
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures["process_s"] = time.perf_counter() - start
        runs.append(figures)
    return {key: round(statistics.median(r[key] for r in runs), 3) for key in runs[0]}


def build_bundled(db: Path) -> dict:
    """Build the bundled KB from scratch (entries, embeddings, index)."""
    from pitstop.kb.service import KnowledgeBase

    start = time.perf_counter()
    kb = KnowledgeBase.open(db)
    loaded = time.perf_counter()
    kb.warm()
    meta = kb.index_meta()
    return {
        "entries": len(kb.all()),
        "vectors": meta.count,
        "load_entries_s": round(loaded - start, 2),
        "embed_and_index_s": round(time.perf_counter() - loaded, 2),
    }


def scale(entries: int, workdir: Path, source: Path | None) -> dict:
    """A synthetic KB of `entries` entries built from the bundled ones, then queried with the dev cases.

    Text is recombined from real entries (each synthetic entry gets a title, a summary and two symptoms
    from random real entries plus a unique code, and no signatures); vectors are the real vectors of
    those texts plus small noise, because embedding 300,000 texts on two cores takes about as long
    as the `embed_rate` printed here says. The 110 real entries are included with their signatures.
    """

    from pitstop.kb.evaluate import load_cases
    from pitstop.kb.schema import load_pitfalls
    from pitstop.kb.service import KnowledgeBase

    db = workdir / "scale.db"
    if source is not None and source.is_file():  # start from a built bundled KB (saves the embedding)
        import sqlite3

        with sqlite3.connect(source) as src, sqlite3.connect(db) as dst:
            src.backup(dst)
    kb = KnowledgeBase.open(db)
    kb.warm()
    real = load_pitfalls()
    by_text = real_vectors_by_text(kb.db, kb.embedder.name, kb.embedder.dim)
    sample = list(by_text)[:256]
    start = time.perf_counter()
    kb.embedder.encode(sample)
    embed_rate = len(sample) / (time.perf_counter() - start)
    insert_s, store_s = add_synthetic_entries(kb.db, entries, by_text, kb.embedder.name, kb.embedder.dim)
    kb.close()
    rss_before_index = _rss_mb()

    start = time.perf_counter()
    big = KnowledgeBase.open(db, entries_dir=None)
    meta = big.index_meta()
    index_built = time.perf_counter() - start
    big.warm()
    cases = load_cases(CASE_FILES[0])
    samples, hits = [], 0
    for case in cases * 2:
        start = time.perf_counter()
        ranked = [m.id for m in big.ask(case.query, top=3).results]
        samples.append(time.perf_counter() - start)
        hits += bool(set(ranked) & set(case.slugs))
    return {
        "entries": entries + len(real),
        "vectors": meta.count,
        "index_kind": meta.kind,
        "insert_entries_s": round(insert_s, 1),
        "store_vectors_s": round(store_s, 1),
        "index_build_s (fingerprint + read vectors + train/add + save)": round(index_built, 1),
        "embed_rate_texts_per_s": round(embed_rate, 1),
        "embedding_all_texts_would_take_s": round(meta.count / embed_rate),
        "db_mb": round(db.stat().st_size / 1e6, 1),
        "index_mb": round(Path(f"{db}.faiss").stat().st_size / 1e6, 1),
        "max_rss_mb": _rss_mb(),
        "rss_before_index_mb": rss_before_index,
        "query": _pcts(samples),
        "dev_recall_at_3_with_100k_distractors": round(hits / len(samples), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", choices=("build", "quality", "latency", "cold", "scale"))
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--db", type=Path, default=None, help="reuse a built KB database")
    parser.add_argument("--keep", type=Path, default=None, help="work in this directory and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pitstop-bench-") as scratch:
        tmp = args.keep or Path(scratch)
        tmp.mkdir(parents=True, exist_ok=True)
        db = args.db or Path(tmp) / "bench.db"
        for part in args.parts:
            if part == "scale":
                result = scale(args.entries, Path(tmp), args.db)
            else:
                result = {"build": build_bundled, "quality": quality, "latency": latency, "cold": cold}[part](
                    db
                )
            print(json.dumps({part: result}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()

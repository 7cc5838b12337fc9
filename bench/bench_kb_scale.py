"""KB at scale: build time, peak RSS, size on disk, query latency and index recall at 1k-100k entries.

    python3 bench/bench_kb_scale.py --entries 1000 10000 100000

For each size a synthetic KB is made from the bundled entries (as bench_retrieval.py's `scale`: text
recombined from real entries plus a unique code; vectors are the real vectors of those texts plus
small noise, since embedding 400,000 texts on two cores takes hours). Then, in a fresh child process
(so peak RSS is the build's and the queries', not the generator's), the vector index is built from
SQLite, the catalog is loaded with every signature matched over every example (kb.specificity; the
stored matches are forgotten first, so each run measures that whole pass), queries are asked
through the whole hybrid `ask` (one-line pastes, the warm-ask target's mix; the dev cases as pasted,
1-6 lines; a 300-line and a 1 MB log, reported apart), and the index's top 10 is compared with exact
search (streamed from SQLite, never all vectors in memory) on the same query vectors.
Prints one JSON object per size. Figures and commands go in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))
DEV_CASES = SHARED / "eval" / "dev-cases.jsonl"
RECALL_QUERIES = 200  # stored vectors, perturbed, as extra recall queries
K = 10

sys.path.insert(0, str(REPO))

from bench_retrieval import add_synthetic_entries, real_vectors_by_text  # noqa: E402  (bench/ is on sys.path as the script's folder)

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def base_kb(workdir: Path) -> Path:
    """The bundled KB, built and embedded once (copied for each size)."""
    from pitstop.kb.service import KnowledgeBase

    db = workdir / "base.db"
    kb = KnowledgeBase.open(db)
    kb.warm()
    kb.close()
    return db


def synthesize(base: Path, db: Path, entries: int) -> dict:
    """Copy `base` to `db` and add `entries` synthetic entries with noisy copies of real vectors."""
    from pitstop.core.db import open_db
    from pitstop.kb.embed import MODEL_DIM, MODEL_NAME

    with sqlite3.connect(base) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    conn = open_db(db)
    by_text = real_vectors_by_text(conn, MODEL_NAME, MODEL_DIM)
    insert_s, store_s = add_synthetic_entries(conn, entries, by_text, MODEL_NAME, MODEL_DIM)
    conn.close()
    return {"insert_entries_s": round(insert_s, 1), "store_vectors_s": round(store_s, 1)}


def unscan(db: Path) -> None:
    """Forget the stored signature matches, so the child matches every signature over every example, and
    the entry documents (as a database before m014 has none), so the child writes every one."""
    with sqlite3.connect(db) as conn:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'kb_signatures'").fetchone():
            conn.execute("DELETE FROM signature_hits")
            conn.execute("DELETE FROM kb_signatures")
            conn.execute("UPDATE examples SET signatures_scanned = 0 WHERE signatures_scanned = 1")
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'entries_fts'").fetchone():
            from sqlite_utils import Database

            from pitstop.migrations.m014_entry_documents import m014_entry_documents

            conn.execute("DROP TABLE entries_fts")
            conn.execute("DROP INDEX pitfalls_document_stale")
            conn.execute("ALTER TABLE pitfalls DROP COLUMN document_stale")
            conn.execute("DELETE FROM kb_meta WHERE key = 'documents_version'")
            m014_entry_documents(Database(conn))


def _exact_kth(conn: object, ids: object, queries: object) -> object:
    """The exact K-th best inner product per query, streaming vectors from SQLite in batches."""
    import numpy as np

    from pitstop.kb import store
    from pitstop.kb.embed import MODEL_DIM, MODEL_NAME
    from pitstop.kb.index import BATCH

    best = np.full((len(queries), K), -np.inf, dtype=np.float32)
    for _, batch in store.searchable_vectors(conn, MODEL_NAME, MODEL_DIM, ids, BATCH):
        scores = np.concatenate([best, queries @ batch.T], axis=1)
        best = -np.sort(-scores, axis=1)[:, :K]
    return best[:, -1]


def _recall(conn: object, ids: object, queries: object, found: list[list[int]]) -> float:
    """Share of exact top-K hits among the index's K: a found id counts when its exact score reaches the
    exact K-th best (so ties between identical example texts count as hits)."""
    import numpy as np

    from pitstop.kb import store
    from pitstop.kb.embed import MODEL_DIM, MODEL_NAME

    kth = _exact_kth(conn, ids, queries)
    hits = []
    for query, row, threshold in zip(queries, found, kth, strict=True):
        exact = store.vectors_of(conn, MODEL_NAME, MODEL_DIM, np.asarray(row, dtype=np.int64)) @ query
        hits.append(int((exact >= threshold - 1e-5).sum()) / K)
    return float(np.mean(hits))


def _timed(stages: dict[str, float], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, adding the CPU seconds of each call to `stages[name]` (a stage of the index build)."""

    def run(*args: Any, **kwargs: Any) -> Any:
        cpu = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            stages[name] = stages.get(name, 0.0) + time.process_time() - cpu

    return run


def _latency(kb: Any, queries: list[str], rounds: int) -> dict:
    """Wall and CPU p50 / p99 of whole hybrid asks, in ms. CPU is the process's (every thread: the dense
    signal runs on a worker thread beside the lexical ones); nothing else runs in this process."""
    wall, cpu = [], []
    for query in queries * rounds:
        start, used = time.perf_counter(), time.process_time()
        kb.ask(query, top=5)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    wall.sort()
    cpu.sort()
    p99 = min(len(wall) - 1, int(0.99 * len(wall)))
    return {
        "asks": len(wall),
        "cpu_p50_ms": round(statistics.median(cpu) * 1000, 1),
        "cpu_p99_ms": round(cpu[p99] * 1000, 1),
        "wall_p50_ms": round(statistics.median(wall) * 1000, 1),
        "wall_p99_ms": round(wall[p99] * 1000, 1),
    }


def measure(db: Path) -> dict:
    """In this (fresh) process: build the index from SQLite, time asks, measure recall@K."""
    import numpy as np
    from bench_long_inputs import INPUTS

    from pitstop.kb import store
    from pitstop.kb.evaluate import load_cases
    from pitstop.kb.glossary import dense_view
    from pitstop.kb.index import VectorIndex
    from pitstop.kb.service import KnowledgeBase

    stages: dict[str, float] = {}
    store.refresh_lexical = _timed(stages, "lexical", store.refresh_lexical)
    store.refresh_documents = _timed(
        stages, "entry_documents", store.refresh_documents
    )  # in the catalog load
    VectorIndex.build_batched = _timed(stages, "faiss", VectorIndex.build_batched)  # type: ignore[method-assign]
    start, cpu = time.perf_counter(), time.process_time()
    kb = KnowledgeBase.open(db, entries_dir=None)
    kb._embed_missing = _timed(stages, "vector_check", kb._embed_missing)  # type: ignore[method-assign]
    kb._fingerprint = _timed(stages, "fingerprint", kb._fingerprint)  # type: ignore[method-assign]
    meta = kb.index_meta()
    build_s, build_cpu_s = time.perf_counter() - start, time.process_time() - cpu
    rss_build = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start, cpu = time.perf_counter(), time.process_time()
    kb._get_catalog()  # noqa: SLF001  # the catalog, with every signature matched over every example
    catalog_s, catalog_cpu_s = time.perf_counter() - start, time.process_time() - cpu
    rss_catalog = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kb.warm()
    cases = load_cases(DEV_CASES)
    asks = {
        # the warm-ask target's mix: a one-line paste (each dev case's first line)
        "short": _latency(kb, [c.query.strip().splitlines()[0] for c in cases], 3),
        # the dev cases as pasted: 1-6 lines, 55-610 characters
        "dev_pastes": _latency(kb, [c.query for c in cases], 3),
        "log_300_lines": _latency(kb, [INPUTS["300-line log"]], 10),
        "log_1_mb": _latency(kb, [INPUTS["1 MB log"]], 5),
    }
    conn, model, dim = kb.db, kb.embedder.name, kb.embedder.dim
    ids = store.searchable_ids(conn, model, dim)
    count = min(len(ids), RECALL_QUERIES)
    picked = np.sort(np.random.default_rng(1).choice(len(ids), size=count, replace=False))
    stored = store.vectors_of(conn, model, dim, ids[picked])
    stored += np.random.default_rng(2).normal(scale=0.05, size=stored.shape).astype(np.float32)
    stored /= np.linalg.norm(stored, axis=1, keepdims=True)
    asked = kb.embedder.encode([v.text for v in (dense_view(c.query) for c in cases) if v])
    queries = np.ascontiguousarray(np.vstack([asked, stored]), dtype=np.float32)
    index = kb._get_index()  # noqa: SLF001  # the very index the asks searched
    recall = _recall(conn, ids, queries, [[eid for eid, _ in index.search(q, K)] for q in queries])
    return {
        "vectors": meta.count,
        "index_kind": meta.kind,
        "index_build_s": round(build_s, 1),
        "index_build_cpu_s": round(build_cpu_s, 1),
        "index_build_stages_cpu_s": {name: round(seconds, 1) for name, seconds in stages.items()},
        "catalog_s": round(catalog_s, 1),
        "catalog_cpu_s": round(catalog_cpu_s, 1),
        "peak_rss_mb_after_build": round(rss_build),
        "peak_rss_mb_after_catalog": round(rss_catalog),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "asks": asks,
        f"index_recall_at_{K}": round(recall, 4),
        "recall_queries": len(queries),
        "db_mb": round(db.stat().st_size / 1e6, 1),
        "index_mb": round(Path(f"{db}.faiss").stat().st_size / 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="keep the synthetic databases in DIR and reuse them on the next run (the index is rebuilt)",
    )
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process's part
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    with tempfile.TemporaryDirectory(prefix="kbscale-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        base = work / "base.db" if (work / "base.db").exists() else base_kb(work)
        for entries in args.entries:
            db = work / f"kb{entries}.db"
            record = Path(f"{db}.made.json")  # what synthesizing this database took, when it was made
            made = json.loads(record.read_text()) if args.keep and record.exists() and db.exists() else {}
            if not made:
                made = synthesize(base, db, entries)
                record.write_text(json.dumps(made))
            for index in work.glob(f"kb{entries}.db.faiss*"):
                index.unlink()  # the child builds the index from SQLite every time
            unscan(db)  # ... and every signature's stored matches (kb.specificity)
            load = round(os.getloadavg()[0], 1)
            child = subprocess.run(
                [sys.executable, __file__, "--measure", str(db)], check=True, capture_output=True, text=True
            )
            figures = {"entries": entries, **made, **json.loads(child.stdout)}
            print(json.dumps({**figures, "load1_before": load, "load1_after": round(os.getloadavg()[0], 1)}))
            sys.stdout.flush()
            if not args.keep:
                for path in work.glob(f"kb{entries}.db*"):
                    shutil.rmtree(path) if path.is_dir() else path.unlink()


if __name__ == "__main__":
    main()

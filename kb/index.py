"""The faiss index over example vectors: a cache of SQLite, persisted beside the database.

Exact inner product (IndexFlatIP) up to `APPROX_THRESHOLD` vectors, an inverted-file index (IVF,
inner product, float16 codes, trained on a sample) above it: it builds in seconds where HNSW took
minutes at 300k vectors on two cores, holds a vector in half its float32 size, and still accepts
incremental adds. 8-bit codes (a quarter of the size) capped recall@10 against exact search at
0.988 on 42k vectors whatever the lists probed; float16 codes reach 0.9997 at the same speed
(bench/RESULTS.md, "KB at scale"). Vectors are streamed from SQLite (the truth) in batches.
The index file has a JSON sidecar naming the model, dimension, kind and the fingerprint of the
SQLite content it was built from; a cache whose sidecar does not match is ignored (and rebuilt by
the caller), so vectors of two models never mix. Files are written to a temporary name and renamed.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import faiss
    import numpy as np


APPROX_THRESHOLD = 20_000  # vectors; flat search over more made 10k entries slower than 100k
BATCH = 16_384  # vectors added (and read from SQLite) at a time
IVF_NPROBE = 16  # lists searched per query (2.5% of the lists at 400,000 vectors)
IVF_TRAIN_PER_LIST = 40  # training sample size per list


@dataclass(frozen=True)
class IndexMeta:
    """What an index file holds."""

    model: str
    dim: int
    fingerprint: str
    kind: str
    count: int


class VectorIndex:
    """Example vectors searchable by inner product, keyed by example id."""

    def __init__(self, index: faiss.Index, meta: IndexMeta) -> None:
        import faiss

        # One OpenMP thread: on a shared 2-core machine two threads made a search 3.5x slower
        # (19.6 ms vs 5.5 ms for 7 queries over 13k vectors), and a query is a handful of vectors.
        faiss.omp_set_num_threads(1)
        self._index = index
        self.meta = meta
        self._lock = threading.Lock()  # faiss may not search while an add runs (any thread calls)

    @classmethod
    def build(cls, ids: np.ndarray, vectors: np.ndarray, model: str, fingerprint: str) -> VectorIndex:
        """Build an index over in-memory `vectors` (unit float32 rows) with example `ids`."""
        step = range(0, len(ids), BATCH)
        return cls.build_batched(
            len(ids),
            vectors.shape[1],
            lambda rows: vectors[rows],
            ((ids[i : i + BATCH], vectors[i : i + BATCH]) for i in step),
            model,
            fingerprint,
        )

    @classmethod
    def build_batched(
        cls,
        count: int,
        dim: int,
        sample: Callable[[np.ndarray], np.ndarray],
        batches: Iterable[tuple[np.ndarray, np.ndarray]],
        model: str,
        fingerprint: str,
    ) -> VectorIndex:
        """Build from `count` vectors streamed as (ids, vectors) `batches`, never all in memory at once.

        `sample(rows)` returns the vectors at these row positions (sorted), to train an IVF index.
        """
        import faiss
        import numpy as np

        if count > APPROX_THRESHOLD:
            # sqrt(count) lists: training (about lists x sample) and adding (lists per vector) cost a
            # quarter and a half of 2 x sqrt(count), and 16 of 634 lists probe a little more than 24 of 1,268.
            nlist = min(4096, int(np.sqrt(count)))
            size = min(count, nlist * IVF_TRAIN_PER_LIST)
            rows = np.random.default_rng(0).choice(count, size=size, replace=False)
            index = _trained_ivf(np.ascontiguousarray(sample(np.sort(rows))), nlist)
            kind = "ivf-fp16"
        else:
            index = faiss.IndexIDMap(faiss.IndexFlatIP(dim))
            kind = "flat"
        for batch_ids, batch in batches:
            if len(batch_ids):
                index.add_with_ids(np.ascontiguousarray(batch, dtype=np.float32), batch_ids)
        total = int(index.ntotal)
        return cls(index, IndexMeta(model=model, dim=dim, fingerprint=fingerprint, kind=kind, count=total))

    @classmethod
    def load(cls, path: Path, model: str, dim: int, fingerprint: str) -> VectorIndex | None:
        """The cached index at `path`, or None when absent, unreadable or built from other content."""
        import faiss

        try:
            meta = IndexMeta(**json.loads(Path(f"{path}.json").read_text(encoding="utf-8")))
            if (meta.model, meta.dim, meta.fingerprint) != (model, dim, fingerprint):
                return None
            index = faiss.read_index(str(path))
        except (OSError, ValueError, TypeError, RuntimeError):
            return None
        if index.ntotal != meta.count or index.d != dim:
            return None
        if meta.kind.startswith("ivf"):
            faiss.extract_index_ivf(index).nprobe = IVF_NPROBE
        return cls(index, meta)

    def save(self, path: Path) -> None:
        """Write the index and its sidecar atomically (temporary file, then rename)."""
        import faiss

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        os.close(fd)
        try:
            faiss.write_index(self._index, tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _write_atomic(Path(f"{path}.json"), json.dumps(self.meta.__dict__, indent=1))

    def add(self, ids: np.ndarray, vectors: np.ndarray, fingerprint: str) -> None:
        """Add vectors incrementally (no rebuild) and record SQLite's new `fingerprint`; no vectors (an
        example with no English view) still records it."""
        with self._lock:
            if len(ids):
                self._index.add_with_ids(vectors, ids)
        self.meta = IndexMeta(
            **{**self.meta.__dict__, "fingerprint": fingerprint, "count": int(self._index.ntotal)}
        )

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The `k` nearest examples to one or more query vectors: (example id, best similarity)."""
        import faiss
        import numpy as np

        faiss.omp_set_num_threads(1)  # the setting is per thread, and the retriever searches on a worker
        with self._lock:
            if self._index.ntotal == 0:
                return []
            scores, ids = self._index.search(np.atleast_2d(vector), min(k, int(self._index.ntotal)))
        best: dict[int, float] = {}
        for row_ids, row_scores in zip(ids, scores, strict=True):
            for eid, score in zip(row_ids.tolist(), row_scores.tolist(), strict=True):
                if eid >= 0 and score > best.get(eid, -2.0):
                    best[eid] = score
        return sorted(best.items(), key=lambda item: -item[1])


def _trained_ivf(sample: np.ndarray, nlist: int) -> faiss.Index:
    """An IVF inner-product index over `nlist` lists with float16 codes, trained on `sample`."""
    import faiss

    dim = sample.shape[1]
    index = faiss.IndexIVFScalarQuantizer(
        faiss.IndexFlatIP(dim), dim, nlist, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT
    )
    index.cp.niter = 10
    index.train(sample)
    index.nprobe = IVF_NPROBE
    return index


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)

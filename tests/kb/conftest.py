"""KB test fixtures: one embedding model and one built knowledge base per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.embed import Embedder
from kb.service import KnowledgeBase


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real packaged model, loaded once per session."""
    return Embedder()


@pytest.fixture(scope="session")
def kb_path(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Path:
    """A database built from the bundled entries (vectors and faiss cache included)."""
    path = tmp_path_factory.mktemp("kb") / "pitstop.db"
    kb = KnowledgeBase.open(path, embedder=embedder)
    kb.warm()
    kb.close()
    return path


@pytest.fixture(scope="session")
def kb(kb_path: Path, embedder: Embedder) -> KnowledgeBase:
    """The shared, read-only knowledge base (tests that write use their own)."""
    return KnowledgeBase.open(kb_path, embedder=embedder)

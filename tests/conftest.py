"""Shared test fixtures: where `../shared` lies, the lab fleet, and one embedding model and one built
knowledge base per test session (loading the model is the slowest thing the suite does)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pitstop.kb.embed import Embedder
from pitstop.kb.service import KnowledgeBase

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))

pytest_plugins = ("tests.lab.fleet_fixtures",)  # lab_fleet, lab_inventory

# Subprocesses (`python -m pitstop ...`) import this checkout, not whatever pitstop is installed.
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The third-party material beside the checkout (CI lays it there)."""
    if not SHARED.is_dir():
        pytest.fail(f"../shared not found at {SHARED}; set PITSTOP_SHARED")
    return SHARED


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

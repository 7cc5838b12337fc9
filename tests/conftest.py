"""Shared test fixtures: where `../shared` lies, the lab fleet, the product's embedder, and one knowledge
base built once per test run (embedding the bundled entries is the slowest thing the suite does).

Under pytest-xdist every worker is its own session: `run_dir` is the run's folder they share and
`run_lock` serialises the one-time work in it (the ONNX export, the KB build)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitstop.kb.embed import Embedder
from pitstop.kb.onnx_embed import OnnxEmbedder, default_embedder
from pitstop.kb.service import KnowledgeBase
from tests.bot.conftest import copy_kb

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))

pytest_plugins = ("tests.lab.fleet_fixtures",)  # lab_fleet, lab_inventory

# Subprocesses (`python -m pitstop ...`) import this checkout, not whatever pitstop is installed.
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# No warm `pitstop ask` server left behind by the many asks of the suite (tests/cli/test_ask_server.py
# turns it on for its own asks and stops what it started).
os.environ["PITSTOP_ASK_SERVER"] = "0"
# Lab fleets (and `pitstop lab up`/`start` subprocesses, which inherit this) probe ports from here:
# each pytest-xdist worker of a run its own block of 100, and separate runs spread over 20000-59999.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_RUN = os.getppid() if _WORKER else os.getpid()
os.environ["PITSTOP_LAB_PORT"] = str(20000 + (_RUN % 40) * 1000 + int(_WORKER[2:] or 0) * 100)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The third-party material beside the checkout (CI lays it there)."""
    if not SHARED.is_dir():
        pytest.fail(f"../shared not found at {SHARED}; set PITSTOP_SHARED")
    return SHARED


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this test run, shared by all its xdist workers (each has a subfolder in it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def run_lock(run_dir: Path, name: str) -> Iterator[None]:
    """Hold the run-wide lock `name` (one worker does the work, the others wait and reuse it)."""
    with open(run_dir / f"{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def embedder(run_dir: Path) -> OnnxEmbedder | Embedder:
    """The embedder the product uses (kb.onnx_embed.default_embedder: the packaged model's ONNX
    export, made once per install), so that tests and `pitstop` subprocesses share stored vectors."""
    with run_lock(run_dir, "onnx-export"):
        chosen = default_embedder()
    chosen.encode(["warm up"])
    return chosen


@pytest.fixture(scope="session")
def kb_path(
    tmp_path_factory: pytest.TempPathFactory, run_dir: Path, embedder: OnnxEmbedder | Embedder
) -> Path:
    """A database built from the bundled entries (vectors and faiss cache included): built once per
    run, and copied for each worker so that no worker sees another's writes."""
    built = run_dir / "kb-built" / "pitstop.db"
    with run_lock(run_dir, "kb-built"):
        if not built.exists():
            staging = run_dir / "kb-staging"
            shutil.rmtree(staging, ignore_errors=True)  # what a worker killed mid-build left
            staging.mkdir()
            kb = KnowledgeBase.open(staging / "pitstop.db", embedder=embedder)
            kb.warm()
            kb.close()
            staging.rename(built.parent)
    return copy_kb(built, tmp_path_factory.mktemp("kb") / "pitstop.db")


@pytest.fixture(scope="session")
def kb(kb_path: Path, embedder: Embedder) -> KnowledgeBase:
    """The shared, read-only knowledge base (tests that write use their own)."""
    return KnowledgeBase.open(kb_path, embedder=embedder)


@pytest.fixture
def fresh_kb(kb_path: Path, embedder: Embedder, tmp_path: Path) -> Iterator[KnowledgeBase]:
    """A writable copy of the session's built KB, for tests that teach it (resolutions, feedback,
    drafts, imports); the session's `kb` is shared and must not be written."""
    from tests.incidents.learning_support import copy_kb as private_copy

    kb = private_copy(kb_path, tmp_path, embedder)
    yield kb
    kb.close()

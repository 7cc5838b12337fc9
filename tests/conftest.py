"""Shared test fixtures: where `../shared` lies, and an isolated Pitstop home per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PITSTOP_SHARED", REPO.parent / "shared"))

pytest_plugins = ("tests.collectors.lab.fleet_fixtures",)  # lab_fleet, lab_inventory

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The third-party material beside the checkout (CI lays it there)."""
    if not SHARED.is_dir():
        pytest.fail(f"../shared not found at {SHARED}; set PITSTOP_SHARED")
    return SHARED

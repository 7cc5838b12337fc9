"""The corpus of secret shapes (tests/security/secrets.yaml): realistic, made-up values."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).with_name("secrets.yaml")


@cache
def load_corpus() -> tuple[dict[str, Any], ...]:
    """Every shape as {shape, text, secret}; at least 80 of them."""
    items = tuple(yaml.safe_load(CORPUS.read_text(encoding="utf-8")))
    assert len(items) >= 80 and all(i["secret"] in i["text"] for i in items)
    return items

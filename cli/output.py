"""One JSON style for every `--json` output: a `"schema": "pitstop.<kind>/1"` field, indented, UTF-8.

The shapes are documented, with their JSON Schemas, in docs/JSON.md; `tests/cli/test_json.py`
validates real outputs of every `--json` command against that page. Times are RFC 3339 UTC
(`pitstop.core.clock.stamp`), the format the database stores.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any

VERSION = 1


def schema_id(kind: str) -> str:
    """`pitstop.<kind>/1`."""
    return f"pitstop.{kind}/{VERSION}"


def document(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` with its schema id first."""
    return {"schema": schema_id(kind), **{k: v for k, v in data.items() if k != "schema"}}


def emit_json(kind: str, data: Mapping[str, Any]) -> None:
    """Print one indented JSON document of `kind`."""
    print(json.dumps(document(kind, data), ensure_ascii=False, indent=2, default=str))


def emit_jsonl(kind: str, rows: Iterable[Mapping[str, Any]]) -> None:
    """Print one compact JSON document of `kind` per line (for streaming into other tools)."""
    for row in rows:
        sys.stdout.write(json.dumps(document(kind, row), ensure_ascii=False, default=str) + "\n")

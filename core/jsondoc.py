"""One JSON style for every document Pitstop writes: a `"schema": "pitstop.<kind>/1"` field first,
indented, UTF-8 (docs/JSON.md documents each kind)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

VERSION = 1


def schema_id(kind: str) -> str:
    """`pitstop.<kind>/1`."""
    return f"pitstop.{kind}/{VERSION}"


def document(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` with its schema id first."""
    return {"schema": schema_id(kind), **{k: v for k, v in data.items() if k != "schema"}}


def dumps(kind: str, data: Mapping[str, Any], *, indent: int | None = 2) -> str:
    """The JSON text of one document of `kind` (`indent=None`: one line)."""
    return json.dumps(document(kind, data), ensure_ascii=False, indent=indent, default=str)

"""core/jsondoc.indented writes exactly what `json.dumps(indent=...)` writes, errors included."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pitstop.core.jsondoc import dumps, indented

_TEXTS = ["", "a", "中文", "\n\t\x00\x1f", "\ud800", "\U0001f600", "\u2028", 'q"b\\', "\x7f"]
_NUMBERS = [0, -1, 2**70, 0.0, -0.0, 1.5, 1e300, 1e-7, float("nan"), float("inf"), -float("inf"), True, False]
_KEYS = ["", "k", "中文", 1, -2, 1.5, True, False, None, float("nan")]


def _value(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(9 if depth < 4 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rnd.choice(_TEXTS)
    if kind == 2:
        return rnd.choice(_NUMBERS)
    if kind == 3:
        return datetime(2026, 1, 2, 3, 4, tzinfo=UTC)  # through default=str
    if kind == 4:
        return Path("/var/log/x")
    if kind in (5, 6):
        items = [_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
        return items if kind == 5 else tuple(items)
    return {rnd.choice(_KEYS): _value(rnd, depth + 1) for _ in range(rnd.randrange(5))}


@pytest.mark.parametrize("indent", [0, 1, 2, 4])
def test_indented_writes_what_json_writes(indent: int) -> None:
    rnd = random.Random(indent)
    docs = [{}, [], [[]], {"a": {}}, "x", 1, None, *(_value(rnd) for _ in range(500))]
    for doc in docs:
        assert indented(doc, indent, default=str) == json.dumps(
            doc, ensure_ascii=False, indent=indent, default=str
        )


def test_a_document_is_the_json_module_s_text_with_its_schema_first() -> None:
    data = {"hosts": [{"host": "gpu-1", "ok": True, "t": 1.25, "why": None, "zh": "未读"}], "notes": []}
    assert dumps("diagnose", data) == json.dumps(
        {"schema": "pitstop.diagnose/1", **data}, ensure_ascii=False, indent=2, default=str
    )
    assert dumps("diagnose", data, indent=None) == json.dumps(
        {"schema": "pitstop.diagnose/1", **data}, ensure_ascii=False, default=str
    )


@pytest.mark.parametrize(
    "doc",
    [[1, object()], {"a": {1j: 2}}, {(1, 2): 3}],
)
def test_what_json_refuses_is_refused_alike(doc: Any) -> None:
    with pytest.raises(TypeError) as ours:
        indented(doc, 2)
    with pytest.raises(TypeError) as theirs:
        json.dumps(doc, ensure_ascii=False, indent=2)
    assert str(ours.value) == str(theirs.value)


def test_a_circular_document_is_refused() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference detected"):
        indented(loop, 2)

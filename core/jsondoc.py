"""One JSON style for every document Pitstop writes: a `"schema": "pitstop.<kind>/1"` field first,
indented, UTF-8 (docs/JSON.md documents each kind)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from typing import Any

VERSION = 1
_INFINITY = float("inf")


def schema_id(kind: str) -> str:
    """`pitstop.<kind>/1`."""
    return f"pitstop.{kind}/{VERSION}"


def document(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` with its schema id first."""
    return {"schema": schema_id(kind), **{k: v for k, v in data.items() if k != "schema"}}


def dumps(kind: str, data: Mapping[str, Any], *, indent: int | None = 2) -> str:
    """The JSON text of one document of `kind` (`indent=None`: one line)."""
    doc = document(kind, data)
    if indent is None:
        return json.dumps(doc, ensure_ascii=False, default=str)
    return indented(doc, indent, default=str)


def indented(value: Any, indent: int, default: Callable[[Any], Any] | None = None) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=indent, default=default)`, byte for byte, without
    the standard library's generator per nesting level (its C encoder cannot indent): a 2,000-host
    sweep report is about 65 MB of indented JSON."""
    parts: list[str] = []
    _encode(value, parts, "\n", " " * indent, {}, default)
    return "".join(parts)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    """A dict key as `json` writes it (str, float, bool, None and int keys; TypeError otherwise)."""
    if isinstance(key, str):
        return encode_basestring(key)
    if isinstance(key, float):
        return encode_basestring(_float(key))
    if key is True or key is False or key is None:
        return '"true"' if key is True else '"false"' if key is False else '"null"'
    if isinstance(key, int):
        return encode_basestring(int.__repr__(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _encode(
    value: Any,
    out: list[str],
    newline: str,
    step: str,
    markers: dict[int, Any],
    default: Callable[[Any], Any] | None,
) -> None:
    """Append `value`'s text to `out`; `newline` is the line break and indent of its own level."""
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, list | tuple | dict):
        if not value:
            out.append("{}" if isinstance(value, dict) else "[]")
            return
        if id(value) in markers:
            raise ValueError("Circular reference detected")
        markers[id(value)] = value
        inner = newline + step
        after = "," + inner
        if isinstance(value, dict):
            out.append("{")
            first = True
            for key, item in value.items():
                out.append((inner if first else after) + _key(key) + ": ")
                first = False
                _encode(item, out, inner, step, markers, default)
            out.append(newline + "}")
        else:
            out.append("[")
            first = True
            for item in value:
                out.append(inner if first else after)
                first = False
                _encode(item, out, inner, step, markers, default)
            out.append(newline + "]")
        del markers[id(value)]
    else:
        if default is None:
            raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")
        if id(value) in markers:
            raise ValueError("Circular reference detected")
        markers[id(value)] = value
        _encode(default(value), out, newline, step, markers, default)
        del markers[id(value)]

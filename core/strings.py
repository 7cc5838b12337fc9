"""JSON-like data (mappings, lists, strings) with one function applied to every string in it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """`value` with `fn` applied to every string; mappings become dicts, tuples lists; keys stay."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, Mapping):
        return {k: map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [map_strings(v, fn) for v in value]
    return value

"""One parse per text within a host's facts: an output that two collectors' parsers read (the NVML
probe's `nvidia-smi -q` fallback and `nvidia-smi -q` itself) is parsed once and the result shared."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")
_MEMO: ContextVar[dict[tuple[Any, str], Any] | None] = ContextVar("pitstop_parse_memo", default=None)


@contextlib.contextmanager
def sharing(memo: dict[tuple[Any, str], Any]) -> Iterator[None]:
    """Parsers wrapped by `once` share results through `memo` inside this block (one host's facts)."""
    token = _MEMO.set(memo)
    try:
        yield
    finally:
        _MEMO.reset(token)


def once(parse: Callable[[str], T]) -> Callable[[str], T]:
    """`parse`, returning the same (read-only) result for an equal text inside a `sharing` block."""

    @functools.wraps(parse)
    def shared(text: str) -> T:
        memo = _MEMO.get()
        if memo is None:
            return parse(text)
        key = (parse, text)
        if key not in memo:
            memo[key] = parse(text)
        return memo[key]

    return shared

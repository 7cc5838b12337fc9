"""Text for a terminal: control characters from hosts or chat shown, never obeyed.

A compromised host's output, a paste or a resolution can hold ESC sequences (colours, cursor moves,
OSC 8 links, a retitled window), a carriage return that overwrites the line before it, or bidi
overrides that reorder what a person reads. Before text reaches a terminal each of these becomes
its escape as JSON writes it (`\\u001b`, `\\u000d`, `\\u202e`), so a JSON document stays valid and
equal; line feeds and tabs stay.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with every control character but line feed and tab, and every bidi control, written as
    its `\\uXXXX` escape."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def without_controls(text: str) -> str:
    """`text` without the characters `printable` escapes: for words people write that become KB text
    (a new cause, a draft edit, an imported entry), where an escape would be stored as typed."""
    return _UNSAFE.sub("", text)


class PrintableStream:
    """A text stream that writes everything through `printable` (the CLI's standard output)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        """Write `text` with its control characters escaped."""
        return self._stream.write(printable(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

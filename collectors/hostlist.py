"""Slurm/pdsh host-list expressions: `gpu[01-16]`, `node[1-3,7]`, `a,b,@group`.

Expansion counts first and generates later, so `gpu[1-99999999]` is refused before a
single name is built.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg

# `\Z`, not `$`: `$` also matches before a final newline. Range ends stay under 10**18 (an index-sized
# integer, far from int()'s digit limit), so no number can raise OverflowError or ValueError.
_NAME = re.compile(r"^@?[A-Za-z0-9][A-Za-z0-9._-]{0,252}\Z")
_RANGE = re.compile(r"^([0-9]{1,18})(?:-([0-9]{1,18}))?\Z")
_BRACKET = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class _Span:
    """One `lo-hi` item inside brackets; `width` keeps zero padding (`01-16`)."""

    lo: int
    hi: int
    width: int

    def __len__(self) -> int:
        return self.hi - self.lo + 1

    def __iter__(self) -> Iterator[str]:
        return (str(n).zfill(self.width) for n in range(self.lo, self.hi + 1))


def _show(text: str, limit: int = 60) -> str:
    """`text` quoted for an error message, cut to `limit` characters (input can be 10,000 long)."""
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def split_terms(expr: str) -> list[str]:
    """Split on commas outside brackets; blank terms are dropped."""
    terms, depth, start = [], 0, 0
    for i, ch in enumerate(expr):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            terms.append(expr[start:i])
            start = i + 1
        if depth not in (0, 1):
            raise UsageError(msg("errors.hostlist.brackets", expr=_show(expr)))
    if depth:
        raise UsageError(msg("errors.hostlist.brackets", expr=_show(expr)))
    terms.append(expr[start:])
    return [t.strip() for t in terms if t.strip()]


def _spans(body: str, term: str) -> list[_Span]:
    spans = []
    for item in body.split(","):
        m = _RANGE.match(item.strip())
        if not m:
            raise UsageError(msg("errors.hostlist.bad_range", range=_show(item), term=_show(term)))
        lo_s, hi_s = m.group(1), m.group(2) or m.group(1)
        lo, hi = int(lo_s), int(hi_s)
        if hi < lo:
            raise UsageError(msg("errors.hostlist.backwards", range=_show(item), term=_show(term)))
        width = len(lo_s) if lo_s.startswith("0") and len(lo_s) > 1 else 0
        spans.append(_Span(lo, hi, width))
    return spans


def _parse(term: str) -> tuple[list[str], list[list[_Span]]]:
    """Split a term into literal pieces and bracket span lists (pieces has one more item)."""
    pieces, groups, pos = [], [], 0
    for m in _BRACKET.finditer(term):
        pieces.append(term[pos : m.start()])
        groups.append(_spans(m.group(1), term))
        pos = m.end()
    pieces.append(term[pos:])
    skeleton = "0".join(pieces)
    if not _NAME.match(skeleton) or "[" in skeleton or "]" in skeleton:
        raise UsageError(msg("errors.hostlist.not_a_name", term=_show(term)))
    return pieces, groups


def count(term: str) -> int:
    """How many names `term` expands to, without expanding it."""
    total = 1
    for spans in _parse(term)[1]:
        total *= sum(len(s) for s in spans)
    return total


def _expand(pieces: list[str], groups: list[list[_Span]]) -> Iterator[str]:
    if not groups:
        yield pieces[0]
        return
    for head in (n for span in groups[0] for n in span):
        for tail in _expand(pieces[1:], groups[1:]):
            yield pieces[0] + head + tail


def expand_term(term: str) -> Iterator[str]:
    """Yield the names of one term (no commas at top level), lazily."""
    pieces, groups = _parse(term)
    return _expand(pieces, groups)


def expand(expr: str, max_hosts: int = 1024) -> tuple[str, ...]:
    """Expand a whole expression to unique names in order; refuse more than `max_hosts`.

    Group references (`@name`) are returned as they are; the inventory resolves them.
    """
    terms = split_terms(expr)
    if not terms:
        raise UsageError(msg("errors.hostlist.empty"))
    total = sum(count(t) for t in terms)
    if total > max_hosts:
        raise UsageError(msg("errors.hostlist.too_many", expr=_show(expr), n=total, limit=max_hosts))
    return tuple(dict.fromkeys(name for t in terms for name in expand_term(t)))


_LAST_NUMBER = re.compile(r"^(.*?)([0-9]+)([^0-9]*)\Z")


def _runs(numbers: list[str]) -> list[str]:
    """`["01", "02", "03", "07"]` -> `["01-03", "07"]`; a run keeps the padding its first number sets."""
    ordered = sorted(dict.fromkeys(numbers), key=lambda s: (int(s), len(s)))
    items: list[str] = []
    start = prev = ordered[0]
    width = len(start) if start.startswith("0") and len(start) > 1 else 0
    for s in ordered[1:]:
        if int(s) == int(prev) + 1 and str(int(s)).zfill(width) == s:
            prev = s
            continue
        items.append(start if start == prev else f"{start}-{prev}")
        start = prev = s
        width = len(s) if s.startswith("0") and len(s) > 1 else 0
    items.append(start if start == prev else f"{start}-{prev}")
    return items


def compress(names: Iterable[str]) -> str:
    """The inverse of `expand`: `gpu01..gpu16, gpu18` -> `gpu[01-16,18]` (names sorted, duplicates dropped).

    Only the last run of digits in a name is folded; `expand(compress(names))` gives the same set.
    """
    groups: dict[tuple[str, str], list[str]] = {}
    plain: list[str] = []
    for name in dict.fromkeys(names):
        m = _LAST_NUMBER.match(name)
        if m:
            groups.setdefault((m.group(1), m.group(3)), []).append(m.group(2))
        else:
            plain.append(name)
    terms = [(name, name) for name in plain]
    for (prefix, suffix), numbers in groups.items():
        folded = f"{prefix}[{','.join(_runs(numbers))}]{suffix}"
        listed = ",".join(f"{prefix}{n}{suffix}" for n in sorted(numbers, key=lambda s: (int(s), len(s))))
        terms.append((min(listed, folded, key=len), f"{prefix}\0{suffix}"))
    return ",".join(term for term, _ in sorted(terms, key=lambda t: t[1]))

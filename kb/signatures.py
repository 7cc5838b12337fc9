"""KB signature regexes on engines that cannot run away.

A signature is matched case-insensitively, `^`/`$` at line ends, against every paste, so one
catastrophically backtracking pattern (`(a+)+$`) arriving through `kb import` or a draft could
otherwise hold the process (and, in Python's `re`, the GIL) for minutes. Every signature therefore
compiles on RE2 (the `google-re2` binding: time linear in the text, the GIL released while it
matches). Only a pattern RE2 cannot express (a lookaround, as 11 curated signatures use) falls back
to the `regex` package, and only when it has no nested or alternated repetition and survives a probe
of adversarial texts; it then runs with `regex`'s `timeout=` and the GIL released. `problem()` is the
one gate: `kb check`, `kb import` and draft approval refuse a pattern it objects to.

The probes cost about 1 ms per pattern (0.5 s for the bundled KB, in every process that loads it), so
a pattern's passing them is recorded under `admission_key` (kb.store keeps the keys in SQLite) and a
recorded pattern is compiled with `probed=True`; a refusal is never recorded, so it is probed again.
"""

from __future__ import annotations

import hashlib
import re
import re._parser as sre_parse  # the stdlib's own parser, only to read a pattern's structure
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Protocol

import re2
import regex

MAX_PATTERN = 1_000  # characters; longer signatures are refused
PATTERN_TIMEOUT_S = 0.05  # one fallback search; a signature that takes longer is skipped for this paste
PROBE_TIMEOUT_S = 0.05  # CPU seconds of one probe search at admission (curated ones take under 7 ms)
PROBE_LENGTH = 4_000  # characters of each probe text (a third of the most a paste keeps: preprocess)
PROBE_VERSION = 1  # bump when _probes() changes: every recorded admission is then probed again

_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # RE2 would print each refusal on stderr
_SET_OPTIONS = re2.Options()
_SET_OPTIONS.log_errors = False
# A set's automaton must never run out of memory (it would miss matches, see Scanner). The bundled
# signatures' whole set keeps about 110 MB of DFA states; under 64 MB its cache was reset over and
# over (4.5 s instead of 0.3 s per 22,000 texts). The memory is taken only as states are needed.
_SET_OPTIONS.max_mem = 256 << 20
MAX_PARAM_REPEATS = 2  # unbounded repetitions in a row in a check's regex parameter (curated: at most 2)
_LONG_REPEAT = 64  # a repetition allowed more times than this counts as unbounded
MIN_LITERAL = 3  # how telling a literal must be to prefilter on: an ASCII character counts 1, others 3
_REPEATS = (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT)
_WORD = re.compile(r"[A-Za-z]{3,}")  # literal words of a pattern, for probe texts
_POSIX_CLASS = re.compile(r"\[:\^?[a-z]+:\]")


class Match(Protocol):
    """What both engines' match objects offer."""

    def start(self) -> int: ...
    def end(self) -> int: ...
    def group(self, index: int = 0) -> str: ...


@dataclass(frozen=True)
class Compiled:
    """One signature compiled on its engine."""

    pattern: str
    engine: Literal["re2", "regex"]
    _regex: Any

    def search(self, text: str, timeout_s: float = PATTERN_TIMEOUT_S) -> Match | None:
        """The first match in `text`, or None (also when a fallback search runs past `timeout_s`)."""
        if self.engine == "re2":
            return self._regex.search(text)
        try:
            return self._regex.search(text, timeout=max(timeout_s, 0.001), concurrent=True)
        except TimeoutError:
            return None


class UnsafePattern(ValueError):
    """A signature that does not compile, could run away, or would match every paste."""


def _walk(items: Iterable[Any]) -> Iterable[tuple[Any, Any]]:
    """Every (opcode, argument) of a parsed pattern, depth first, with the items below repeats."""
    for op, arg in items:
        yield op, arg
        for child in _children(op, arg):
            yield from _walk(child)


def _children(op: Any, arg: Any) -> list[Any]:
    if op in _REPEATS:
        return [arg[2]]
    if op == sre_parse.SUBPATTERN:
        return [arg[3]]
    if op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
        return [arg[1]]
    if op == sre_parse.BRANCH:
        return list(arg[1])
    if op == sre_parse.GROUPREF_EXISTS:
        return [b for b in arg[1:] if b is not None]
    return []


def _structural_problem(pattern: str) -> str | None:
    """Why a lookaround pattern could backtrack without bound: repetition inside repetition, or a
    repeated alternation (`(a|aa)+`), or a back-reference; None when its structure is safe."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "possible nested set": a style hint, not a refusal
            parsed = sre_parse.parse(pattern, re.I | re.M)
    except re.error as exc:
        return f"does not compile: {exc}"
    for op, arg in _walk(parsed):
        if op in (sre_parse.GROUPREF, sre_parse.GROUPREF_EXISTS):
            return "uses a back-reference"
        if op not in _REPEATS or arg[1] <= 1:
            continue
        for inner, inner_arg in _walk(arg[2]):
            if inner in _REPEATS and inner_arg[1] > 1:
                return "repeats a repetition (nested quantifiers backtrack without bound)"
            if inner == sre_parse.BRANCH and arg[1] == sre_parse.MAXREPEAT:
                return "repeats an alternation without bound"
    return None


def _probes(pattern: str) -> list[str]:
    """Texts that make regex engines slow: long runs of the pattern's own characters and words, each
    followed by a character that fails the match."""
    chars = sorted({c for c in pattern if c.isalnum() or c in " -_:./"} | {"a", "0", " ", "x"})
    words = " ".join(dict.fromkeys(_WORD.findall(pattern))) + " "
    runs = [c * PROBE_LENGTH for c in chars[:16]]
    texts = ("".join(chars), words, "a ", "word ", "a,")
    runs += [text * (PROBE_LENGTH // len(text)) for text in texts if text.strip()]
    return [run + tail for run in runs for tail in ("!", "\n")]


def _slow_on_probes(compiled: Compiled) -> bool:
    """True when one probe search costs more than its allowance of CPU time (RE2 is linear, but a large
    automaton can still cost a second on a long paste). CPU time of this thread, not wall time, so a
    busy machine does not refuse a fast pattern; the fallback's wall-clock timeout is only a backstop."""
    for probe in _probes(compiled.pattern):
        started = time.thread_time()
        if compiled.engine == "regex":
            try:
                compiled._regex.search(probe, timeout=PROBE_TIMEOUT_S * 20, concurrent=True)
            except TimeoutError:
                return True
        else:
            compiled._regex.search(probe)
        if time.thread_time() - started > PROBE_TIMEOUT_S:
            return True
    return False


def admission_key(pattern: str) -> str:
    """The name under which `pattern`'s passing the current probes is recorded."""
    rules = f"{PROBE_VERSION}:{PROBE_LENGTH}:{PROBE_TIMEOUT_S}:{MAX_PATTERN}"
    return hashlib.sha256(f"{rules}\0{pattern}".encode()).hexdigest()[:24]


@lru_cache(maxsize=4096)
def compile_signature(pattern: str, probed: bool = False) -> Compiled:
    """Compile `pattern` on RE2, else on the guarded fallback; raises UnsafePattern with the reason.

    `probed`: the pattern's admission is recorded (`admission_key`), so the probes are not run again.
    """
    if not isinstance(pattern, str) or not pattern:
        raise UnsafePattern("is empty")
    if len(pattern) > MAX_PATTERN:
        raise UnsafePattern(f"is longer than {MAX_PATTERN} characters")
    try:
        compiled = Compiled(pattern, "re2", re2.compile("(?im)" + pattern, _RE2_OPTIONS))
    except re2.error as exc:
        reason = _structural_problem(pattern)
        if reason:
            raise UnsafePattern(f"cannot run on RE2 ({_re2_reason(exc)}) and {reason}") from None
        try:
            compiled = Compiled(pattern, "regex", regex.compile(pattern, regex.I | regex.M | regex.V0))
        except regex.error as fallback_exc:
            raise UnsafePattern(f"does not compile: {fallback_exc}") from None
    if compiled.search("") is not None or compiled.search("\n") is not None:
        raise UnsafePattern("matches empty text, so it would match every paste")
    if not probed and _slow_on_probes(compiled):
        raise UnsafePattern(
            f"takes over {PROBE_TIMEOUT_S * 1000:.0f} ms on a repetitive {PROBE_LENGTH}-character text"
        )
    return compiled


def _re2_reason(exc: Exception) -> str:
    text = exc.args[0] if exc.args else exc
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)


def problem(pattern: str) -> str | None:
    """Why `pattern` may not be a signature, or None when it may."""
    try:
        compile_signature(pattern)
    except UnsafePattern as exc:
        return str(exc)
    return None


def _repeats_in_a_row(items: Any) -> int:
    """The most unbounded (or over `_LONG_REPEAT`) repetitions one match path of a parsed pattern
    passes through, lookarounds included: Python's `re` backtracks over each of them in turn, a cost
    polynomial in the line's length with this degree (`regex` and RE2 skip such a search when a
    required literal is absent, so the probes alone do not see it)."""
    total = 0
    for op, arg in items:
        if op in _REPEATS:
            total += int(arg[1] > _LONG_REPEAT) + _repeats_in_a_row(arg[2])
        elif op == sre_parse.SUBPATTERN:
            total += _repeats_in_a_row(arg[3])
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            total += _repeats_in_a_row(arg[1])
        elif op == sre_parse.BRANCH:
            total += max(_repeats_in_a_row(branch) for branch in arg[1])
    return total


@lru_cache(maxsize=1024)
def check_param_problem(pattern: str) -> str | None:
    """Why `pattern` may not be a regex parameter of a read-only check (`kernel_log_match`'s `pattern`,
    `link_mtu`'s `iface`...), or None when it may. Checks match these with Python's `re` over a host's
    whole log, where a backtracking pattern cannot be stopped and holds the GIL (the whole bot), so the
    bar is that of a lookaround signature whatever the engine: it compiles on `re`, has no nested or
    alternated repetition and no back-reference, at most `MAX_PARAM_REPEATS` unbounded repetitions in
    a row, and survives the probes (timed on `regex`)."""
    if len(pattern) > MAX_PATTERN:
        return f"is longer than {MAX_PATTERN} characters"
    try:
        re.compile(pattern, re.I)
    except re.error as exc:
        return f"does not compile: {exc}"
    reason = _structural_problem(pattern)
    if reason:
        return reason
    if _repeats_in_a_row(sre_parse.parse(pattern, re.I)) > MAX_PARAM_REPEATS:
        return (
            f"has more than {MAX_PARAM_REPEATS} unbounded repetitions in a row (each multiplies the"
            " backtracking on a long line)"
        )
    try:
        compiled = Compiled(pattern, "regex", regex.compile(pattern, regex.I | regex.V0))
    except regex.error as exc:
        return f"does not compile: {exc}"
    if _slow_on_probes(compiled):
        return f"takes over {PROBE_TIMEOUT_S * 1000:.0f} ms on a repetitive {PROBE_LENGTH}-character text"
    return None


def compile_all(patterns: Iterable[str]) -> list[Compiled]:
    """The patterns that compile safely (refused ones are skipped; `kb check` reports them)."""
    out = []
    for pattern in patterns:
        try:
            out.append(compile_signature(pattern))
        except UnsafePattern:
            continue
    return out


def first_matches(
    compiled: Sequence[Compiled], text: str, budget_s: float, positions: Iterable[int] | None = None
) -> tuple[list[tuple[int, Match]], bool]:
    """(index, first match) of each signature that matches `text`, within `budget_s` seconds in all;
    the flag is True when the budget ran out and later signatures were not tried. `positions`
    (ascending) limits the search to those signatures, e.g. `Catalog.candidates`: the others cannot match.

    The budget is this thread's CPU time (both engines search in the calling thread), so a busy machine
    does not skip signatures and change the answer; a fallback search's own timeout stays wall time."""
    deadline = time.thread_time() + budget_s
    found: list[tuple[int, Match]] = []
    for index in range(len(compiled)) if positions is None else positions:
        left = deadline - time.thread_time()
        if left <= 0:
            return found, True
        hit = compiled[index].search(text, min(PATTERN_TIMEOUT_S, left))
        if hit is not None:
            found.append((index, hit))
    return found, False


def _weight(literal: str) -> int:
    return sum(1 if c.isascii() else 3 for c in literal)


def _best(requirements: list[frozenset[str]]) -> frozenset[str] | None:
    """The most telling of several requirements (its shortest literal the longest)."""
    return max(requirements, key=lambda r: min(map(_weight, r)), default=None)


def _requirements(items: Any) -> list[frozenset[str]]:
    """Sets of literals such that every match of the parsed `items` contains one of each set.

    Only what a match cannot skip counts: literal runs, groups, repeats of at least one, and an
    alternation whose every branch has a requirement (their union). Lookarounds are left out."""
    found: list[frozenset[str]] = []
    run = ""

    def close() -> None:
        if _weight(run) >= MIN_LITERAL:
            found.append(frozenset([run]))

    for op, arg in items:
        if op is sre_parse.LITERAL:
            run += chr(arg)
            continue
        close()
        run = ""
        if op is sre_parse.SUBPATTERN:
            found += _requirements(arg[3])
        elif op in _REPEATS and arg[0] >= 1:
            found += _requirements(arg[2])
        elif op is sre_parse.BRANCH:
            branches = [_best(_requirements(branch)) for branch in arg[1]]
            if all(branches):
                found.append(frozenset().union(*branches))  # type: ignore[arg-type]
    close()
    return found


def literals_of(pattern: str) -> list[frozenset[str]]:
    """Casefolded literal sets a text must contain one of each of to match `pattern` (empty: no
    prefilter). POSIX classes (`[[:digit:]]`) parse differently in Python's parser, so they get none."""
    if _POSIX_CLASS.search(pattern):
        return []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = sre_parse.parse(pattern, re.I | re.M)
    except (re.error, OverflowError, RecursionError):
        return []
    return [frozenset(lit.casefold() for lit in req) for req in _requirements(parsed)]


class Prefilter:
    """Signatures searched only where each of their literal sets (`literals_of`) has a member in the
    text: one RE2 set of the literals, matched once on the casefolded text."""

    def __init__(self, compiled: Sequence[Compiled], positions: Sequence[int]) -> None:
        self._compiled = compiled
        ids: dict[str, int] = {}
        self._needs: dict[int, list[frozenset[int]]] = {}
        self._by_literal: dict[int, list[int]] = {}
        self._always: list[int] = []
        for position in positions:
            telling = sorted(literals_of(compiled[position].pattern), key=lambda req: -min(map(_weight, req)))
            needs = [frozenset(ids.setdefault(lit, len(ids)) for lit in req) for req in telling]
            self._needs[position] = needs
            if not needs:
                self._always.append(position)
            for lit in needs[0] if needs else ():
                self._by_literal.setdefault(lit, []).append(position)
        self._set = re2.Set.SearchSet(_SET_OPTIONS) if ids else None
        for literal in ids:
            self._set.Add(re2.escape(literal))  # type: ignore[union-attr]
        if self._set is not None:
            self._set.Compile()

    def candidates(self, text: str) -> set[int]:
        """Positions of its signatures whose literal sets all have a member in `text`: only they can match."""
        found = set(self._set.Match(text.casefold()) or ()) if self._set is not None else set()
        candidates = set(self._always)
        for literal in found:
            for position in self._by_literal.get(literal, ()):
                if all(need & found for need in self._needs[position]):
                    candidates.add(position)
        return candidates

    def matching(self, text: str) -> set[int]:
        """Positions of its signatures that match `text`."""
        return {p for p in self.candidates(text) if self._compiled[p].search(text) is not None}


class Scanner:
    """Which of many signatures match a text, without searching each one on every text.

    The RE2 signatures are compiled together into one RE2 set, whose single pass over a text says
    exactly which of them match. The set also holds a pattern that matches every text, so a pass the
    set could not finish (its automaton out of memory: no index at all) is seen, and that text goes
    the slower way: a prefilter (`Prefilter`) of every signature's literals, then each remaining
    signature's own `Compiled.search`, as a paste is searched. The fallback-engine signatures
    (lookarounds) always go that way. The result is exactly that of searching every signature
    (tests/kb/test_specificity.py compares them, both ways)."""

    def __init__(self, compiled: Sequence[Compiled], whole: bool = True) -> None:
        self._compiled = list(compiled)
        on_re2 = [p for p, sig in enumerate(self._compiled) if sig.engine == "re2"] if whole else []
        self._in_set = on_re2
        self._set: Any = None
        if on_re2:
            self._set = re2.Set.SearchSet(_SET_OPTIONS)
            for position in on_re2:
                self._set.Add("(?im)" + self._compiled[position].pattern)
            self._set.Add(r"\A")  # matches every text: its absence means the pass failed
            try:
                self._set.Compile()
            except re2.error:  # too large for one automaton: every signature goes the slower way
                self._set, self._in_set = None, []
        rest = sorted(set(range(len(self._compiled))).difference(self._in_set))
        self._rest = Prefilter(self._compiled, rest)
        self._all: Prefilter | None = None  # every signature, for a text the set could not finish

    def matching(self, text: str) -> list[int]:
        """Positions (in the signatures given) of those that match `text`, ascending."""
        if self._set is None:
            return sorted(self._rest.matching(text))
        found = self._set.Match(text) or ()
        canary = len(self._in_set)
        if canary not in found:
            if self._all is None:
                self._all = Prefilter(self._compiled, range(len(self._compiled)))
            return sorted(self._all.matching(text))
        hits = {self._in_set[i] for i in found if i != canary}
        return sorted(hits | self._rest.matching(text))

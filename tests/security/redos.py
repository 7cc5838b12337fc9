"""Pathological signatures and pastes shared by the ReDoS tests and bench/bench_redos.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

# Classic catastrophic-backtracking shapes (OWASP's ReDoS list and friends), with and without the
# lookarounds that push a pattern off RE2 onto the guarded fallback.
PATTERNS: tuple[str, ...] = (
    r"(a+)+$",
    r"(a+)+b",
    r"(a|aa)+$",
    r"(a|a?)+$",
    r"(.*a){25}",
    r"(\w+\s?)+$",
    r"(x+x+)+y",
    r"(\d+)*$",
    r"^(([a-z])+.)+[A-Z]([a-z])+$",
    r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
    r"^(\w+\s?)*$",
    r"(.*){1,32000}[bc]",
    r"((ab)*)+$",
    r"(\s*,\s*)+$",
    r"(?:[a-z]+[0-9]*)+!",
    r"error(.*)*fatal",
    r"Xid(\s*\S+\s*)+:\s*79$",
    r"(?<=x)(a+)+$",
    r"(?<!b)(a|aa)+$",
    r"(?=a)(a*)*b",
    r"(?<![0-9])(\d+\s*)+end",
    r"(a)\1+$",
    r"(?!x)(.*?,){20}z",
    r"(?<=\s)(\w|\d)+$",
    r"(?<=^)(.+)+$",
    r"a*",
    r"(?:)",
    r"x{0,65000}y{0,65000}z{0,65000}" * 4,
    r"((((((((((a*)*)*)*)*)*)*)*)*)*)*b",
    r"[" * 3,
)
# Texts that make backtracking engines explode on the shapes above.
PASTES: tuple[str, ...] = (
    "a" * 36 + "!",
    "a" * 5_000 + "!",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "x" * 3_000 + "\n",
    "0" * 4_000 + " ",
    "word " * 2_000 + "!",
    "ab" * 3_000 + "c",
    " ," * 3_000 + "x",
    "Xid " + "a " * 3_000 + ": 80",
    "error " * 3_000,
    ("a" * 60 + "\n") * 300,
    "a," * 4_000,
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@aaaaa.aaaaaaaaaaaaaaaaaaaaaa!",
    "x" + "a" * 8_000,
    "NCCL WARN " + "a" * 10_000 + "!",
)


def hostile_entry(kb: Any, pitfall_id: str = "hostile-signatures") -> list[str]:
    """Store a draft whose signatures are every pathological pattern, as a database written before
    admission checks might hold it (upsert does not validate); returns the patterns stored."""
    base = kb.all()[0]
    kb.upsert_pitfall(
        replace(base, id=pitfall_id, status="draft", title="hostile", signatures=PATTERNS),
    )
    return list(PATTERNS)

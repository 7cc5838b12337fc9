"""A curated entry without checks says why no read-only evidence can exist (kb check enforces it)."""

from __future__ import annotations

from dataclasses import replace

from pitstop.collectors.checks.registry import CHECKS
from pitstop.kb.schema import check_collection, load_pitfalls, validate_entry


def test_every_bundled_entry_has_a_check_or_a_note() -> None:
    entries = load_pitfalls()
    assert not check_collection(entries, known_checks=CHECKS)
    noted = [p for p in entries if not p.checks]
    assert noted and all(set(p.checks_note) == {"en", "zh"} for p in noted)


def test_an_entry_without_either_is_refused() -> None:
    entry = next(p for p in load_pitfalls() if not p.checks)
    bare = replace(entry, checks_note={})
    assert any("checks_note" in problem for problem in check_collection([bare], known_checks=CHECKS))
    assert any("checks_note" in p for p in validate_entry({**entry.to_dict(), "checks_note": {"en": "x"}}))

"""The entry schema and the bundled entries."""

from __future__ import annotations

import yaml

from pitstop.kb.schema import check_collection, load_pitfalls, validate_entry


def test_bundled_entries_are_valid():
    entries = load_pitfalls()
    assert entries, "no bundled KB entries"


def test_every_taxonomy_slug_is_covered(shared_dir):
    taxonomy = yaml.safe_load((shared_dir / "taxonomy.yaml").read_text(encoding="utf-8"))
    slugs = [item["slug"] for item in taxonomy]
    assert check_collection(load_pitfalls(), required_ids=slugs) == []


def test_validate_entry_reports_bad_regex_and_layer():
    problems = validate_entry({"id": "x-y-z", "signatures": ["(unclosed"], "layer": "moon"}, "bad.yaml")
    text = "\n".join(problems)
    assert "does not compile" in text
    assert "layer 'moon'" in text
    assert "'title' must be a non-empty string" in text

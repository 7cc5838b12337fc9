"""The entry schema and the bundled entries."""

from __future__ import annotations

import re

import yaml

from pitstop.kb.schema import check_collection, load_pitfalls, unfold_zh, validate_entry


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


def test_every_curated_entry_is_written_in_both_languages() -> None:
    from pitstop.collectors.checks.registry import CHECKS
    from pitstop.kb.schema import PITFALLS_DIR, missing_translations, read_entry_file

    described = {name for name, spec in CHECKS.items() if spec.describe.get("zh")}
    problems = [
        problem
        for path in sorted(PITFALLS_DIR.glob("*.yaml"))
        for problem in missing_translations(read_entry_file(path), path.name, described)
    ]
    assert not problems, problems


def test_a_missing_chinese_field_or_check_description_is_reported() -> None:
    from pitstop.kb.schema import PITFALLS_DIR, missing_translations, read_entry_file, validate_entry

    data = read_entry_file(PITFALLS_DIR / "xid79-gpu-fell-off-bus.yaml")
    del data["cause_zh"]
    data["fix_zh"] = data["fix_zh"][:-1]
    assert "no 'cause_zh' (Chinese)" in " ".join(
        missing_translations(data, "x", {"kernel_log_match", "gpu_lost"})
    )
    assert any("same steps" in p for p in validate_entry(data, "x"))
    assert any("gpu_lost" in p for p in missing_translations(data, "x", {"kernel_log_match"}))
    data["checks"][1]["describe"] = {"en": "Reads it.", "zh": "读取。"}
    assert not any("gpu_lost" in p for p in missing_translations(data, "x", {"kernel_log_match"}))
    data["checks"][1]["describe"] = {"en": "Reads it."}
    assert any("describe" in p for p in validate_entry(data, "x"))


def test_chinese_text_has_no_space_yaml_folded_between_two_characters() -> None:
    """`summary_zh: >-` joins its lines with a space; read, the entries' Chinese has none between two
    Chinese characters or punctuation marks ("访问不到它， 只有" was in 81 entries' summaries)."""
    chinese = "[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
    folded = re.compile(f"{chinese} +{chinese}")
    found = []
    for p in load_pitfalls():
        texts = [p.title_zh, p.summary_zh, p.cause_zh, *p.fix_zh, *p.checks_note.values()]
        texts += [c.describe.get("zh", "") for c in p.checks]
        found += [f"{p.id}: {m.group(0)!r}" for text in texts for m in folded.finditer(text)]
    assert not found, found
    assert unfold_zh("访问不到它， 只有 GPU 在 PCIe 上") == "访问不到它，只有 GPU 在 PCIe 上"

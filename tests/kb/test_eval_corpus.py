"""Frozen corpora match their pins, halves split them exactly, and no KB example is from a test half."""

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from pitstop.kb.evaluate import load_cases
from pitstop.kb.mined import load_examples

EVAL = Path(__file__).resolve().parents[2] / "bench" / "eval"


@pytest.mark.parametrize(
    ("pin_file", "pinned"),
    [
        ("real-v2.sha256", {"real-v2.jsonl", "real-v2-tune.jsonl", "real-v2-test.jsonl"}),
        ("real-v3.sha256", {"real-v3.jsonl"}),
        ("real-v4.sha256", {"real-v4.jsonl", "real-v4-tune.jsonl", "real-v4-test.jsonl"}),
        ("real-v5.sha256", {"real-v5.jsonl", "real-v5-tune.jsonl", "real-v5-test.jsonl"}),
        ("real-v6.sha256", {"real-v6.jsonl", "real-v6-tune.jsonl", "real-v6-test.jsonl"}),
        ("real-v7.sha256", {"real-v7.jsonl", "real-v7-tune.jsonl", "real-v7-test.jsonl"}),
    ],
)
def test_frozen_files_match_their_pins(pin_file: str, pinned: set[str]) -> None:
    pins = [line.split() for line in (EVAL / pin_file).read_text().splitlines() if line.strip()]
    assert {Path(name).name for _, name in pins} == pinned
    for digest, name in pins:
        assert hashlib.sha256((EVAL / Path(name).name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("real-v3.jsonl", 129),
        ("real-v4.jsonl", 295),
        ("real-v5.jsonl", 223),
        ("real-v6.jsonl", 215),
        ("real-v7.jsonl", 158),
    ],
)
def test_blind_sets_are_labelled_like_real_v2(name: str, size: int) -> None:
    cases = load_cases(EVAL / name)
    assert len(cases) == size and len({c.id for c in cases}) == size
    rows = [json.loads(line) for line in (EVAL / name).read_text(encoding="utf-8").splitlines()]
    assert all((not r["slugs"]) == r["not_in_kb"] and r["source"].startswith("http") for r in rows)
    assert len({r["source"] for r in rows}) == size  # one case per thread
    assert {c.origin for c in cases} == {"en", "zh-post", "zh-from-en"}


@pytest.mark.parametrize("corpus", ["real-v2", "real-v4", "real-v5", "real-v6", "real-v7"])
def test_halves_partition_the_corpus(corpus: str) -> None:
    whole = {c.id: c for c in load_cases(EVAL / f"{corpus}.jsonl")}
    tune = {c.id for c in load_cases(EVAL / f"{corpus}-tune.jsonl")}
    test = {c.id for c in load_cases(EVAL / f"{corpus}-test.jsonl")}
    assert not tune & test and tune | test == set(whole)
    rows = [json.loads(line) for line in (EVAL / f"{corpus}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all((not r["slugs"]) == r["not_in_kb"] and r["source"].startswith("http") for r in rows)
    assert {whole[i].origin for i in test} == {"en", "zh-post", "zh-from-en"}


def test_no_mined_example_comes_from_a_test_half_thread() -> None:
    spec = importlib.util.spec_from_file_location("mined_sources", EVAL.parent / "mined_sources.py")
    assert spec and spec.loader
    mined_sources = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mined_sources)
    held_out = {
        mined_sources.normalise(json.loads(line)["source"])
        for name in (
            "real-v2-test.jsonl",
            "real-v4-test.jsonl",
            "real-v5-test.jsonl",
            "real-v6-test.jsonl",
            "real-v7-test.jsonl",
        )
        for line in (EVAL / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    used = {mined_sources.normalise(example.source) for example in load_examples()[0]}
    assert len(used) > 300 and len(held_out) > 400
    assert not used & held_out

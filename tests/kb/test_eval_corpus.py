"""The frozen corpora match their sha256 pins, and real-v2's two halves split it exactly."""

import hashlib
import json
from pathlib import Path

import pytest

from pitstop.kb.evaluate import load_cases

EVAL = Path(__file__).resolve().parents[2] / "bench" / "eval"


@pytest.mark.parametrize(
    ("pin_file", "pinned"),
    [
        ("real-v2.sha256", {"real-v2.jsonl", "real-v2-tune.jsonl", "real-v2-test.jsonl"}),
        ("real-v3.sha256", {"real-v3.jsonl"}),
    ],
)
def test_frozen_files_match_their_pins(pin_file: str, pinned: set[str]) -> None:
    pins = [line.split() for line in (EVAL / pin_file).read_text().splitlines() if line.strip()]
    assert {Path(name).name for _, name in pins} == pinned
    for digest, name in pins:
        assert hashlib.sha256((EVAL / Path(name).name).read_bytes()).hexdigest() == digest, name


def test_real_v3_is_labelled_like_real_v2() -> None:
    cases = load_cases(EVAL / "real-v3.jsonl")
    assert len(cases) == 129 and len({c.id for c in cases}) == 129
    rows = [json.loads(line) for line in (EVAL / "real-v3.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all((not r["slugs"]) == r["not_in_kb"] and r["source"].startswith("http") for r in rows)
    assert {c.origin for c in cases} == {"en", "zh-post", "zh-from-en"}


def test_real_v2_halves_partition_the_corpus():
    whole = {c.id: c for c in load_cases(EVAL / "real-v2.jsonl")}
    tune = {c.id for c in load_cases(EVAL / "real-v2-tune.jsonl")}
    test = {c.id for c in load_cases(EVAL / "real-v2-test.jsonl")}
    assert not tune & test and tune | test == set(whole)
    rows = [json.loads(line) for line in (EVAL / "real-v2.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all((not r["slugs"]) == r["not_in_kb"] and r["source"].startswith("http") for r in rows)
    assert {whole[i].origin for i in test} == {"en", "zh-post", "zh-from-en"}

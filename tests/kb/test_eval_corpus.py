"""The frozen real-v2 corpus: its files match their sha256 pins and the two halves split it exactly."""

import hashlib
import json
from pathlib import Path

from pitstop.kb.evaluate import load_cases

EVAL = Path(__file__).resolve().parents[2] / "bench" / "eval"


def test_real_v2_files_match_their_pins():
    pins = [line.split() for line in (EVAL / "real-v2.sha256").read_text().splitlines() if line.strip()]
    names = {Path(name).name for _, name in pins}
    assert names == {"real-v2.jsonl", "real-v2-tune.jsonl", "real-v2-test.jsonl"}
    for digest, name in pins:
        assert hashlib.sha256((EVAL / Path(name).name).read_bytes()).hexdigest() == digest, name


def test_real_v2_halves_partition_the_corpus():
    whole = {c.id: c for c in load_cases(EVAL / "real-v2.jsonl")}
    tune = {c.id for c in load_cases(EVAL / "real-v2-tune.jsonl")}
    test = {c.id for c in load_cases(EVAL / "real-v2-test.jsonl")}
    assert not tune & test and tune | test == set(whole)
    rows = [json.loads(line) for line in (EVAL / "real-v2.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all((not r["slugs"]) == r["not_in_kb"] and r["source"].startswith("http") for r in rows)
    assert {whole[i].origin for i in test} == {"en", "zh-post", "zh-from-en"}

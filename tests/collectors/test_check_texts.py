"""Check sentences from the cache file equal the registry's, and a process that finds the file does not
import the checks (what `pitstop ask` pays at start)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pitstop.collectors.checks import texts
from pitstop.collectors.checks.registry import CHECKS

PROBE = (
    "import sys; from pitstop.collectors.checks.texts import description;"
    "print(description('gpu_temperature', 'zh') is not None,"
    " 'pitstop.collectors.checks.registry' in sys.modules)"
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    texts.descriptions.cache_clear()
    yield tmp_path
    texts.descriptions.cache_clear()


def test_cached_texts_are_the_registrys_in_both_languages(cache: Path) -> None:
    assert texts.descriptions() == {name: dict(spec.describe) for name, spec in CHECKS.items()}
    written = json.loads(texts.cache_file().read_text(encoding="utf-8"))
    texts.descriptions.cache_clear()
    assert texts.descriptions() == written  # read back, not rebuilt
    for name, spec in CHECKS.items():
        assert texts.description(name, "zh") == spec.description("zh")
    assert texts.description("no-such-check", "en") is None


def test_a_process_with_the_cache_file_does_not_import_the_checks(cache: Path) -> None:
    assert "gpu_temperature" in CHECKS

    def probe() -> list[str]:
        run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
        return run.stdout.split()

    assert probe() == ["True", "True"]  # no file yet: the registry, once, and the file is written
    assert probe() == ["True", "False"]


def test_a_changed_collector_source_names_a_new_file(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = texts.cache_file()
    fake = cache / "collectors"
    (fake / "checks").mkdir(parents=True)
    (fake / "checks" / "gpu.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(texts, "SOURCES", fake)
    first = texts.cache_file()
    (fake / "checks" / "gpu.py").write_text("x = 22\n", encoding="utf-8")
    assert len({before, first, texts.cache_file()}) == 3

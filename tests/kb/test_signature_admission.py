"""A signature's passing the probes is recorded in SQLite, so later processes compile it without probing
again; a refusal is never recorded, and new probe rules make every recorded pattern probed again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pitstop.kb import signatures, store
from pitstop.kb.embed import Embedder
from pitstop.kb.schema import load_pitfalls
from pitstop.kb.service import KnowledgeBase

SAFE = r"NVML: Driver/library version mismatch"
REFUSED = r"(?<=x)(a+)+$"  # nested repetition off RE2: refused before any probe
BASE = load_pitfalls()[0]  # loading validates (probes) every bundled signature: before any spy


def _kb(path: Path) -> KnowledgeBase:
    """A KB with one draft whose signatures are SAFE and REFUSED (the model never loads: no query)."""
    kb = KnowledgeBase.open(path, entries_dir=None, embedder=Embedder(quantize=False))
    if not kb.all():
        kb.upsert_pitfall(replace(BASE, id="probe-entry", status="draft", signatures=(SAFE, REFUSED)))
    return kb


@pytest.fixture
def probed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The patterns the probes run on from now on (a fresh compile cache, as in a new process)."""
    seen: list[str] = []
    real = signatures._slow_on_probes

    def spy(compiled: signatures.Compiled) -> bool:
        seen.append(compiled.pattern)
        return real(compiled)

    monkeypatch.setattr(signatures, "_slow_on_probes", spy)
    signatures.compile_signature.cache_clear()
    yield seen
    signatures.compile_signature.cache_clear()


def _patterns(kb: KnowledgeBase) -> list[str]:
    return [sig.pattern for sig in kb._get_catalog().signatures]


def test_an_admission_is_recorded_and_not_probed_again(tmp_path: Path, probed: list[str]) -> None:
    first = _kb(tmp_path / "kb.db")
    assert _patterns(first) == [SAFE] and probed == [SAFE]
    assert store.admitted_signatures(first.db) == {signatures.admission_key(SAFE)}

    signatures.compile_signature.cache_clear()
    probed.clear()
    second = _kb(tmp_path / "kb.db")
    assert _patterns(second) == [SAFE] and probed == []  # the refused one is refused again, unrecorded
    paste = "Failed to initialize NVML: Driver/library version mismatch"
    assert second._get_catalog().signatures[0].regex.search(paste) is not None


def test_new_probe_rules_probe_every_pattern_again(
    tmp_path: Path, probed: list[str], monkeypatch: Any
) -> None:
    _patterns(_kb(tmp_path / "kb.db"))
    signatures.compile_signature.cache_clear()
    probed.clear()
    monkeypatch.setattr(signatures, "PROBE_VERSION", signatures.PROBE_VERSION + 1)
    assert _patterns(_kb(tmp_path / "kb.db")) == [SAFE] and probed == [SAFE]

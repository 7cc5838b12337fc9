"""A Chinese diagnosis has no English prose outside quoted evidence, commands and error text.

Every check runs over every real output (the conformance fixtures: ../shared/outputs and
tests/fixtures/outputs), over a cut copy of each, and over the ways a command fails (not installed,
timed out, denied, failed, silent). The verdicts are rendered as the CLI and Slack attachment
render a diagnosis (`app.digest.render_text`) and one by one, in Chinese. What may stay English is
removed first: the data a reason quotes (its text parameters: versions, device names, error text),
evidence lines, commands, host names, cause ids and `backticked` spans. Whatever ASCII word of four
or more letters is left must not be English. The English vocabulary: every word of the catalogue's
English messages and of the KB entries' English text that the entries' Chinese text (written by
people, independently of the catalogue) never uses, so the names Chinese engineers keep (nvidia-smi,
NCCL, Docker, InfiniBand) do not count, and an untranslated message cannot hide its own words.
Every reason template is also checked on its own, parameters blanked, so templates the fixtures do
not reach are covered too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

import pytest

from pitstop.app.diagnose import DiagnoseReport, HostReport
from pitstop.app.digest import render_text
from pitstop.collectors import catalog
from pitstop.collectors.model import CommandResult, Verdict
from pitstop.core.i18n import Msg, catalogue, fields_of, render
from pitstop.kb.schema import load_pitfalls
from tests.collectors.fixture_verdicts import entries, entries_needing, fixtures, truncations, verdicts
from tests.conftest import SHARED

PITFALLS = entries()
_WORD = re.compile(r"(?<![\w./@:=+-])[A-Za-z]{4,}(?![\w./@=+-])")
_TICKED = re.compile(r"`[^`\n]*`")


# Names that Chinese text keeps as they are, and that the KB's Chinese text happens not to mention.
KEPT = frozenset({"megacli", "logind", "drwxrwxrwt", "stat"})


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_TICKED.sub(" ", re.sub(r"\{[^}]*\}", " ", text)))}


@cache
def english_words() -> frozenset[str]:
    """Words of English text (messages, KB entries) that the KB's Chinese text never uses."""
    english: set[str] = set()
    chinese: set[str] = set()
    for en, _ in catalogue().values():
        english |= _words(en)
    for pitfall in load_pitfalls():
        for lang, bag in (("en", english), ("zh", chinese)):
            for name in ("title", "summary", "cause"):
                bag |= _words(pitfall.text(name, lang) or "")
            for line in (*pitfall.steps(lang), *pitfall.symptoms_in(lang)):
                bag |= _words(line)
    return frozenset(english - chinese - KEPT)


def quoted(reason: Msg | str) -> Iterator[str]:
    """The data a reason quotes: its text and number parameters, nested ones included (an entry's
    own {en, zh} words are prose, not data)."""
    if not isinstance(reason, Msg):
        return
    for value in reason.params.values():
        items = value if isinstance(value, list | tuple) else (value,)
        for item in items:
            if isinstance(item, Msg):
                yield from quoted(item)
            elif isinstance(item, str | int | float) and str(item).strip():
                yield str(item)


def english_left(text: str, quotes: Iterable[str]) -> list[str]:
    """English words left in `text` once the quoted data and backticked spans are taken out."""
    for q in sorted(set(quotes), key=len, reverse=True):
        text = text.replace(q, " ")
    words = _WORD.findall(_TICKED.sub(" ", text))
    return sorted({w for w in words if w.lower() in english_words()})


def failed_runs() -> Iterator[CommandResult]:
    """Each catalog command failing each way a run can fail."""
    for c in catalog.CATALOG:
        yield CommandResult(c.name, c.argv, "missing", 127, stderr=f"{c.argv[0]}: command not found")
        yield CommandResult(c.name, c.argv, "timeout")
        yield CommandResult(c.name, c.argv, "nonzero", 1, stderr="Permission denied")
        yield CommandResult(c.name, c.argv, "nonzero", 2, stderr="Segmentation fault")
        yield CommandResult(c.name, c.argv, "nonzero", 3)
        yield CommandResult(c.name, c.argv, "ok", 0)
        yield CommandResult(c.name, c.argv, "error", message="Connection lost")


def runs() -> Iterator[CommandResult]:
    """Every real output, a cut copy of it, and every failing run."""
    for fixture in fixtures(SHARED) if (SHARED / "outputs").is_dir() else ():
        yield fixture.result()
        for _, cut in list(truncations(fixture.text))[:1]:
            yield fixture.result(cut, truncated=True)
    yield from failed_runs()


@pytest.fixture(scope="module")
def diagnosis() -> list[tuple[CommandResult, tuple[Verdict, ...]]]:
    """Per run, the verdicts of every entry whose checks read it."""
    out = []
    for result in runs():
        if entries_needing(result.collector, PITFALLS):
            out.append((result, tuple(v for _, v in verdicts(result, PITFALLS))))
    return out


def data_of(verdict: Verdict) -> Iterator[str]:
    """What a rendered verdict may quote as it is: the reason's data, evidence, commands, its cause id."""
    yield from quoted(verdict.reason)
    yield verdict.pitfall
    yield from verdict.commands
    for e in verdict.evidence:
        yield e.command
        yield e.rerun
        yield from e.lines


def test_every_reason_kind_is_reached(diagnosis: list[tuple[CommandResult, tuple[Verdict, ...]]]) -> None:
    keys = {v.reason.key for _, vs in diagnosis for v in vs if isinstance(v.reason, Msg)}
    assert len(keys) >= 100  # many kinds of reason, not a handful (110 when written)
    plain = [v for _, vs in diagnosis for v in vs if not isinstance(v.reason, Msg)]
    assert not plain, f"reasons built as plain text, not catalogue messages: {plain[:3]}"


def test_each_reason_in_chinese_has_no_english_prose(
    diagnosis: list[tuple[CommandResult, tuple[Verdict, ...]]],
) -> None:
    found: dict[str, list[str]] = {}
    for _, vs in diagnosis:
        for v in vs:
            left = english_left(render(v.reason, "zh"), quoted(v.reason))
            if left:
                found.setdefault(render(v.reason, "zh"), left)
    assert not found, "\n".join(f"{words}: {text}" for text, words in list(found.items())[:20])


def test_the_rendered_chinese_diagnosis_has_no_english_prose(
    diagnosis: list[tuple[CommandResult, tuple[Verdict, ...]]],
) -> None:
    hosts = tuple(
        HostReport(f"fixture{i:04d}", "ok", verdicts=vs, commands=(result,))
        for i, (result, vs) in enumerate(diagnosis)
    )
    report = DiagnoseReport(hosts, lang="zh")
    text = render_text(report, "zh")
    quotes: list[str] = [h.host for h in hosts]
    for h in hosts:
        for v in h.verdicts:
            quotes += data_of(v)
        quotes += [catalog.display(c.argv) for c in h.commands]
    assert "已确认" in text and not english_left(text, quotes), english_left(text, quotes)
    reasons = [v["reason"] for h in report.to_json()["hosts"] for v in h["verdicts"]]
    assert reasons and not english_left("\n".join(reasons), quotes)


def test_the_check_fails_on_an_untranslated_reason() -> None:
    untranslated = Verdict("wrong-gpu-sku-delivered", "ruled_out", "every GPU matches H100 SXM5")
    assert english_left(render(untranslated.reason, "zh"), data_of(untranslated)) == ["every", "matches"]
    english_only = Msg("reasons.gpu.sku_matches", {"expected": "H100 SXM5"})
    assert english_left(english_only.render("en"), quoted(english_only)) == ["every", "matches"]
    assert english_left(english_only.render("zh"), quoted(english_only)) == []
    quoting: Any = Msg(
        "reasons.driver.smi_fails", {"error": "Failed to initialize NVML: Driver/library version"}
    )
    assert english_left(quoting.render("zh"), quoted(quoting)) == []  # quoted error text may stay English


@pytest.mark.parametrize("key", sorted(k for k in catalogue() if k.startswith("reasons.")))
def test_each_reason_template_in_chinese_has_no_english_prose(key: str) -> None:
    _, zh = catalogue()[key]
    blank = zh.format(**{name: "∎" for name in fields_of(zh)})
    assert not english_left(blank, ()), blank

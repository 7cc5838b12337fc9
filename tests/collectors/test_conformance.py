"""Conformance of every check over every real output (../shared/outputs and tests/fixtures/outputs).

The contradiction rule, measured: a check confirms only on a positive, specific line (never on an
output that does not show the cause, never on a missing tool or a failed command); it rules out
only on a positive sign of health (never on a cut, garbled or foreign output). Labels:
tests/fixtures/verdict_labels.yaml.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pitstop.collectors import catalog
from pitstop.collectors.model import CommandResult
from tests.collectors.fixture_verdicts import (
    Fixture,
    entries,
    entries_needing,
    fixtures,
    foreign_outputs,
    garbles,
    labels,
    truncations,
    understood,
    verdicts,
)
from tests.conftest import SHARED

FIXTURES = fixtures(SHARED) if (SHARED / "outputs").is_dir() else []
PITFALLS = entries()
IDS = [f"{f.name}>{f.collector}" for f in FIXTURES]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_every_output_folder_is_labelled(shared_dir: Path) -> None:
    folders = {
        p.name
        for root in (shared_dir / "outputs", Path(__file__).parents[1] / "fixtures" / "outputs")
        for p in root.iterdir()
        if p.is_dir()
    }
    data = labels()
    assert folders == set(data["folders"])
    named = {f.name for f in FIXTURES} | {name for name, _ in foreign_outputs(shared_dir)}
    assert set(data["fixtures"]) <= named, "a label names no fixture"
    known = {p.id for p in PITFALLS} | {p for ids in data["fixtures"].values() for p in ids if False}
    unknown = {i.lstrip("?") for ids in data["fixtures"].values() for i in ids} - known
    assert not unknown, f"labels name unknown or uncheckable KB entries: {unknown}"
    assert len({f.name for f in FIXTURES}) >= 230


@pytest.mark.parametrize("fixture", FIXTURES, ids=IDS)
def test_confirms_only_what_the_output_shows_and_quotes_it(fixture: Fixture) -> None:
    got = dict((p.id, v) for p, v in verdicts(fixture.result(), PITFALLS))
    wrong = {
        pid: str(v.reason) for pid, v in got.items() if v.verdict == "confirmed" and pid not in fixture.shows
    }
    assert not wrong, "false confirmations"
    relevant = fixture.required & set(got)
    missed = {pid: str(got[pid].reason) for pid in relevant if got[pid].verdict != "confirmed"}
    assert not missed, "expected confirmations not made"
    command = catalog.display(catalog.get(fixture.collector).argv)
    text = _flat(fixture.text)
    for pid, v in got.items():
        if v.verdict != "confirmed":
            continue
        own = [e for e in v.evidence if e.command == command]
        assert own and all(e.rerun for e in v.evidence), f"{pid}: evidence not under `{command}`"
        for e in own:
            for line in e.lines:
                if re.fullmatch(r"\.\.\. \d+ more \.\.\.", line):
                    continue
                tail = line.split(": ", 1)[-1] if _flat(line) not in text else line
                assert _flat(line) in text or _flat(tail) in text, f"{pid}: `{line}` is not in the output"


@pytest.mark.parametrize("fixture", FIXTURES, ids=IDS)
def test_cut_or_garbled_outputs_never_rule_out(fixture: Fixture) -> None:
    variants = [(n, fixture.result(t, truncated=True)) for n, t in truncations(fixture.text)]
    same = understood(fixture.collector, fixture.text)
    variants += [
        (n, fixture.result(t))
        for n, t in garbles(fixture.text, len(fixture.name), fixture.collector)
        if understood(fixture.collector, t) != same  # a garble the parser does not even see changes nothing
    ]
    # a rule-out the garble did not change (same reason on the original) was not decided by the garble
    before = {
        p.id: _flat(re.sub(r"[:=|]", " ", str(v.reason))) for p, v in verdicts(fixture.result(), PITFALLS)
    }
    bad = [
        f"{name}: {p.id}: {v.reason}"
        for name, result in variants
        for p, v in verdicts(result, PITFALLS)
        if v.verdict == "ruled_out"
        and (result.truncated or before.get(p.id) != _flat(re.sub(r"[:=|]", " ", str(v.reason))))
    ]
    assert not bad


@pytest.mark.parametrize("collector", [c.name for c in catalog.CATALOG])
def test_foreign_outputs_never_rule_out(shared_dir: Path, collector: str) -> None:
    """Real outputs of commands outside the catalog, handed to each collector's checks."""
    if not entries_needing(collector, PITFALLS):
        pytest.skip(f"no KB entry reads {collector}")
    argv = catalog.get(collector).argv
    bad = [
        f"{name}: {p.id}: {v.reason}"
        for name, text in foreign_outputs(shared_dir)
        for p, v in verdicts(CommandResult(collector, argv, "ok", 0, stdout=text), PITFALLS)
        if v.verdict == "ruled_out"
    ]
    assert not bad


@pytest.mark.parametrize("collector", [c.name for c in catalog.CATALOG])
@pytest.mark.parametrize(
    ("outcome", "exit_code", "stderr"),
    [
        ("missing", 127, "bash: line 1: tool: command not found"),
        ("timeout", None, ""),
        ("nonzero", 1, "Failed to connect: Connection refused"),
        ("error", None, "channel closed"),
    ],
)
def test_a_command_that_did_not_run_decides_nothing(
    collector: str, outcome: str, exit_code: int | None, stderr: str
) -> None:
    result = CommandResult(
        collector,
        catalog.get(collector).argv,
        outcome,
        exit_code,
        stderr=stderr,
        message=stderr,  # type: ignore[arg-type]
    )
    decided = {p.id: v.verdict for p, v in verdicts(result, PITFALLS) if v.verdict != "inconclusive"}
    assert not decided

"""The README's counts are the code's, and its paths exist in the checkout."""

from __future__ import annotations

import re
from pathlib import Path

from pitstop.collectors.checks.registry import CHECKS
from pitstop.lab.scenario import load_scenario, shipped_scenarios

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_counts_are_true() -> None:
    entries = len(list((ROOT / "kb" / "pitfalls").glob("*.yaml")))
    scenarios = len([d for d in (ROOT / "lab" / "scenarios").iterdir() if d.is_dir()])
    assert f"Bundled: {entries} root causes" in README
    assert f"{len(CHECKS)} read-only\nchecks" in README or f"{len(CHECKS)} read-only checks" in README
    assert f"{scenarios} lab scenarios" in README
    faulty = sum(1 for path in shipped_scenarios() if load_scenario(path).confirmed)
    assert f"{faulty} hosts with a field-note fault" in README
    assert f"and {scenarios - faulty} without one" in README


def test_no_paths_a_user_does_not_have() -> None:
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in page.read_text(encoding="utf-8"), page.name
    for link in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (ROOT / link).exists(), link


def test_the_console_session_is_the_one_the_console_test_runs() -> None:
    block = re.search(r"```console-script\n(.*?)```", README, re.S)
    assert block and ":run gpu-thermal" in block.group(1)


def test_every_python_file_the_docs_name_exists() -> None:
    layers = "core|migrations|kb|incidents|collectors|lab|app|bot|cli|pitstop|tests|bench"
    missing = [
        (page.name, path)
        for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        for path in re.findall(rf"`((?:{layers})/[\w./-]+\.py)(?:::\w+)?`", page.read_text(encoding="utf-8"))
        if not (ROOT / path).is_file()
    ]
    assert not missing, missing


def test_no_document_keeps_merge_conflict_markers() -> None:
    documents = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "bench").glob("*.md")),
    ]
    marked = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in documents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.match(r"(<{7}|>{7})( |$)|={7}$", line)
    ]
    assert marked == []


def test_ci_runs_the_readmes_test_command() -> None:
    """`.ci/run` installs and then runs the README's test line exactly (after ruff and mypy)."""
    line = next(s for s in README.splitlines() if s.startswith(".ci/install && ") and "pytest" in s)
    command = line.removeprefix(".ci/install && ").split("  #")[0].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ".ci/install" in ci and ci[-1] == command

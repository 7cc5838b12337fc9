"""Conformance of the check registry and `evaluate`'s combination of an entry's checks."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from pitstop.collectors import catalog
from pitstop.collectors.checks.registry import CHECKS, WHEN_CONFIRMED, evaluate, needs_of
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext
from pitstop.kb.schema import CheckRef, Pitfall, load_pitfalls
from tests.collectors.check_inputs import NOW, context, missing, ok, shared

DOCS = Path(__file__).resolve().parents[2] / "docs" / "CHECKS.md"


def entry(*checks: CheckRef, benign: bool = False) -> Pitfall:
    """A minimal entry naming these checks."""
    return Pitfall(
        id="test-entry",
        title="t",
        title_zh="t",
        layer="gpu",
        severity="high",
        summary="s",
        summary_zh="s",
        cause="c",
        symptoms=("x",),
        signatures=("x",),
        fix=("f",),
        references=("r",),
        checks=checks,
        benign=benign,
    )


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_every_check_is_well_formed(name: str) -> None:
    spec = CHECKS[name]
    assert (
        spec.name == name and spec.doc.strip() and spec.fn.__module__.startswith("pitstop.collectors.checks.")
    )
    assert spec.needs and all(n in catalog.BY_NAME for n in spec.needs), spec.needs
    assert list(inspect.signature(spec.fn).parameters) == ["facts", "params", "ctx"]


def well_described(describe: dict[str, str]) -> list[str]:
    """What is wrong with a check description for readers (empty when it is one sentence per language)."""
    problems = []
    if set(describe) != {"en", "zh"}:
        return [f"languages {sorted(describe)}, want en and zh"]
    en, zh = describe["en"], describe["zh"]
    if "\n" in en + zh or not en.endswith(".") or not zh.endswith("。"):
        problems.append("not one sentence per language")
    if not re.search(r"[\u4e00-\u9fff]", zh) or re.search(r"[\u4e00-\u9fff]", en):
        problems.append("languages swapped or untranslated")
    if re.search(r"\(\?|\\[bdsw]|\b[a-z]+_[a-z_]+\b", en + zh):
        problems.append("a regex or parameter name in the words")
    return problems


def test_a_bad_description_is_caught() -> None:
    assert (
        well_described(
            {"en": "Reads the governor: powersave confirms it.", "zh": "读取调频策略：是 powersave 就确认。"}
        )
        == []
    )
    assert well_described({"en": "Looks at confirm_unlimited.", "zh": "看 confirm_unlimited。"})
    assert well_described({"en": "Reads it.", "zh": "Reads it."})
    assert well_described({"en": "Reads it."})


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_check_descriptions_are_one_sentence_in_each_language(name: str) -> None:
    assert not well_described(dict(CHECKS[name].describe))


def test_checks_are_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    undocumented = [name for name in CHECKS if f"`{name}`" not in text]
    assert not undocumented


def test_every_check_named_by_the_kb_exists() -> None:
    unknown = [(p.id, ref.check) for p in load_pitfalls() for ref in p.checks if ref.check not in CHECKS]
    assert not unknown


def test_kb_check_params_are_known() -> None:
    bad = [
        (p.id, ref.check, key)
        for p in load_pitfalls()
        for ref in p.checks
        if ref.check in CHECKS
        for key in ref.params
        if key not in CHECKS[ref.check].params and key != WHEN_CONFIRMED
    ]
    assert not bad


def test_any_confirmed_wins_and_carries_its_evidence(shared_dir: Path) -> None:
    q = shared(shared_dir, "nvidia_smi_q", "nvidia-smi-q/a100-510-row-remap-pending-excerpt.txt")
    log = shared(shared_dir, "kernel_log", "dmesg/xid-63-row-remapper-new-row.txt")
    pitfall = entry(
        CheckRef("gpu_remapped_rows", {"state": "pending"}), CheckRef("kernel_log_match", {"xid": [63, 64]})
    )
    verdict = evaluate(pitfall, {"nvidia_smi_q": q, "kernel_log": log}, context())
    assert (verdict.pitfall, verdict.verdict, verdict.benign) == ("test-entry", "confirmed", False)
    assert {e.command for e in verdict.evidence} == {
        "nvidia-smi -q",
        "journalctl -k -b --no-pager -o short-iso",
    }
    assert verdict.commands == ("journalctl -k -b --no-pager -o short-iso",)  # nvml_probe did not run here
    assert needs_of(pitfall) == ("nvml_probe", "kernel_log")


def test_inconclusive_beats_ruled_out_and_says_why(shared_dir: Path) -> None:
    wb = shared(shared_dir, "storcli", "storcli/sas3508-c0-show-raid1-rwbd-cv-optimal.txt")
    pitfall = entry(
        CheckRef("raid_cache_policy"), CheckRef("kernel_log_match", {"pattern": "Write cache: disabled"})
    )
    verdict = evaluate(pitfall, {"storcli": wb, "kernel_log": missing("kernel_log")}, context())
    assert verdict.verdict == "inconclusive" and "journalctl not installed" in str(verdict.reason)
    ruled = evaluate(entry(CheckRef("raid_cache_policy")), {"storcli": wb}, context())
    assert ruled.verdict == "ruled_out" and ruled.evidence[0].lines


def test_benign_entries_are_confirmed_as_benign(shared_dir: Path) -> None:
    log = shared(shared_dir, "fabricmanager_log", "fabricmanager-log/journal-pre-nvl5-nothing-to-do-4090.txt")
    pitfall = entry(CheckRef("fabricmanager_log_match", {"kind": "nothing_to_do"}), benign=True)
    verdict = evaluate(pitfall, {"fabricmanager_log": log}, context())
    assert (verdict.verdict, verdict.benign) == ("confirmed", True)


def test_no_checks_unknown_checks_and_check_bugs_are_inconclusive() -> None:
    ctx = CheckContext(host="h", now=NOW)
    assert str(evaluate(entry(), {}, ctx).reason) == "no read-only check is defined for this cause"
    assert str(evaluate(entry(CheckRef("no_such_check")), {}, ctx).reason) == "unknown check 'no_such_check'"
    broken = evaluate(
        entry(CheckRef("gpu_temperature", {"above_c": "hot"})), {"nvml_probe": ok("nvml_probe", "{}")}, ctx
    )
    assert broken.verdict == "inconclusive" and str(broken.reason).startswith("check gpu_temperature failed")


def test_kb_patterns_compile_and_unchecked_entries_are_explained() -> None:
    pitfalls = load_pitfalls()
    for p in pitfalls:
        for ref in p.checks:
            for key in ("pattern", "unless_pattern"):
                if key in ref.params:
                    re.compile(str(ref.params[key]))
    section = DOCS.read_text(encoding="utf-8").split("## Causes not observable", 1)[1]
    unexplained = [p.id for p in pitfalls if not p.checks and f"`{p.id}`" not in section]
    assert not unexplained, "entries without checks must be listed in docs/CHECKS.md with the reason"


MISSING_TOOL_IS_EVIDENCE = {"nvidia_ctk_installed"}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_no_input_is_never_ruled_out_and_garbage_never_raises(name: str) -> None:
    spec = CHECKS[name]
    ctx = context(
        gpu_model="H100", gpu_count=8, form_factor="SXM5", driver_branch="535", nvlink_count=18, mtu=9000
    )
    params = {
        "xid": [79],
        "pattern": "x",
        "kind": "failed",
        "flag": "iommu",
        "driver": "i40e",
        "min_version": "2.1",
    }
    accepted = {k: v for k, v in params.items() if k in spec.params}
    nothing = spec.fn(Facts({}, now=NOW), accepted, ctx)
    assert nothing.verdict == "inconclusive" and str(nothing.reason)
    gone = Facts({n: missing(n) for n in spec.needs}, now=NOW)
    if name not in MISSING_TOOL_IS_EVIDENCE:
        assert spec.fn(gone, accepted, ctx).verdict == "inconclusive"
    for junk in ("", "\x00\ufffd garbage | : ] [", "GPU 00000000:01:00.0\n    Product Name : X\n"):
        facts = Facts({n: ok(n, junk) for n in spec.needs}, now=NOW)
        assert spec.fn(facts, accepted, ctx).verdict in ("confirmed", "ruled_out", "inconclusive")


def test_when_confirmed_caps_a_physical_cause_at_consistent_with(shared_dir: Path) -> None:
    lspci = shared(shared_dir, "lspci", "lspci-vv/bcm5720-width-downgraded-benign.txt")
    capped = entry(CheckRef("pcie_link_downgraded", {"device": "nic", WHEN_CONFIRMED: "inconclusive"}))
    verdict = evaluate(capped, {"lspci": lspci}, context())
    assert verdict.verdict == "inconclusive" and str(verdict.reason).startswith(
        "consistent with this cause: "
    )
    assert "Width x1 (downgraded)" in verdict.evidence[0].lines[0]
    plain = evaluate(entry(CheckRef("pcie_link_downgraded", {"device": "nic"})), {"lspci": lspci}, context())
    assert plain.verdict == "confirmed"


def test_a_sweep_parses_each_host_once() -> None:
    from pitstop.collectors.checks.registry import facts_for

    results = {"df": ok("df", "Filesystem Size Used Avail Use% Mounted on\n/dev/sda1 20G 1G 19G 5% /\n")}
    first = facts_for(results, NOW)
    assert facts_for(results, NOW) is first and facts_for(dict(results), NOW) is not first

"""The KB's checks reach every shipped lab scenario's expect.yaml verdicts, evaluated offline (no sshd).

The NVML probe is simulated as on a lab host: no libnvidia-ml, so it returns the scenario's
`nvidia-smi -q` (or its nvidia-smi error text). The lab's end-to-end tests run the same over SSH.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pitstop.collectors import catalog
from pitstop.collectors.checks.registry import evaluate
from pitstop.collectors.model import CheckContext, CommandResult
from pitstop.kb.schema import Pitfall, load_pitfalls
from pitstop.lab.scenario import NVIDIA_SMI_ERROR, SCENARIO_FILES, load_scenario, shipped_scenarios

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def scenario_results(path: Path) -> dict[str, CommandResult]:
    """What the runner would collect from this scenario's fake tools."""
    files = load_scenario(path).files
    error = files.get(NVIDIA_SMI_ERROR)
    results = {}
    for collector, name in SCENARIO_FILES.items():
        argv = catalog.get(collector).argv
        if error is not None and collector.startswith("nvidia_smi"):
            results[collector] = CommandResult(collector, argv, "nonzero", 9, stdout=error.read_text())
        elif name in files:
            results[collector] = CommandResult(
                collector, argv, "ok", 0, stdout=files[name].read_text(errors="replace")
            )
        else:
            results[collector] = CommandResult(
                collector, argv, "missing", 127, stderr=f"{argv[0]}: not found"
            )
    q = results["nvidia_smi_q"]
    smi = {"missing": True} if q.outcome == "missing" else {"exit": q.exit, "stdout": q.stdout, "stderr": ""}
    probe = {
        "probe": "pitstop-nvml",
        "version": 1,
        "source": "nvidia-smi",
        "nvml_error": "library_not_found",
        "message": "no NVIDIA driver here (libnvidia-ml.so not found)",
        "gpus": [],
        "nvidia_smi": smi,
        # the probe lists the GPU processes of that output; none shown: no job to inspect
        **({"jobs": []} if q.outcome == "ok" and "Process ID" not in q.stdout else {}),
    }
    results["nvml_probe"] = CommandResult("nvml_probe", ("python3", "-"), "ok", 0, stdout=json.dumps(probe))
    return results


@pytest.fixture(scope="module")
def pitfalls() -> dict[str, Pitfall]:
    return {p.id: p for p in load_pitfalls()}


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.name)
def test_scenario_verdicts(path: Path, pitfalls: dict[str, Pitfall]) -> None:
    scenario = load_scenario(path)
    results = scenario_results(path)
    ctx = CheckContext(host=scenario.name, expectations=dict(scenario.expect), now=NOW)
    wrong = []
    for want, ids in (("confirmed", scenario.confirmed), ("ruled_out", scenario.ruled_out)):
        for pid in ids:
            verdict = evaluate(pitfalls[pid], results, ctx)
            if verdict.verdict != want:
                wrong.append(f"{pid}: expected {want}, got {verdict.verdict} ({verdict.reason})")
            elif want == "confirmed":
                assert verdict.evidence and all(e.lines and e.rerun for e in verdict.evidence), pid
    assert not wrong


def test_healthy_host_confirms_nothing(pitfalls: dict[str, Pitfall]) -> None:
    path = next(p for p in shipped_scenarios() if p.name == "h100-sxm5-healthy")
    scenario = load_scenario(path)
    results = scenario_results(path)
    ctx = CheckContext(host=scenario.name, expectations=dict(scenario.expect), now=NOW)
    confirmed = [
        p.id for p in pitfalls.values() if evaluate(p, results, ctx).verdict == "confirmed" and not p.benign
    ]
    assert confirmed == []

"""Acceptance test of issue 3: `lab up` + a diagnose sweep on every shipped scenario gives exactly the
verdicts its expect.yaml lists (confirmed: exactly these; ruled_out: at least these).

One sweep runs over all shipped scenario hosts at once with the bundled knowledge base and the default
time windows: `lab up` moved the scenarios' dates to the present (lab/timeshift.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pitstop.app import diagnose as dg
from pitstop.collectors.inventory import Inventory
from pitstop.kb.service import KnowledgeBase
from pitstop.lab.fleet import Fleet
from pitstop.lab.scenario import load_scenario, shipped_scenarios
from tests.bot.conftest import copy_kb

pytestmark = [pytest.mark.lab, pytest.mark.slow]
SCENARIOS = {s.name: s for s in map(load_scenario, shipped_scenarios())}


@pytest.fixture(scope="module")
def sweep(
    lab_fleet: Fleet, lab_inventory: Inventory, kb_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dg.HostReport]:
    kb = KnowledgeBase.open(copy_kb(kb_path, tmp_path_factory.mktemp("kb") / "pitstop.db"))
    request = dg.DiagnoseRequest(hosts=",".join(SCENARIOS))
    report = asyncio.run(dg.diagnose(request, inventory=lab_inventory, kb=kb))
    return {h.host: h for h in report.hosts}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_verdicts(sweep: dict[str, dg.HostReport], name: str) -> None:
    scenario, host = SCENARIOS[name], sweep[name]
    assert host.status == "ok", host.error
    verdicts = {v.pitfall: v for v in host.verdicts}
    confirmed = {v.pitfall for v in host.confirmed}
    wrong = {
        p: f"{verdicts[p].verdict}: {verdicts[p].reason}" if p in verdicts else "no verdict"
        for p in scenario.ruled_out
        if p not in verdicts or verdicts[p].verdict != "ruled_out"
    }
    missed = {
        p: f"{verdicts[p].verdict}: {verdicts[p].reason}" if p in verdicts else "no verdict"
        for p in set(scenario.confirmed) - confirmed
    }
    extra = {p: str(verdicts[p].reason) for p in confirmed - set(scenario.confirmed)}
    assert (missed, extra, wrong) == ({}, {}, {})

"""Scenario dates follow the clock: every timestamp shape moves by one offset, other dates stay, and the
checks reach the same verdicts whatever the calendar says."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pitstop.collectors.checks.registry import evaluate
from pitstop.collectors.model import CheckContext
from pitstop.kb.schema import Pitfall, load_pitfalls
from pitstop.lab.fleet import install_scenario
from pitstop.lab.scenario import SCENARIOS_DIR, Scenario, load_scenario, shipped_scenarios
from pitstop.lab.timeshift import LEAD, plan
from tests.collectors.test_checks_scenarios import scenario_results

# just after New Year (year-less syslog stamps cross it) and years later (beyond every look-back window)
NOWS = (datetime(2027, 1, 2, 0, 3, tzinfo=UTC), datetime(2031, 7, 15, 12, 0, tzinfo=UTC))
LOG = """\
2026-11-20T22:40:58+0000 node kernel: DMI: Supermicro X13DEG-OAD, BIOS 2.1 02/06/2024
2026-11-20T22:40:58,007919+00:00 Linux version 5.15.0 #115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024
[   12.345678] nvidia: module loaded
 3 | 11/23/2026 | 03:12:44 | Voltage #0x64 | Lower Non-critical going low  | Asserted
Dec 31 23:59:30 node systemd[1]: Stopping NVIDIA fabric manager service...
     Active: active (running) since Fri 2026-11-20 22:42:31 UTC; 3 days ago
Creation Date = 14-03-2026
Timestamp                                 : Thu Dec 31 23:59:55 2026
"""
MOVED = """\
2026-12-03T22:35:03+0000 node kernel: DMI: Supermicro X13DEG-OAD, BIOS 2.1 02/06/2024
2026-12-03T22:35:03,007919+00:00 Linux version 5.15.0 #115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024
[   12.345678] nvidia: module loaded
 3 | 12/06/2026 | 03:06:49 | Voltage #0x64 | Lower Non-critical going low  | Asserted
Jan 13 23:53:35 node systemd[1]: Stopping NVIDIA fabric manager service...
     Active: active (running) since Thu 2026-12-03 22:36:36 UTC; 3 days ago
Creation Date = 14-03-2026
Timestamp                                 : Wed Jan 13 23:54:00 2027
"""


def test_every_shape_moves_by_one_offset_and_other_dates_stay() -> None:
    now = datetime(2027, 1, 13, 23, 59, 0, 500, tzinfo=UTC)
    shift = plan([LOG], now)
    assert shift.delta == timedelta(days=13, minutes=-5, seconds=-55)  # Dec 31 23:59:55 -> now - LEAD
    assert shift.apply(LOG) == MOVED


def test_year_less_stamps_are_read_near_the_newest_dated_one() -> None:
    # "Jan  2" beside a dated stamp of Dec 31 is the next year's: it is the newest, so it lands at now - LEAD
    text = "Timestamp : Thu Dec 31 10:00:00 2026\nJan  2 10:00:00 node kernel: x\n"
    shift = plan([text], datetime(2030, 6, 1, tzinfo=UTC))
    assert shift.apply(text).splitlines()[1] == "May 31 23:55:00 node kernel: x"


def test_nothing_to_move() -> None:
    assert plan(["GPU 0: NVIDIA H100 80GB HBM3\n"], NOWS[0]).delta == timedelta(0)


@pytest.fixture(scope="module")
def pitfalls() -> tuple[Pitfall, ...]:
    return tuple(load_pitfalls())


def _verdicts(
    scenario: Scenario, served: Path, pitfalls: tuple[Pitfall, ...], now: datetime
) -> dict[str, str]:
    """Every entry's verdict on what the directory `served` holds, for `scenario`'s host on date `now`."""
    ctx = CheckContext(host=scenario.name, expectations=dict(scenario.expect), now=now)
    results = scenario_results(served)
    return {p.id: evaluate(p, results, ctx).verdict for p in pitfalls}


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.name)
def test_verdicts_do_not_depend_on_the_calendar(
    path: Path, pitfalls: tuple[Pitfall, ...], tmp_path: Path
) -> None:
    scenario = load_scenario(path)
    seen = []
    for i, now in enumerate(NOWS):
        installed = install_scenario(scenario, tmp_path / str(i), now)
        seen.append(_verdicts(scenario, installed, pitfalls, now))
    assert seen[0] == seen[1]
    assert {p for p, v in seen[0].items() if v == "confirmed"} >= set(scenario.confirmed)
    assert all(seen[0][p] == "ruled_out" for p in scenario.ruled_out)


def test_unmoved_dates_would_rot(pitfalls: tuple[Pitfall, ...]) -> None:
    """The check above can fail: served as written, the voltage sags fall out of the SEL's 30-day window."""
    path = SCENARIOS_DIR / "ups-voltage-sag"
    verdicts = _verdicts(load_scenario(path), path, pitfalls, NOWS[1])
    assert verdicts["ups-input-voltage-fluctuation"] != "confirmed"


def test_the_newest_stamp_lies_lead_before_now(tmp_path: Path) -> None:
    installed = install_scenario(load_scenario(SCENARIOS_DIR / "ups-voltage-sag"), tmp_path, NOWS[1])
    smi = (installed / "nvidia-smi.txt").read_text().splitlines()[0]
    assert datetime.strptime(smi, "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC) == NOWS[1] - LEAD

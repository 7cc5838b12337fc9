"""Session-scoped lab fixtures for every test (registered by tests/conftest.py `pytest_plugins`).

`lab_fleet` runs every shipped scenario plus the fault scenarios of tests/lab/scenarios
as real sshd hosts on 127.0.0.x for the whole session, and always stops them: at the end of the
session, and from atexit if the session dies first. Tests skip when sshd is not installed. At the
end, the audit log must hold only catalog commands (an error at teardown otherwise). The hosts
`fault-down` and `fault-slow` are stopped by tests/collectors/test_faults.py: do not use them.
"""

from __future__ import annotations

import atexit
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitstop.lab import fleet
from pitstop.lab.audit import catalog_violations, read_audit
from pitstop.lab.scenario import SCENARIOS_DIR, load_all, shipped_scenarios
from pitstop.lab.sshd import LabError, find_sshd

FAULT_SCENARIOS = Path(__file__).parent / "scenarios"


def _down_quietly(state_dir: Path) -> None:
    with contextlib.suppress(LabError):
        fleet.down(state_dir)


@pytest.fixture(scope="session")
def lab_fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[fleet.Fleet]:
    """Shipped scenarios (host name = scenario name) and fault scenarios, up for the session."""
    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    state_dir = tmp_path_factory.mktemp("lab")
    paths = [*shipped_scenarios(), *sorted(p for p in FAULT_SCENARIOS.iterdir() if p.is_dir())]
    lab = fleet.up(load_all(paths), state_dir)  # from this process's ports (tests/conftest.py)
    atexit.register(_down_quietly, state_dir)
    try:
        yield lab
        problems = catalog_violations(read_audit(lab.audit_log))
    finally:
        _down_quietly(state_dir)
    assert not problems, "commands outside the catalog reached the lab:\n" + "\n".join(problems[:20])


@pytest.fixture(scope="session")
def lab_inventory(lab_fleet: fleet.Fleet):
    """The lab's inventory loaded through collectors.inventory."""
    from pitstop.collectors import inventory

    return inventory.load(lab_fleet.inventory)


JOB_NODES = [f"h100-sxm5-healthy-{i:03d}" for i in range(1, 8)] + ["job-odd-node-001"]


@pytest.fixture(scope="session")
def job_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[fleet.Fleet]:
    """7 copies of `h100-sxm5-healthy`, `job-odd-node` and `slurm-controller`: Slurm job 4242 ran on
    JOB_NODES, and `job-odd-node-001` is its odd node (lab/scenarios/slurm-controller/README.md)."""
    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    state = tmp_path_factory.mktemp("joblab")
    scenarios = load_all(SCENARIOS_DIR / n for n in ("h100-sxm5-healthy", "job-odd-node", "slurm-controller"))
    lab = fleet.up(scenarios, state, copies=7)
    atexit.register(_down_quietly, state)
    try:
        yield lab
    finally:
        _down_quietly(state)

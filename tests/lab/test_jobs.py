"""`diagnose --job`: a Slurm job resolved on the lab's simulated controller, its odd node named first.

The lab runs 7 copies of `h100-sxm5-healthy`, `job-odd-node` and `slurm-controller`; job 4242 ran on
`h100-sxm5-healthy-[001-007],job-odd-node-001` (lab/scenarios/slurm-controller/README.md).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from pitstop.app.diagnose import DiagnoseRequest, job_request, resolve_job
from pitstop.cli import main as cli
from pitstop.collectors import inventory as inv
from pitstop.collectors.audit import AuditLog
from pitstop.collectors.inventory import Inventory
from pitstop.core.config import local_user
from pitstop.core.db import open_db
from pitstop.core.errors import NotFound, UsageError
from pitstop.lab import fleet
from tests.lab.fleet_fixtures import JOB_NODES as NODES

pytestmark = pytest.mark.lab


@pytest.fixture(scope="module")
def job_inventory(job_lab: fleet.Fleet) -> Inventory:
    return inv.load(job_lab.inventory)


def _resolve(inventory: Inventory, job: str, db=None):
    return asyncio.run(resolve_job("slurm", job, inventory=inventory, db=db, requester="U1", origin="cli"))


def test_a_finished_job_is_read_from_sacct(job_inventory: Inventory, tmp_path: Path) -> None:
    assert job_inventory.slurm is not None and job_inventory.slurm.controller == "slurm-controller-001"
    db = open_db(tmp_path / "a.db")
    info = _resolve(job_inventory, "4242", db)
    assert info.nodes == tuple(NODES) and info.state == "FAILED" and info.name == "train-llm"
    assert info.start and info.end and (info.end - info.start).total_seconds() == 2 * 3600 + 12 * 60 + 37
    assert info.hostlist == "h100-sxm5-healthy-[001-007],job-odd-node-001"
    rows = AuditLog(db).query()
    assert {r.host for r in rows} == {"slurm-controller-001"}
    assert {r.argv[0] for r in rows} == {"scontrol", "sacct"} and ("4242" in rows[0].argv)
    request = job_request(info, job_inventory, DiagnoseRequest(hosts=""))
    assert (request.hosts, request.since, request.until) == (info.hostlist, info.start, info.end)


def test_array_jobs_tasks_and_steps(job_inventory: Inventory) -> None:
    whole = _resolve(job_inventory, "4250")
    assert set(whole.nodes) == set(NODES) and whole.state == "RUNNING" and whole.end is None
    task = _resolve(job_inventory, "4250_2")
    assert task.nodes == tuple(NODES[4:])
    step = _resolve(job_inventory, "4242.0")
    assert step.nodes == tuple(NODES) and step.name == "python"


def test_unknown_pending_and_malformed_jobs_are_clear(job_inventory: Inventory) -> None:
    with pytest.raises(NotFound, match="Slurm job 999 is not known on slurm-controller-001"):
        _resolve(job_inventory, "999")
    pending = _resolve(job_inventory, "4260")
    assert pending.nodes == () and pending.state == "PENDING"
    with pytest.raises(UsageError, match="has no nodes yet"):
        job_request(pending, job_inventory, DiagnoseRequest(hosts=""))
    for bad in ("12;reboot", "4242 --help", "abc", "1_2_3", ""):
        with pytest.raises(UsageError, match="is not a Slurm job id"):
            _resolve(job_inventory, bad)


def test_cli_names_the_odd_node_first(
    job_lab: fleet.Fleet, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = tmp_path / "policy.yaml"
    rule = {"name": "me", "users": [local_user()], "origins": ["cli"], "hosts": ["*"]}
    policy.write_text(yaml.safe_dump({"rules": [rule]}))
    args = ["--inventory", str(job_lab.inventory), "--db", str(tmp_path / "cli.db"), "--policy", str(policy)]
    code = cli.main(["diagnose", "--job", "4242", *args])
    lines = capsys.readouterr().out.splitlines()
    assert code == 10, lines  # causes confirmed on the odd node, every node checked
    assert lines[0].startswith("Slurm job 4242 train-llm (FAILED) on 8 node(s) h100-sxm5-healthy-[001-007],")
    assert lines[1].startswith("differs from its peers (1 of 8 hosts")
    odd = lines[2]
    assert odd.startswith("  job-odd-node-001 differs from 7 peers: ")
    for fact in (
        "torch 2.1.2+cu121 (peers 2.3.1+cu121)",
        "NCCL 2.18.1 (peers 2.20.5)",
        "PCIe Gen5 x8 on GPU2",
    ):
        assert fact in odd
    text = "\n".join(lines)
    assert "CONFIRMED    nccl-version-mismatch-across-nodes on 1 of 8 hosts: job-odd-node-001" in text
    assert "CONFIRMED    pcie-link-downtrained on 1 of 8 hosts: job-odd-node-001" in text
    assert lines[-3].startswith("summary: 8 host(s); confirmed: ")
    assert lines[-2] == "summary: differ from their peers: job-odd-node-001"
    code = cli.main(["diagnose", "--job", "4242", *args, "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["job"]["id"] == "4242" and doc["job"]["nodes"] == NODES and doc["until"]
    nccl = next(o for o in doc["outliers"] if o["fact"] == "nccl")
    assert nccl == {
        "fact": "nccl", "host": "job-odd-node-001", "value": "2.18.1", "peers": "2.20.5", "peer_count": 7,
        "numeric": False,
    }  # fmt: skip
    assert cli.main(["diagnose", "--job", "42;x", *args]) == 2
    assert "is not a Slurm job id" in capsys.readouterr().err

"""The lab's bastion chain: a host defined only in an ssh config (Include + Match), reached through
two real sshd jump hosts, with strict host keys at every hop."""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from pitstop.app.diagnose import DiagnoseRequest, diagnose
from pitstop.cli.lab import write_lab_policy
from pitstop.collectors import inventory, runner
from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.transport.ssh import Connector
from pitstop.kb.service import KnowledgeBase
from pitstop.lab import bastion, fleet, keys
from pitstop.lab.audit import read_audit
from pitstop.lab.scenario import SCENARIOS_DIR, load_all
from pitstop.lab.sshd import LabError, find_sshd

pytestmark = pytest.mark.lab


@pytest.fixture(scope="module")
def chain_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[fleet.Fleet]:
    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    state = tmp_path_factory.mktemp("chainlab")
    lab = fleet.up(load_all([SCENARIOS_DIR / "h100-sxm5-healthy"]), state, with_bastion=True)
    try:
        yield lab
    finally:
        fleet.down(state)


@pytest.fixture(scope="module")
def chain_inv(chain_lab: fleet.Fleet) -> Inventory:
    return inventory.load(chain_lab.inventory)


def _run(inv: Inventory, host: Host) -> runner.HostRun:
    async def go() -> runner.HostRun:
        connector = Connector(inv)
        try:
            return await runner.run_host(host, ["uname"], connector=connector, lanes=1)
        finally:
            await connector.close()

    return asyncio.run(go())


def test_the_chain_exists_only_in_the_ssh_config(chain_lab: fleet.Fleet, chain_inv: Inventory) -> None:
    listed = yaml.safe_load(chain_lab.inventory.read_text())
    assert not {h["name"] for h in listed["hosts"]} & set(bastion.NAMES)
    assert chain_lab.ssh_config is not None and "Include" in chain_lab.ssh_config.read_text()
    target = chain_inv.get(bastion.TARGET)
    assert target.groups == (inventory.CONFIG_GROUP,)
    assert [h.name for h in chain_inv.jump_chain(target)] == list(bastion.CHAIN)
    assert target.origins["jump"].endswith(f"{chain_lab.ssh_config}:5")  # in the Match block
    assert target.origins["address"].endswith("10-bastion.conf:9")  # from the included file
    ssh = shutil.which("ssh")
    assert ssh, "the real OpenSSH client is needed: apt-get install openssh-client"
    out = subprocess.run(  # the real client resolves the same chain from the same files
        [ssh, "-G", "-F", str(chain_lab.ssh_config), bastion.TARGET],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert f"proxyjump {','.join(bastion.CHAIN)}" in out and f"hostname {target.address}" in out


def test_diagnose_through_the_two_hop_chain(
    chain_lab: fleet.Fleet, chain_inv: Inventory, kb: KnowledgeBase
) -> None:
    report = asyncio.run(
        diagnose(
            DiagnoseRequest(hosts=bastion.TARGET, requester="U1", origin="console"),
            inventory=chain_inv,
            kb=kb,
        )
    )
    (host,) = report.hosts
    assert host.status == "ok", host.error
    assert any(c.collector == "nvidia_smi_q" and c.outcome == "ok" for c in host.commands)
    seen = {r.host for r in read_audit(chain_lab.audit_log)}
    assert bastion.TARGET in seen and not seen & set(bastion.CHAIN)  # hops only forward, run nothing


@pytest.mark.parametrize("hop", bastion.NAMES)
def test_a_changed_key_at_any_hop_is_refused_naming_the_hop(
    chain_lab: fleet.Fleet, chain_inv: Inventory, tmp_path: Path, hop: str
) -> None:
    h = chain_lab.host(hop)
    genuine = keys.known_hosts_line(h.address, h.port, chain_lab.host_key(hop).public_line)
    impostor = keys.ensure_key(tmp_path / "impostor", "impostor")
    kh = tmp_path / "known_hosts"
    kh.write_text(
        chain_lab.known_hosts.read_text().replace(
            genuine, keys.known_hosts_line(h.address, h.port, impostor.public_line)
        )
    )
    r = _run(replace(chain_inv, known_hosts=str(kh)), chain_inv.get(bastion.TARGET))
    assert r.status == "host_key_mismatch" and not r.commands
    assert f"host key for {hop} ({h.address}:{h.port}) has CHANGED" in str(r.error)
    assert keys.fingerprint(chain_lab.host_key(hop).public_line) in str(r.error)
    hops_before = bastion.NAMES[bastion.NAMES.index(hop) + 1 :]
    assert all(f"via jump host {name}" in str(r.error) for name in hops_before if name != bastion.TARGET)


def test_the_chain_is_enforced_and_needed(chain_lab: fleet.Fleet, chain_inv: Inventory) -> None:
    target = chain_inv.get(bastion.TARGET)
    skipping = _run(
        chain_inv, replace(target, jump=bastion.OUTER)
    )  # the outer hop forwards only to the inner
    assert skipping.status != "ok" and str(skipping.error).startswith(f"via jump host {bastion.OUTER}:")
    fleet.kill_host(chain_lab, bastion.INNER)
    r = _run(chain_inv, target)
    assert r.status == "unreachable" and str(r.error).startswith(f"via jump host {bastion.INNER}:")


def test_the_files_the_lab_writes_for_pitstop_are_its_users_alone(chain_lab: fleet.Fleet) -> None:
    """Inventory, policy and ssh config steer Pitstop, which refuses them when a shared group may write
    them: the lab writes them 0600 whatever the umask (002 gives 0664)."""
    old = os.umask(0o002)
    try:
        policy = write_lab_policy(chain_lab, "alice")
    finally:
        os.umask(old)
    assert chain_lab.ssh_config is not None
    written = [
        chain_lab.inventory,
        chain_lab.ssh_config,
        *chain_lab.ssh_config.parent.glob("ssh_config.d/*"),
        policy,
    ]
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in written} == {p.name: 0o600 for p in written}

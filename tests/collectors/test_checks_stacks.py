"""The software stacks a GPU job goes through, on real outputs: libnvidia-container against the host's
cgroup version, libibverbs against the RDMA ports the kernel lists, Slurm's GRES against the GPUs; and
the undersized-PSU entry's BMC events."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from pitstop.collectors.checks.registry import evaluate
from pitstop.collectors.model import CommandResult
from pitstop.collectors.parsers import ibv_devinfo, nvidia_container_cli, slurm
from pitstop.kb.schema import load_pitfalls
from tests.collectors.check_inputs import FIXTURES, check, context, failed, fixture, missing, ok

CLI = "outputs/nvidia-container-cli-version"
UNIFIED = "outputs/mount/grep-cgroup-unified-systemd-laptop.txt"
V1 = "outputs/mount/centos77-cgroup-v1-xfs.txt"
IBSTAT = "outputs/ibstat/h100-cx7-ib-400-plus-bf3-bond.txt"
NO_UVERBS = "ibv-devinfo-v-no-uverbs-dev-container.txt"
NO_PROVIDER = (  # libibverbs' own wording (rdma-core) when a uverbs device has no provider library
    "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0\n"
    "No IB devices found\n"
)


def test_the_cli_version_parser_reads_both_layouts() -> None:
    def version(name: str) -> str | None:
        return nvidia_container_cli.parse((FIXTURES / CLI / name).read_text(encoding="utf-8")).version

    assert version("1.0.7-ubuntu-gcc7.txt") == "1.0.7"
    assert version("1.3.2-debian-testing-cgroup-v2-host.txt") == "1.3.2"
    assert version("cli-lib-1.13.5-rtx3080ti-laptop.txt") == "1.13.5"
    assert nvidia_container_cli.parse("cli-version: 1.17.5\nlib-version: 1.17.4\n").version == "1.17.4"
    assert nvidia_container_cli.parse("nvidia-container-cli: command not found\n").version is None


def test_old_libnvidia_container_on_cgroup_v2_is_confirmed() -> None:
    unified = fixture("mount", UNIFIED)
    old = fixture("nvidia_container_cli", f"{CLI}/1.3.2-debian-testing-cgroup-v2-host.txt")
    verdict = check("toolkit_cgroup_v2", unified, old)
    assert (
        verdict.verdict == "confirmed" and "1.3.2" in str(verdict.reason) and "1.8.0" in str(verdict.reason)
    )
    assert [e.lines for e in verdict.evidence] == [
        ("cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0",),
        ("version: 1.3.2",),
    ]
    new = fixture("nvidia_container_cli", f"{CLI}/cli-lib-1.13.5-rtx3080ti-laptop.txt")
    assert check("toolkit_cgroup_v2", unified, new).verdict == "ruled_out"


def test_cgroup_v1_rules_out_and_unknowns_stay_inconclusive() -> None:
    old = fixture("nvidia_container_cli", f"{CLI}/1.0.7-ubuntu-gcc7.txt")
    v1 = check("toolkit_cgroup_v2", fixture("mount", V1), old)
    assert v1.verdict == "ruled_out" and "/sys/fs/cgroup/devices" in str(v1.reason)
    unified = fixture("mount", UNIFIED)
    gone = check("toolkit_cgroup_v2", unified, missing("nvidia_container_cli"))  # no tool: not confirmed
    assert gone.verdict == "inconclusive" and "not installed" in str(gone.reason)
    assert check("toolkit_cgroup_v2", old).verdict == "inconclusive"  # mounts not read
    shm_only = ok("mount", "tmpfs /dev/shm tmpfs rw,nosuid,nodev 0 0\n")
    assert check("toolkit_cgroup_v2", shm_only, old).verdict == "inconclusive"  # a cut listing


def test_ibv_devinfo_failures_are_read_as_facts() -> None:
    text = (FIXTURES / NO_UVERBS).read_text(encoding="utf-8")
    assert ibv_devinfo.parse(text).no_devices == "Failed to get IB devices list: Function not implemented"
    parsed = ibv_devinfo.parse(NO_PROVIDER)
    assert parsed.no_devices == "No IB devices found" and len(parsed.warnings) == 1 and not parsed.ports


def test_kernel_ports_without_verbs_devices_are_confirmed() -> None:
    ports = fixture("ibstat", IBSTAT)
    no_uverbs = failed("ibv_devinfo", (FIXTURES / NO_UVERBS).read_text(encoding="utf-8"), 255)
    verdict = check("rdma_verbs_userspace", ports, no_uverbs)
    assert verdict.verdict == "confirmed", verdict.reason
    assert verdict.evidence[-1].lines == ("Failed to get IB devices list: Function not implemented",)
    no_provider = check("rdma_verbs_userspace", ports, failed("ibv_devinfo", NO_PROVIDER, 255))
    assert no_provider.verdict == "confirmed" and no_provider.evidence[-1].lines[-1] == "No IB devices found"


def test_working_verbs_missing_tools_and_abi_warnings_are_inconclusive(shared_dir: Path) -> None:
    ports = fixture("ibstat", IBSTAT)
    verbs = shared_dir / "outputs" / "ibv_devinfo" / "mlx4-two-hcas-port2-down.txt"
    host_ok = check("rdma_verbs_userspace", ports, ok("ibv_devinfo", verbs.read_text(encoding="utf-8")))
    assert host_ok.verdict == "inconclusive" and "container image" in str(host_ok.reason)
    absent = check("rdma_verbs_userspace", ports, missing("ibv_devinfo"))  # the tool is not the library
    assert absent.verdict == "inconclusive" and "not installed" in str(absent.reason)
    abi = failed(
        "ibv_devinfo",
        "libibverbs: Warning: Driver mlx5 does not support the kernel ABI of 1 (supports 2 to 2) for device"
        " /sys/class/infiniband/mlx5_0\nNo IB devices found\n",
        255,
    )
    assert check("rdma_verbs_userspace", ports, abi).verdict == "inconclusive"  # a version mismatch
    no_ports = ok("ibstat", "CA 'mlx5_0'\n\tCA type: MT4129\n\tNumber of ports: 0\n")
    assert (
        check("rdma_verbs_userspace", no_ports, failed("ibv_devinfo", NO_PROVIDER, 255)).verdict
        == "inconclusive"
    )


NODE = "outputs/scontrol-show-node"


def gpus(n: int) -> CommandResult:
    """The NVML probe's answer for a host with `n` GPUs."""
    rows = [{"index": i, "name": "NVIDIA GeForce RTX 3090", "uuid": f"GPU-{i}"} for i in range(n)]
    return ok("nvml_probe", json.dumps({"probe": "pitstop-nvml", "source": "nvml", "gpus": rows, "jobs": []}))


def test_the_node_parser_reads_gres_state_and_reason() -> None:
    text = (FIXTURES / NODE / "idle-drain-gres-gpu-count-lower-rtx3090.txt").read_text(encoding="utf-8")
    node = slurm.parse_node(text).nodes[0]
    assert (node.name, node.gres, node.gpus, node.state) == (
        "yigou-dev-102-68",
        "gpu:nvidia-rtx-3090:1",
        1,
        "IDLE+DRAIN",
    )
    assert node.reason == "gres/gpu count reported lower than configured (0 < 1) [slurm@2024-12-19T11:03:34]"
    one_line = slurm.parse_node("NodeName=g1 Gres=gpu:a100:4(S:0),gpu:v100:2,mps:400 State=MIXED Reason=None")
    assert one_line.nodes[0].gpus == 6 and one_line.nodes[0].reason is None
    assert slurm.parse_node("Node g9 not found\n").error == "Node g9 not found"


def test_a_gres_drain_reason_or_a_count_that_differs_is_confirmed() -> None:
    drained = fixture("slurm_node", f"{NODE}/idle-drain-gres-gpu-count-lower-rtx3090.txt")
    verdict = check("slurm_gpu_gres", drained)  # the reason alone decides, without counting GPUs
    assert verdict.verdict == "confirmed" and "count reported lower" in str(verdict.reason)
    l4 = fixture("slurm_node", f"{NODE}/gke-l4-gres-excerpt.txt")
    differs = check("slurm_gpu_gres", l4, gpus(2))
    assert differs.verdict == "confirmed" and "1" in str(differs.reason) and "2" in str(differs.reason)
    no_gres = ok("slurm_node", "NodeName=g1 Arch=x86_64 Gres=(null) State=IDLE\n")
    assert check("slurm_gpu_gres", no_gres, gpus(8)).verdict == "confirmed"


def test_a_count_of_mig_slices_is_not_read_as_a_misconfiguration() -> None:
    # Held-out shapes (records written after the parser, in the forms real MIG nodes print): MIG
    # profile types in Gres, and a CfgTRES whose typed counts do not add up to its gres/gpu total.
    mig = "NodeName=m1 Gres=gpu:a100_3g.20gb:4(S:0),gpu:a100_1g.5gb:8(S:1) State=MIXED"
    rollup = "NodeName=m2 State=MIXED CfgTRES=cpu=192,mem=2060000M,gres/gpu=16,gres/gpu:nvidia_b200=4"
    for text, configured in ((mig, 12), (rollup, 16)):
        node = slurm.parse_node(text).nodes[0]
        assert node.gpus == configured and node.sliced
        verdict = check("slurm_gpu_gres", ok("slurm_node", text + "\n"), gpus(4))
        assert verdict.verdict == "inconclusive" and "MIG" in str(verdict.reason)
    boards = "NodeName=g2 State=IDLE CfgTRES=cpu=32,gres/gpu=4,gres/gpu:a100=4"
    assert not slurm.parse_node(boards).nodes[0].sliced
    assert check("slurm_gpu_gres", ok("slurm_node", boards + "\n"), gpus(2)).verdict == "confirmed"


def test_agreeing_counts_and_unknowns_are_inconclusive() -> None:
    l4 = fixture("slurm_node", f"{NODE}/gke-l4-gres-excerpt.txt")
    agrees = check("slurm_gpu_gres", l4, gpus(1))
    assert agrees.verdict == "inconclusive" and "ConstrainDevices" in str(agrees.reason)
    assert check("slurm_gpu_gres", l4).verdict == "inconclusive"  # GPUs not counted
    assert check("slurm_gpu_gres", missing("slurm_node"), gpus(8)).verdict == "inconclusive"
    unknown = failed("slurm_node", "Node gpu-node-3 not found\n")
    assert check("slurm_gpu_gres", unknown, gpus(8)).verdict == "inconclusive"


def test_the_psu_entry_confirms_over_current_events_only(shared_dir: Path) -> None:
    entries = {p.id: p for p in load_pitfalls()}
    small, failed_psu = entries["psu-insufficient-for-gpu-load"], entries["psu-failure-redundancy-lost"]
    ctx = context(since=datetime(2026, 2, 20, tzinfo=UTC))
    over = ok(  # ipmitool's wording of a current sensor's upper-critical threshold event
        "ipmi_sel",
        "  41 | 02/28/2026 | 23:41:07 | Current PS1 Curr Out | Upper Critical going high | Asserted\n"
        "  42 | 02/28/2026 | 23:41:08 | Power Unit Pwr Unit Status | Power off/down | Asserted\n",
    )
    verdict = evaluate(small, {"ipmi_sel": over}, ctx)
    assert verdict.verdict == "confirmed" and "Upper Critical" in verdict.evidence[0].lines[0]
    assert evaluate(failed_psu, {"ipmi_sel": over}, ctx).verdict != "confirmed"  # a supply that failed
    ac_lost = ok(
        "ipmi_sel",
        (shared_dir / "outputs" / "ipmitool-sel" / "sel-list-2014-ps1-ac-lost-excerpt.txt").read_text(),
    )
    quiet = evaluate(small, {"ipmi_sel": ac_lost}, context(since=datetime(2014, 6, 1, tzinfo=UTC)))
    assert quiet.verdict == "inconclusive"  # a lost feed is the other entry's; no event is no proof


def test_the_ups_entry_does_not_read_a_host_power_off_as_unstable_input() -> None:
    """A Power Unit 'Power off/down' is the host switched off (ipmitool, FreeIPMI wordings)."""
    ups = {p.id: p for p in load_pitfalls()}["ups-input-voltage-fluctuation"]
    for name, year, month in (
        ("elist-power-unit-power-off-down-asserted-deasserted-excerpt.txt", 2019, 11),
        ("freeipmi-host-power-off-nominal-sel-cleared-excerpt.txt", 2020, 3),
    ):
        sel = fixture("ipmi_sel", f"outputs/ipmitool-sel/{name}")
        ctx = context(since=datetime(year, month, 1, tzinfo=UTC))
        assert evaluate(ups, {"ipmi_sel": sel}, ctx).verdict != "confirmed", name
    lost = ok("ipmi_sel", " 7 | 02/28/2026 | 23:41:07 | Power Supply #0x63 | Power Supply AC lost | Asserted")
    ctx = context(since=datetime(2026, 2, 20, tzinfo=UTC))
    assert evaluate(ups, {"ipmi_sel": lost}, ctx).verdict == "confirmed"


def test_the_ups_entry_reads_ipmitools_input_out_of_range_wording() -> None:
    """ipmitool words Power Supply offset 05h 'AC out-of-range, but present'; FreeIPMI says 'input'."""
    ups = {p.id: p for p in load_pitfalls()}["ups-input-voltage-fluctuation"]
    ctx = context(since=datetime(2026, 2, 20, tzinfo=UTC))
    for event in ("AC out-of-range, but present", "AC lost or out-of-range"):
        sel = ok("ipmi_sel", f" 9 | 02/28/2026 | 23:41:07 | Power Supply PS2 Status | {event} | Asserted")
        assert evaluate(ups, {"ipmi_sel": sel}, ctx).verdict == "confirmed", event

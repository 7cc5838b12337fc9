"""Real outputs of round 5 (tests/fixtures/outputs, sources in its INDEX.md): what Pitstop reads in them."""

from __future__ import annotations

from pitstop.collectors.parsers import ipmi_sensor, nvidia_smi, nvidia_smi_q
from pitstop.collectors.parsers.gpu import short_bus_id
from pitstop.core.i18n import render
from tests.collectors.check_inputs import check, context, fixture, ok


def test_topo_header_run_together_is_not_a_row() -> None:
    """DGX-1 `topo -m` pasted with the GPU names of its header run together ("GPU0GPU1...mlx5_0"):
    GPU0's row must not become the column names, or every GPU reads as far from every NIC although
    each has a PIX one (it confirmed gpu-nic-cross-numa for GPU1-GPU7)."""
    topo = fixture(
        "nvidia_smi_topo", "outputs/nvidia-smi-topo-m/soc-dgx1-8gpu-nv1-4nic-header-names-run-together.txt"
    )
    assert check("gpu_nic_numa", topo).verdict == "inconclusive"
    # the same generation's outputs with a readable header: `SOC` (the pre-R384 name of SYS) is far
    for name, far in {
        "soc-4gpu-k80-mlx5-0-nimbix-two-far.txt": "GPU0, GPU1",
        "soc-4gpu-k80-mlx4-0-unindented-legend.txt": "GPU0, GPU1",
        "soc-8gpu-p40-mlx5-0-all-soc-tabs.txt": "GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6, GPU7",
    }.items():
        verdict = check("gpu_nic_numa", fixture("nvidia_smi_topo", f"outputs/nvidia-smi-topo-m/{name}"))
        assert verdict.verdict == "confirmed", name
        assert far in str(verdict.reason), name


def test_xid_gpus_in_other_pci_domains_stay_apart() -> None:
    """GB200 kernel log (gpud's kmsg test cases): Xid 149/154 on bus 01:00 of domains 0008, 0009, 0018
    and 0019 are four GPUs; the reason named one ("on PCI 01:00"), and an Xid on one of them counted as
    the cause of another GPU's Xid."""
    log = fixture("kernel_log", "outputs/dmesg/xid-149-netir-154-recovery-gb200-testcases.txt")
    verdict = check("kernel_log_match", log, params={"xid": [154]}, ctx=context())
    assert verdict.verdict == "confirmed"
    assert render(verdict.reason, "en").endswith("on PCI 0008:01:00, 0009:01:00, 0018:01:00, 0019:01:00")
    # a lone Xid on 0008:01:00 is not explained by an Xid 154 logged for 0009:01:00 only
    lines = log.stdout.splitlines()
    mine = [line for line in lines if "(PCI:0008:01:00): 149" in line][:1]
    other = [line for line in lines if "(PCI:0009:01:00): 154" in line][:1]
    mixed = ok("kernel_log", "\n".join(other + mine) + "\n")
    params = {"xid": [149], "unless_xid": [154]}
    assert check("kernel_log_match", mixed, params=params, ctx=context()).verdict == "confirmed"
    # domain 0 keeps the short form the rest of Pitstop shows ("3b:00")
    assert short_bus_id("PCI:0000:3b:00") == "3b:00"
    assert short_bus_id("00000009:01:00.0") == short_bus_id("PCI:0009:01:00") == "0009:01:00"


def test_round5_outputs_read_right() -> None:
    """Outputs of this round that Pitstop already read right, kept so they stay read right."""
    laptop = fixture(
        "nvidia_smi_q", "outputs/nvidia-smi-q/rtx5080-laptop-580.173-tlimit-temps-remapped-rows-na.txt"
    )
    gpu = nvidia_smi_q.parse(laptop.stdout).gpus[0]
    # 'GPU Slowdown T.Limit Temp : -2 C' is a margin below the T.Limit, not a slowdown temperature
    assert (gpu.temperature_c, gpu.slowdown_temp_c, gpu.remap_pending) == (49.0, None, None)
    assert check("gpu_temperature", laptop, params={"above_c": 85}).verdict == "ruled_out"
    assert check("gpu_remapped_rows", laptop, params={"state": "pending"}).verdict == "inconclusive"
    a100 = fixture(
        "nvidia_smi_q", "outputs/nvidia-smi-q/a100-sxm4-80gb-510.73-remap-pending-dram-177-excerpt.txt"
    )
    assert check("gpu_remapped_rows", a100, params={"state": "pending"}).verdict == "confirmed"
    assert check("gpu_remapped_rows", a100, params={"state": "failure"}).verdict == "ruled_out"
    table = nvidia_smi.parse(
        fixture("nvidia_smi", "outputs/nvidia-smi/rtx4000ada-fan-err-no-space-after-bar-excerpt.txt").stdout
    )
    assert [(row.index, row.errors, row.temperature_c) for row in table.gpus] == [
        (13, (), 33.0),
        (14, ("fan",), 68.0),
    ]
    fan = ipmi_sensor.parse(
        fixture("ipmi_sensor", "outputs/ipmitool-sensor/grep-fana-decimal-comma-locale.txt").stdout
    )
    assert [(s.name, s.value, s.status) for s in fan.sensors] == [("FANA", 900.0, "ok")]


def test_ib_rate_without_an_active_port_says_so() -> None:
    """ibstat of a ConnectX-7 whose one port is Down/Polling (gpud PR 482) and of 12 RoCE ports: there is
    no active InfiniBand port, so no rate to judge; the reason said an active port's rate was not shown."""
    for name in (
        "cx7-mlx5-10-down-polling-rate-10-guids-masked.txt",
        "h100-cx7-roce-two-ports-down-disabled.txt",
    ):
        verdict = check("ib_rate", fixture("ibstat", f"outputs/ibstat/{name}"))
        assert verdict.verdict == "inconclusive", name
        assert "no active InfiniBand port" in render(verdict.reason, "en"), name
        assert "没有" in render(verdict.reason, "zh"), name


def test_show_gids_ipv6_only_roce_v2_is_not_unroutable() -> None:
    """show_gids on an MI355 host (Mooncake issue 1617): every RoCE v2 GID is an IPv6 ULA (fd93:...), none
    IPv4. Such GIDs route between subnets; it confirmed roce-gid-index-wrong as 'no RoCE v2 GID with an
    IPv4 address: traffic cannot be routed between subnets'."""
    gids = fixture("show_gids", "outputs/show_gids/mi355-rocep-ipv6-only-v2-spaces-excerpt.txt")
    verdict = check("roce_gid_index", gids)
    assert verdict.verdict == "inconclusive"
    assert "IPv6" in render(verdict.reason, "en") and "IPv6" in render(verdict.reason, "zh")
    # the pod with no GID at all stays confirmed
    empty = fixture("show_gids", "outputs/show_gids/pod-calico-no-gids-found-0.txt")
    assert check("roce_gid_index", empty).verdict == "confirmed"


def test_storcli_cachevault_table_alone_is_storcli_output() -> None:
    """A storcli Cachevault_Info table with 'CVPM02 Failed' and no VD rows (a disk-replacement runbook)
    read as 'no RAID controller CLI output: megacli was not collected'; a failed CacheVault is read."""
    cv = fixture("storcli", "outputs/storcli/cv-show-status-cvpm02-failed-cut.txt")
    bbu = check("raid_bbu", cv)
    assert bbu.verdict == "confirmed"
    assert any("CVPM02 Failed" in line for e in bbu.evidence for line in e.lines)
    assert check("raid_vd_state", cv).verdict == "inconclusive"  # no VD row: nothing to rule out

"""Every parser against every matching real output in ../shared/outputs: no crash, and the labelled facts."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pitstop.collectors.parsers import (
    cmdline,
    cpupower,
    dcgmi_diag,
    df,
    docker_info,
    driver_version,
    ethtool,
    fabricmanager,
    ibstat,
    ibv_devinfo,
    ip_link,
    ipmi_sel,
    ipmi_sensor,
    kernel_log,
    lsblk,
    lscpu,
    lspci,
    megacli,
    mount,
    numactl,
    nvcc,
    nvidia_ctk,
    nvidia_smi,
    nvidia_smi_q,
    nvlink,
    os_release,
    query_gpu,
    storcli,
    topo,
    torch_version,
    uname,
)
from tests.conftest import SHARED

# ../shared/outputs folder -> the parser for it.
FOLDERS: dict[str, Callable[[str], Any]] = {
    "cpupower": cpupower.parse,
    "dcgmi-diag": dcgmi_diag.parse,
    "df-h": df.parse,
    "dmesg": kernel_log.parse,
    "docker-info": docker_info.parse,
    "ethtool-i": ethtool.parse,
    "fabricmanager-log": fabricmanager.parse_log,
    "ibstat": ibstat.parse,
    "ibv_devinfo": ibv_devinfo.parse,
    "ip-link": ip_link.parse,
    "ipmitool-sel": ipmi_sel.parse,
    "ipmitool-sensor": ipmi_sensor.parse,
    "journalctl-k": kernel_log.parse,
    "lsblk": lsblk.parse,
    "lscpu": lscpu.parse,
    "lspci-vv": lspci.parse,
    "megacli": megacli.parse,
    "mount": mount.parse,
    "numactl-H": numactl.parse,
    "nvcc-version": nvcc.parse,
    "nvidia-ctk-version": nvidia_ctk.parse,
    "nvidia-smi": nvidia_smi.parse,
    "nvidia-smi-errors": nvidia_smi.parse,
    "nvidia-smi-nvlink": nvlink.parse,
    "nvidia-smi-q": nvidia_smi_q.parse,
    "nvidia-smi-q-d": nvidia_smi_q.parse,
    "nvidia-smi-query-gpu": query_gpu.parse,
    "nvidia-smi-topo-m": topo.parse,
    "os-release": os_release.parse,
    "proc-cmdline": cmdline.parse,
    "proc-driver-nvidia-version": driver_version.parse,
    "storcli": storcli.parse,
    "systemctl-status-fabricmanager": fabricmanager.parse_status,
    "torch-version": torch_version.parse,
    "uname-a": uname.parse,
}
EMPTY_ON_PURPOSE = {"nvidia-smi-nvlink/a10-nvlink-status-empty.txt"}  # 0 bytes: a GPU without NVLink
OUTPUTS = (
    sorted(str(p.relative_to(SHARED / "outputs")) for p in (SHARED / "outputs").glob("*/*") if p.is_file())
    if (SHARED / "outputs").is_dir()
    else []
)
NOW = datetime(2026, 3, 1, tzinfo=UTC)


NEW = Path(__file__).resolve().parents[1] / "fixtures" / "outputs"


def parse_new(rel: str) -> Any:
    """Parse one of tests/fixtures/outputs with its folder's parser."""
    return FOLDERS[rel.split("/")[0]]((NEW / rel).read_bytes().decode("utf-8", "replace"))


def read(shared_dir: Path, rel: str) -> str:
    """A corpus file as the runner would hand it over (invalid bytes replaced)."""
    return (shared_dir / "outputs" / rel).read_bytes().decode("utf-8", "replace")


def parse(shared_dir: Path, rel: str) -> Any:
    """Parse one corpus file with its folder's parser."""
    return FOLDERS[rel.split("/")[0]](read(shared_dir, rel))


def test_every_folder_has_a_parser(shared_dir: Path) -> None:
    folders = {p.name for p in (shared_dir / "outputs").iterdir() if p.is_dir()}
    assert folders == set(FOLDERS)
    assert len(OUTPUTS) >= 138


@pytest.mark.parametrize("rel", OUTPUTS)
def test_parses_every_real_output(shared_dir: Path, rel: str) -> None:
    result = parse(shared_dir, rel)
    empty = result == type(result)()
    assert empty == (rel in EMPTY_ON_PURPOSE), f"{rel}: parsed to nothing"


@pytest.mark.parametrize("rel", OUTPUTS)
def test_truncated_and_mangled_outputs_do_not_raise(shared_dir: Path, rel: str) -> None:
    text = read(shared_dir, rel)
    parser = FOLDERS[rel.split("/")[0]]
    for cut in (len(text) // 3, len(text) // 2 + 7, len(text) - 1):
        parser(text[:cut])
    parser(text.replace("\n", "\r\n").replace(":", "\x1b[1m:\x1b[0m", 5) + "\ufffd\x00garbage")


@settings(max_examples=25, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("GPU :|\t\n0123456789abx./-()[]=NVRMXidLnkSta%'\""))))
def test_parsers_never_raise_on_garbage(text: str) -> None:
    for parser in {*FOLDERS.values(), fabricmanager.parse_status}:
        parser(text)


# --- nvidia-smi -q -------------------------------------------------------------------------------


def test_smi_q_a100_row_remap_pending(shared_dir: Path) -> None:
    q = parse(shared_dir, "nvidia-smi-q/a100-510-row-remap-pending-excerpt.txt")
    assert (q.driver_version, q.cuda_version, q.attached_gpus) == ("510.73.08", "11.6", 8)
    gpu = q.gpus[0]
    assert gpu.name == "NVIDIA A100-SXM4-80GB" and gpu.bus_id == "00000000:10:1C.0"
    assert (gpu.remap_correctable, gpu.remap_uncorrectable, gpu.remap_pending, gpu.remap_failure) == (
        1,
        0,
        True,
        False,
    )
    assert (gpu.ecc_volatile_corrected, gpu.ecc_aggregate_corrected, gpu.ecc_volatile_uncorrected) == (
        177,
        177,
        0,
    )
    assert (
        gpu.retired_sbe is None and gpu.retired_pending is None
    )  # N/A on row-remapping GPUs: unknown, not 0
    assert gpu.temperature_c is None  # elided by the poster: unknown, not 0
    assert "Pending" in gpu.lines["remap_pending"]


def test_smi_q_h100_under_load(shared_dir: Path) -> None:
    gpu = parse(shared_dir, "nvidia-smi-q/h100-590-load.txt").gpus[0]
    assert (gpu.temperature_c, gpu.power_draw_w, gpu.power_limit_w, gpu.max_power_limit_w) == (
        59,
        629.45,
        700,
        700,
    )
    assert (gpu.pcie_gen_current, gpu.pcie_gen_max, gpu.pcie_width_current, gpu.pcie_width_max) == (
        5,
        5,
        16,
        16,
    )
    assert gpu.persistence_mode is True and gpu.mig_mode == "Disabled" and gpu.compute_mode == "Default"
    assert gpu.active_clock_events == ()
    assert [p.pid for p in gpu.processes] == [11327, 11328, 11345] and gpu.processes[2].used_mib == 15690
    assert gpu.vbios_version == "96.00.A5.00.01" and gpu.recovery_action == "None"


def test_smi_q_variants(shared_dir: Path) -> None:
    assert parse(shared_dir, "nvidia-smi-q/h100-mig-590-idle.txt").gpus[0].mig_mode == "Enabled"
    rtx = parse(shared_dir, "nvidia-smi-q/rtx4090x8-535-sw-power-cap.txt")
    assert len(rtx.gpus) == 8
    assert sum("sw_power_cap" in g.active_clock_events for g in rtx.gpus) == 2
    assert parse(shared_dir, "nvidia-smi-q/titanv-560-idle.txt").gpus[0].active_clock_events == ("gpu_idle",)
    consumer = parse(shared_dir, "nvidia-smi-q/rtx4080s-595-idle.txt").gpus[0]
    assert consumer.ecc_volatile_uncorrected is None and consumer.mig_mode == "N/A"  # no MIG on GeForce
    truncated = parse(shared_dir, "nvidia-smi-q/h100-535-truncated.txt")
    assert truncated.driver_version == "535.183.01" and truncated.gpus[0].name == "NVIDIA H100 80GB HBM3"


def test_smi_q_section_fragments(shared_dir: Path) -> None:
    ecc = parse(shared_dir, "nvidia-smi-q-d/ecc-errors-section-sram-uncorrectable.txt").gpus[0]
    assert (ecc.ecc_volatile_uncorrected, ecc.ecc_aggregate_uncorrected) == (1, 5)
    old = parse(shared_dir, "nvidia-smi-q-d/grep-clocks-throttle-reasons-2018.txt").gpus[0]
    assert old.clock_events == {
        "gpu_idle": True,
        "applications_clocks_setting": False,
        "sw_power_cap": False,
        "hw_slowdown": False,
        "hw_thermal_slowdown": False,
        "hw_power_brake_slowdown": False,
        "sync_boost": False,
        "sw_thermal_slowdown": False,
    }
    remap = parse(shared_dir, "nvidia-smi-q-d/row-remapper-uncorrectable-pending-wide-columns.txt").gpus[0]
    assert (remap.bus_id, remap.remap_uncorrectable, remap.remap_pending) == ("00000000:55:00.0", 1, True)


# --- nvidia-smi table and its errors ------------------------------------------------------------


def test_smi_table_two_gpus_in_error(shared_dir: Path) -> None:
    table = parse(shared_dir, "nvidia-smi/a100-pcie-595-two-gpus-err.txt")
    assert (table.driver_version, table.cuda_version, len(table.gpus)) == ("595.71.05", "13.2", 4)
    first, lost = table.gpus[0], table.gpus[2]
    assert (first.temperature_c, first.power_draw_w, first.power_cap_w, first.utilization_pct) == (
        70,
        302,
        300,
        100,
    )
    assert set(lost.errors) >= {"fan", "mig"} and lost.power_draw_w is None and lost.ecc_uncorrected is None
    assert table.processes[0][1].name == "VLLM::EngineCore" and table.processes[0][1].used_mib == 69608


def test_smi_table_variants(shared_dir: Path) -> None:
    mig = parse(shared_dir, "nvidia-smi/h200-mig-590-load.txt")
    assert mig.gpus[0].mig_mode == "Enabled" and len(mig.processes) == 3
    fan = parse(shared_dir, "nvidia-smi/rtx4090-525-fan-err-truncated.txt").gpus[0]
    assert fan.errors == ("fan",) and fan.compute_mode == "E. Process"
    v100 = parse(shared_dir, "nvidia-smi/v100-pcie-560-under-dcgm-stress-container.txt")
    assert v100.processes == () and v100.gpus[0].power_draw_w == 239
    assert len(parse(shared_dir, "nvidia-smi/quadro-rtx8000x10-470-idle.txt").gpus) == 10
    windows = parse(shared_dir, "nvidia-smi/windows-rtx2080s-591-idle.txt")
    assert windows.driver_version == "591.86"
    assert (
        parse(shared_dir, "nvidia-smi/rtx2080s-610-load.txt").driver_version == "610.57.04"
    )  # "KMD Version"


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("nvidia-smi-errors/couldnt-communicate-one-line.txt", "no_driver"),
        ("nvidia-smi-errors/couldnt-communicate-two-lines-curly-quote.txt", "no_driver"),
        ("nvidia-smi-errors/no-devices-were-found.txt", "no_devices"),
        ("nvidia-smi-errors/nvml-mismatch-with-nvml-version-line.txt", "version_mismatch"),
    ],
)
def test_smi_error_texts(shared_dir: Path, rel: str, kind: str) -> None:
    table = parse(shared_dir, rel)
    assert table.gpus == () and table.error is not None and table.error.kind == kind
    if kind == "version_mismatch":
        assert table.error.nvml_library_version == "570.124"


def test_smi_table_jetson_integrated_gpu() -> None:
    # Jetson's nvgpu has no PCI bus id and no persistence mode: `|   0  Orin (nvgpu)   N/A  | N/A   N/A |`
    table = parse_new("nvidia-smi/jetson-agx-orin-540.4.0-nvgpu-all-na-excerpt.txt")
    (orin,) = table.gpus
    assert (table.driver_version, orin.index, orin.name, orin.bus_id, orin.persistence_mode) == (
        "540.4.0",
        0,
        "Orin (nvgpu)",
        None,
        None,
    )
    assert orin.temperature_c is None and orin.errors == ()


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("nvidia-smi-errors/gpu-is-lost-reboot-0000-02.txt", "gpu_lost"),
        ("nvidia-smi-errors/gpu-is-lost-windows-console-wrapped.txt", "gpu_lost"),
        ("nvidia-smi-errors/device-handle-unknown-error-0b.txt", "device_handle_error"),
        ("nvidia-smi-errors/device-handle-unknown-error-no-space-tesla-p4.txt", "device_handle_error"),
    ],
)
def test_device_handle_errors(rel: str, kind: str) -> None:
    table = parse_new(rel)
    assert table.gpus == () and table.error is not None and table.error.kind == kind


# --- topology and NVLink ------------------------------------------------------------------------


def test_topology(shared_dir: Path) -> None:
    dgx = parse(shared_dir, "nvidia-smi-topo-m/dgx-a100-8gpu-12nic-470.txt")
    assert len(dgx.gpus) == 8 and len(dgx.nics) == 12
    assert dgx.nvlinks_between("GPU0", "GPU7") == 12
    assert [g.numa_node for g in dgx.gpus] == [3, 3, 1, 1, 7, 7, 5, 5]  # header lacks "NUMA Affinity"
    assert dgx.gpus[0].cpu_affinity == "48-63,176-191" and dgx.gpus[0].links["mlx5_0"] == "PXB"
    pcie = parse(shared_dir, "nvidia-smi-topo-m/dgx1-v100-topo-mp-pcie-only.txt")
    assert pcie.nvlinks_between("GPU0", "GPU1") == 0 and pcie.gpus[4].numa_node == 1
    single = parse(shared_dir, "nvidia-smi-topo-m/h100-single-590-ansi.txt")
    assert [(g.name, g.cpu_affinity, g.numa_node) for g in single.gpus] == [("GPU0", "0-19", 0)]


def test_nvlink_status(shared_dir: Path) -> None:
    a100 = parse(shared_dir, "nvidia-smi-nvlink/a100x8-nvlink-status.txt")
    assert len(a100.gpus) == 8 and all(len(g.links) == 12 for g in a100.gpus)
    assert {(link.state, link.speed_gbps) for g in a100.gpus for link in g.links} == {("up", 25.0)}
    down = parse(shared_dir, "nvidia-smi-nvlink/dcgmi-nvlink-link-status-all-down-h100.txt")
    assert [len(g.links) for g in down.gpus] == [18, 18]
    assert {link.state for g in down.gpus for link in g.links} == {"down"}
    h100 = parse(shared_dir, "nvidia-smi-nvlink/h100-590-nvlink-s.txt").gpus[0]
    assert len(h100.links) == 18 and h100.links[17].speed_gbps == 26.562 and h100.uuid.startswith("GPU-")
    assert parse(shared_dir, "nvidia-smi-nvlink/l40s-595-nvlink-s-unsupported.txt").gpus[0].supported is False
    b200 = nvlink.parse((NEW / "nvidia-smi-nvlink/b200-gpu2-all-links-inactive-uuid-masked.txt").read_text())
    assert [(g.index, g.links, bool(g.all_inactive)) for g in b200.gpus] == [(2, (), True)]
    assert parse(shared_dir, "nvidia-smi-nvlink/a10-nvlink-status-empty.txt").gpus == ()


def test_smi_q_fabric(shared_dir: Path) -> None:
    hgx = parse_new("nvidia-smi-q/h100x8-535.161-hw-slowdown-power-brake-all.txt").gpus
    assert {(g.fabric_state, g.fabric_status) for g in hgx} == {("Completed", "Success")} and len(hgx) == 8
    vm = parse(shared_dir, "nvidia-smi-q/h100-590-load.txt").gpus[0]
    assert (vm.fabric_clique_id, vm.fabric_cluster_uuid) == ("0", "00000000-0000-0000-0000-000000000000")
    pending = parse_new("nvidia-smi-q-d/fabric-in-progress-580.159-gpu-operator-excerpt.txt").gpus[0]
    assert (pending.fabric_state, pending.fabric_status, pending.fabric_clique_id) == (
        "In Progress",
        None,
        None,
    )
    refused = parse_new("nvidia-smi-q-d/fabric-completed-insufficient-resources-excerpt.txt").gpus[0]
    assert (refused.fabric_state, refused.fabric_status) == ("Completed", "Insufficient Resources")
    clique = parse_new("nvidia-smi-q-d/grep-fabric-completed-success-health-unhealthy.txt").gpus[0]
    assert (clique.fabric_clique_id, clique.fabric_cluster_uuid) == (
        "2",
        "dc6e40c4-d722-4357-9ba6-5291dd461278",
    )
    pcie = parse_new("nvidia-smi-q/l40s-595-idle.txt").gpus[0]
    assert (pcie.fabric_state, pcie.fabric_status) == (None, None)  # N/A


def test_driver_version(shared_dir: Path) -> None:
    stale = parse(shared_dir, "proc-driver-nvidia-version/470.103-stale-module-centos7.txt")
    assert (stale.version, stale.branch, stale.open_module) == ("470.103.01", 470, False)
    opened = parse(shared_dir, "proc-driver-nvidia-version/open-515.57-gcc11.txt")
    assert (opened.version, opened.open_module) == ("515.57", True)
    jetson = parse_new("proc-driver-nvidia-version/jetson-orin-nx-l4t-35.3.1-open-aarch64.txt")
    assert (jetson.version, jetson.branch, jetson.l4t_release, jetson.open_module) == (
        None,
        None,
        "35.3.1",
        True,
    )


# --- kernel log ---------------------------------------------------------------------------------


def events(shared_dir: Path, rel: str) -> kernel_log.KernelLog:
    """A corpus kernel log parsed with a fixed `now` (syslog lines carry no year)."""
    return kernel_log.parse(read(shared_dir, rel), now=NOW)


def test_kernel_log_xids_with_pci_and_time(shared_dir: Path) -> None:
    gsp = events(shared_dir, "dmesg/xid-119-gsp-rpc-timeout-h100.txt").xids()
    assert {e.xid for e in gsp} == {119} and {e.pci for e in gsp} == {"9b:00"}
    assert gsp[0].time == datetime(2025, 2, 23, 16, 24, 18, tzinfo=UTC) and gsp[0].time_format == "ctime"
    sm = events(shared_dir, "dmesg/xid-13-109-ctime.txt").xids()
    assert [e.xid for e in sm][-1] == 109 and {e.pci for e in sm} == {"cb:00"}
    decode = events(shared_dir, "dmesg/xid-13-43-decode-iso.txt").xids()
    assert {e.xid for e in decode} == {13, 43} and decode[0].time_format == "iso"
    assert decode[0].time == datetime(2025, 1, 21, 2, 21, 33, 498559, tzinfo=UTC)
    bare = events(shared_dir, "dmesg/xid-63-row-remapper-new-row.txt").xids()
    assert [(e.xid, e.pci, e.time) for e in bare] == [(63, "10:1c", None)]
    peer = events(shared_dir, "dmesg/peermem-invalid-context-iso.txt").xids()
    assert [e.xid for e in peer][:3] == [48, 63, 94] and peer[0].pci == "19:00"
    nvlink = events(shared_dir, "journalctl-k/xid-45-after-nvlink-xid-145-149.txt").xids()
    assert {e.xid for e in nvlink} == {45} and "previous Xid 149" in nvlink[0].message


def test_kernel_log_xid_of_a_mig_instance() -> None:
    """On a MIG GPU the driver names the GPU (and compute) instance inside the parenthesis."""
    text = (NEW / "dmesg/xid-94-95-contained-mig-gpu-i-05-driver-examples.txt").read_text(encoding="utf-8")
    xids = kernel_log.parse(text, now=NOW).xids()
    assert [(e.xid, e.pci) for e in xids] == [(94, "01:00"), (94, "01:00"), (95, "01:00")]
    compute = kernel_log.parse("NVRM: Xid (PCI:0000:3b:00 GPU-I:01 GPU-CI:02): 13, pid=9, name=a, x", now=NOW)
    assert [(e.xid, e.pci) for e in compute.xids()] == [(13, "3b:00")]


def test_kernel_log_printk_level_prefix() -> None:
    """`dmesg -r` and pstore dumps keep the printk level before the uptime: '<6>[  201.650687] ...'."""
    text = (NEW / "dmesg/erst-sysrq-crash-null-deref-coreos.txt").read_text(encoding="utf-8")
    log = kernel_log.parse(text, now=NOW)
    first = log.events[0]
    assert (first.uptime_s, first.message, first.time_format) == (
        201.650687,
        "sysrq: SysRq : Trigger a crash",
        "monotonic",
    )
    assert log.recognized
    pstore = (NEW / "dmesg/pstore-kernel-panic-genoa-550-edac-boot.txt").read_text(encoding="utf-8")
    parsed = kernel_log.parse(pstore, now=NOW)
    assert parsed.recognized and not [e.message for e in parsed.events if re.match(r"<\d", e.message)]


def test_kernel_log_time_formats(shared_dir: Path) -> None:
    mono = events(shared_dir, "dmesg/aer-surprise-down-then-xid-79-tesla.txt").events[0]
    assert (mono.time_format, mono.uptime_s, mono.time) == ("monotonic", 74785.660366, None)
    rel = events(shared_dir, "dmesg/aer-fatal-cmpltto-reltime.txt").events[0]
    assert (rel.time_format, rel.time, rel.message[:6]) == ("reltime", None, "nvidia")
    syslog = events(shared_dir, "dmesg/aer-corrected-dll-timeout-badtlp-syslog.txt").events[0]
    assert syslog.time == datetime(2025, 9, 19, 16, 18, 2, tzinfo=UTC)  # September is after NOW's March
    assert syslog.uptime_s == 68183.61579 and syslog.message.startswith("pcieport 0000:00:03.1: AER")
    russian = events(shared_dir, "journalctl-k/aer-corrected-rxerr-russian-locale.txt").events[0]
    assert russian.time == datetime(2026, 2, 12, 0, 48, 2, tzinfo=UTC)
    iso = events(shared_dir, "journalctl-k/k8s-node-short-iso.txt").events[0]
    assert iso.time == datetime(2025, 1, 17, 17, 10, 43, tzinfo=UTC) and iso.message.startswith("IPv6:")
    none = events(shared_dir, "dmesg/rcu-sched-expedited-stalls-6.x.txt").events[0]
    assert none.time_format == "none" and "rcu_sched detected expedited stalls" in none.message
    zh = kernel_log.parse(
        read(shared_dir, "fabricmanager-log/journal-nv-warn-nothing-to-do-zh-locale.txt"), now=NOW
    )
    assert zh.events[0].time == datetime(2025, 11, 15, 14, 15, 47, tzinfo=UTC)
    assert kernel_log.month_number("févr.") == 2 and kernel_log.month_number("Mär") == 3


def test_kernel_log_dev_kmsg_records() -> None:
    # /dev/kmsg's `prio,seq,usec,flags;message`: the prefix is a kernel-log frame with an uptime
    log = parse_new("dmesg/dev-kmsg-raw-nvswitch-open.txt")
    first = log.events[0]
    assert (first.message, first.uptime_s, first.time_format) == (
        "nvidia-nvswitch2: open (major=510)",
        206.764307,
        "kmsg",
    )
    assert log.recognized and not any(";" in e.message.split(":")[0] for e in log.events)


def test_kernel_log_multiline_message_is_one_event(shared_dir: Path) -> None:
    log = events(shared_dir, "dmesg/fallen-off-bus-multiline-570-open.txt")
    first = log.events[0]
    assert "fallen off the bus" in first.message and first.pci == "b3:00" and len(first.lines) == 3
    assert len(log.events) == 3


# --- PCIe, NIC, InfiniBand ----------------------------------------------------------------------


def test_lspci_links(shared_dir: Path) -> None:
    bcm = parse(shared_dir, "lspci-vv/bcm5720-width-downgraded-benign.txt").devices[0]
    assert (bcm.cap_width, bcm.sta_width, bcm.downgraded, bcm.driver) == (2, 1, True, "tg3")
    gpu = parse(shared_dir, "lspci-vv/h100-gpu-gen5-x16-ok.txt").devices[0]
    assert (gpu.vendor, gpu.cap_speed_gts, gpu.sta_speed_gts, gpu.sta_width, gpu.downgraded) == (
        "nvidia",
        32,
        32,
        16,
        False,
    )
    switch = parse(shared_dir, "lspci-vv/pex890xx-switch-port-speed-downgraded.txt").devices[0]
    assert (switch.sta_speed_gts, switch.sta_flags, switch.acs_redirect) == (16, ("downgraded", "ok"), False)
    assert parse(shared_dir, "lspci-vv/connectx7-gen5-x16-ok.txt").devices[0].downgraded is False


def test_lspci_numeric_ids() -> None:
    text = (NEW / "lspci-nnk/dell-xps-9570-intel-uhd630-gtx1050ti-nvidia.txt").read_text(encoding="utf-8")
    devices = {d.slot: d for d in lspci.parse(text).devices}
    igd, dgpu = (
        devices["00:02.0"],
        devices["01:00.0"],
    )  # `-nn`: `VGA compatible controller [0300]: ... [8086:3e9b]`
    assert (igd.device_class, igd.class_code, igd.vendor_id, igd.device_id) == (
        "VGA compatible controller",
        "0300",
        "8086",
        "3e9b",
    )
    assert (dgpu.device_class, dgpu.class_code, dgpu.vendor_id, dgpu.device_id, dgpu.driver) == (
        "3D controller",
        "0302",
        "10de",
        "1c8c",
        "nvidia",
    )
    assert (igd.gpu_class, dgpu.gpu_class, devices["3b:00.0"].gpu_class) == (True, True, False)


def test_ethtool(shared_dir: Path) -> None:
    vf = parse(shared_dir, "ethtool-i/iavf-vf-firmware-na.txt").nics[0]
    assert (vf.driver, vf.firmware, vf.bus_info) == ("iavf", None, "0000:3b:01.0")
    mlx4 = parse(shared_dir, "ethtool-i/mlx4-en-trailing-spaces.txt").nics[0]
    assert (mlx4.driver, mlx4.version, mlx4.firmware) == ("mlx4_en", "4.0-0", "2.42.5000")
    assert (
        mlx4.in_tree_fixed and mlx4.driver_version() is None
    )  # the in-tree driver's constant, not a release
    fixed = parse_new("ethtool-i/mlx5_core-in-tree-fixed-5.0-0-kernel-5.5.0-rc1.txt").nics[0]
    assert fixed.in_tree_fixed and fixed.driver_version("5.5.0-rc1+") is None
    assert parse(shared_dir, "ethtool-i/mlx5-connectx4lx-3.0-1.txt").nics[0].driver_version() is None
    ofed = parse_new("ethtool-i/mlx5_core-ofed-5.5-1.0.3-huawei-fw.txt").nics[0]
    assert not ofed.in_tree_fixed and ofed.driver_version() == "5.5-1.0.3"
    assert parse(shared_dir, "ethtool-i/virtio-net-vm.txt").nics[0].firmware is None
    firmware = {  # each vendor's firmware-version wording, read whole
        "ixgbe-out-of-tree-5.19.6-fw-nvm-pair.txt": ("ixgbe", "5.19.6", "0x80000887, 1.2688.0"),
        "mlx5_core-ofed-5.5-1.0.3-huawei-fw.txt": ("mlx5_core", "5.5-1.0.3", "14.28.1300 (HUA0020040036)"),
        "i40e-in-tree-6.17.2-pve-xxv710-fw-9.57.txt": ("i40e", "6.17.2-1-pve", "9.57 0x800103a8 1.1691.0"),
        "bnxt_en-6.6.43-fw-220-pkg.txt": ("bnxt_en", "6.6.43", "220.0.59.0/pkg 220.0.83.0"),
        "ice-in-tree-bare-6.7.4-e810-xxvda2.txt": ("ice", "6.7.4", "4.40 0x8001c96c 1.3534.0"),
    }
    for name, expected in firmware.items():
        nic = parse_new(f"ethtool-i/{name}").nics[0]
        assert (nic.driver, nic.version, nic.firmware) == expected, name


def test_ib_ports(shared_dir: Path) -> None:
    panic = parse(shared_dir, "ibstat/a100-ibpanic-exit255.txt")
    assert len(panic.ports) == 8 and "mlx5_8" in panic.errors[0]
    mixed = parse(shared_dir, "ibstat/h100-cx7-ib-active-eth-down.txt")
    eth_down = [p for p in mixed.ports if p.link_layer == "Ethernet" and p.state == "Down"]
    assert len(eth_down) == 3
    assert all(
        p.state == "Active" and p.rate_gbps == 400 for p in mixed.ports if p.link_layer == "InfiniBand"
    )
    status = parse(shared_dir, "ibstat/ibstatus-a100-all-active.txt").ports[0]
    assert (status.state, status.physical_state, status.rate_gbps) == ("Active", "LinkUp", 200)
    verbs = parse(shared_dir, "ibv_devinfo/mlx4-two-hcas-port2-down.txt")
    assert [(p.hca, p.port, p.state) for p in verbs.ports if p.state != "PORT_ACTIVE"] == [
        ("mlx4_1", 2, "PORT_DOWN"),
        ("mlx4_0", 2, "PORT_DOWN"),
    ]
    polling = parse(shared_dir, "ibv_devinfo/mlx4-verbose-port2-polling.txt").ports[0]
    assert (polling.state, polling.physical_state) == ("PORT_DOWN", "POLLING")


def test_ip_brief(shared_dir: Path) -> None:
    links = parse(shared_dir, "ip-link/ip-br-addr-ib0-eth1-down.txt").interfaces
    assert [(i.name, i.state) for i in links] == [
        ("lo", "UNKNOWN"),
        ("eth0", "UP"),
        ("eth1", "DOWN"),
        ("ib0", "UP"),
    ]
    assert links[1].rx_errors is None  # brief form has no counters: unknown, not 0


def test_ip_link_head_wrapped_onto_a_second_line() -> None:
    # `ip -s -s link` pasted from a narrow terminal: `state UP qlen 1000` wrapped to column 0
    (eth4,) = parse_new("ip-link/ip-s-s-link-eth4-head-wrapped-state.txt").interfaces
    assert (eth4.name, eth4.state, eth4.mtu, eth4.rx_errors, eth4.rx_dropped, eth4.tx_errors) == (
        "eth4",
        "UP",
        1500,
        0,
        179,
        0,
    )
    assert eth4.line.endswith("qdisc mq state UP qlen 1000")


# --- CPU, NUMA, kernel command line -------------------------------------------------------------


def test_cpu_and_numa(shared_dir: Path) -> None:
    assert parse(shared_dir, "cpupower/intel-pstate-powersave-no-boost.txt").governor == "powersave"
    pinned = parse(shared_dir, "cpupower/intel-pstate-powersave-pinned-max.txt")
    assert (pinned.governor, pinned.current_mhz, pinned.boost_active) == ("powersave", 4090, True)
    vm = parse(shared_dir, "cpupower/cpufreq-info-no-driver-vm.txt")
    assert vm.no_driver and vm.governor is None
    arm = parse_new("cpupower/not-available-no-driver-ampere-arm64-5.10.txt")  # every field 'Not Available'
    assert (arm.no_driver, arm.driver, arm.governor, arm.available_governors, arm.current_mhz) == (
        True,
        None,
        None,
        (),
        None,
    )
    assert [len(n.cpus) for n in parse(shared_dir, "numactl-H/2x-epyc-9135-cpu-compress.txt").nodes] == [
        16,
        16,
    ]
    four = parse(shared_dir, "numactl-H/2x-opteron-6272-4-nodes.txt")
    assert four.available == 4 and four.nodes[3].cpus[0] == 24 and four.nodes[0].size_mb == 32765
    assert parse(shared_dir, "numactl-H/single-node-vm.txt").available == 1
    xeon = parse(shared_dir, "lscpu/xeon-6338-filtered-subset.txt")
    assert xeon.sockets == 2 and xeon.node_cpus()[1][:3] == (1, 3, 5)
    assert parse(shared_dir, "lscpu/x86-guest-kvm.txt").hypervisor == "KVM"
    flags = parse(shared_dir, "proc-cmdline/ubuntu-5.4-nomodeset.txt").params
    assert flags["nomodeset"] is True and flags["net.ifnames"] == "0"


# --- storage ------------------------------------------------------------------------------------


def test_raid(shared_dir: Path) -> None:
    vd = parse(shared_dir, "storcli/sas3508-c0-show-raid1-rwbd-cv-optimal.txt").vds[0]
    assert (vd.vd, vd.raid, vd.state, vd.cache, vd.write_policy) == ("0/0", "RAID1", "Optl", "RWBD", "WB")
    ctl = parse(shared_dir, "storcli/storcli-show-system-overview.txt").controllers[0]
    assert (ctl.model, ctl.bbu, ctl.health) == ("SAS3508", "Opt", "Opt")
    mega = parse(shared_dir, "megacli/ldinfo-raid5-writethrough-slow-db.txt").vds[0]
    assert (mega.state, mega.default_write, mega.current_write, mega.no_cache_if_bad_bbu) == (
        "Optimal",
        "WriteThrough",
        "WriteThrough",
        True,
    )
    assert storcli.write_policy("NRWTD") == "WT" and storcli.write_policy("RAWBC") == "AWB"
    two = parse_new("storcli/c0-vall-show-raid1-nrwtd-raid6-rwtd.txt").vds
    assert [(v.vd, v.raid, v.cache, v.write_policy) for v in two] == [
        ("0/0", "RAID1", "NRWTD", "WT"),
        ("1/1", "RAID6", "RWTD", "WT"),
    ]


def test_raid_perccli2_reads_the_current_cache_column() -> None:
    real = (NEW / "perccli/perccli2-c0-vall-show-all-raid10-optl-wb.txt").read_text(encoding="utf-8")
    assert [(v.vd, v.cache, v.write_policy) for v in storcli.parse(real).vds] == [("0/1", "NR,WB", "WB")]
    # the same table with the controller fallen back to write-through (current WT, default WB)
    fell_back = real.replace(
        "0/1   RAID10 Optl  RW     NR,WB        NR,WB", "0/1   RAID10 Optl  RW     NR,WT        NR,WB"
    )
    assert [(v.cache, v.write_policy) for v in storcli.parse(fell_back).vds] == [("NR,WT", "WT")]


def test_disks_and_mounts(shared_dir: Path) -> None:
    pairs = parse(shared_dir, "lsblk/centos-avago-raid-nvme-pairs.txt").devices
    assert [(d.name, d.mountpoint) for d in pairs if d.name.startswith("/dev/nvme")] == [
        ("/dev/nvme0n1", "/data1"),
        ("/dev/nvme1n1", "/data2"),
    ]
    tree = parse(shared_dir, "lsblk/ubuntu1804-vm-default.txt").devices
    assert ("sda2", "/") in [(d.name, d.mountpoint) for d in tree]
    rows = parse(shared_dir, "df-h/ubuntu1804-vm.txt").filesystems
    root = next(f for f in rows if f.mount == "/")
    assert (root.source, root.size, root.use_pct) == ("/dev/sda2", "20G", 30)
    assert next(f for f in rows if f.mount == "/dev/shm").size == "986M"
    proc = parse(shared_dir, "df-h/long-filesystem-wrapped.txt").filesystems[1]
    assert proc.use_pct is None  # '-' is unknown, not 0
    wrapped = df.parse(
        "Filesystem Size Used Avail Use% Mounted on\n/dev/mapper/very-long-volume-name\n"
        "                 20G   19G  1.0G  95% /data\n"
    )
    assert [(f.source, f.use_pct, f.mount) for f in wrapped.filesystems] == [
        ("/dev/mapper/very-long-volume-name", 95, "/data")
    ]
    spaced = parse(shared_dir, "mount/spaces-in-mountpoint.txt").mounts[0]
    assert spaced.mountpoint == "/media/ingo/Ubuntu 22.04.3 LTS amd64" and spaced.fstype == "iso9660"
    nfs = parse(shared_dir, "mount/nfs4-two-mounts-hard-noresvport.txt").at("/share")
    assert nfs.fstype == "nfs4" and "hard" in nfs.options
    proc_mounts = mount.parse(
        "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=65536k 0 0\n/dev/sdb1 /mnt/a\\040b ext4 rw 0 0\n"
    )
    assert (
        proc_mounts.at("/mnt/a b").source == "/dev/sdb1"
        and "size=65536k" in proc_mounts.at("/dev/shm").options
    )


# --- BMC ----------------------------------------------------------------------------------------


def test_ipmi(shared_dir: Path) -> None:
    lost = [
        e
        for e in parse(shared_dir, "ipmitool-sel/sel-list-2014-ps1-ac-lost-excerpt.txt").events
        if "AC lost" in e.event
    ]
    assert [(e.record, e.sensor, e.direction) for e in lost] == [
        ("29", "Power Supply PS1 Status", "Asserted"),
        ("31", "Power Supply PS1 Status", "Asserted"),
    ]
    assert lost[0].time == datetime(2014, 6, 4, 9, 49, 51, tzinfo=UTC)
    free = parse(shared_dir, "ipmitool-sel/freeipmi-ipmi-sel-psu-failure.txt").events
    assert "Power Supply Failure detected" in free[2].event and free[2].time.year == 2024
    power8 = parse(shared_dir, "ipmitool-sel/openpower-sel-list-firmware-progress.txt").events
    assert len(power8) == 12 and power8[-1].record == "c" and power8[0].time.year == 2000
    fan = parse(shared_dir, "ipmitool-sensor/bpn-fan-nc-single-row.txt").sensors[0]
    assert (fan.name, fan.value, fan.unit, fan.status, fan.alarming) == ("BPN-FAN2", 13300, "RPM", "nc", True)
    absent = [
        s
        for s in parse(shared_dir, "ipmitool-sensor/supermicro-na-sensors-excerpt.txt").sensors
        if s.name.startswith("M2NVMe")
    ]
    assert [(s.value, s.status, s.alarming) for s in absent] == [(None, None, False)] * 2
    epyc = parse(shared_dir, "ipmitool-sensor/supermicro-epyc-sensor-head-excerpt.txt").sensors
    assert epyc[0].value == 33 and not any(s.alarming for s in epyc)
    hpe = {s.name: s for s in parse_new("ipmitool-sensor/hpe-ilo-discrete-psu-memory-freebsd.txt").sensors}
    psu, fan = hpe["Power Supply 1"], hpe["Fan 1"]  # `0x0 | discrete | 0x0180`: state bits, no reading
    assert (psu.value, psu.status, psu.discrete, psu.readable) == (None, None, True, False)
    assert (fan.value, fan.status, fan.discrete, fan.readable) == (12.544, "ok", False, True)
    assert not hpe["04-HD Max"].readable  # `na | | na`


# --- services, containers, versions -------------------------------------------------------------


def test_fabric_manager(shared_dir: Path) -> None:
    status = parse(shared_dir, "systemctl-status-fabricmanager/active-running-bottlerocket-b200.txt")
    assert (status.active, status.sub, status.not_found) == ("active", "running", False)
    assert fabricmanager.parse_status("Unit nvidia-fabricmanager.service could not be found.").not_found
    for rel in (
        "fabricmanager-log/journal-nv-warn-nothing-to-do-zh-locale.txt",
        "fabricmanager-log/journal-pre-nvl5-nothing-to-do-4090.txt",
    ):
        log = parse(shared_dir, rel)
        assert log.of("nothing_to_do") and log.of("failed")
    h20 = parse(shared_dir, "fabricmanager-log/journal-xeu-h20-started-then-stopped.txt")
    assert h20.of("started") and not h20.of("failed")
    nvswitch = parse(shared_dir, "fabricmanager-log/nvswitch-12028-nonfatal-errors.txt")
    assert (
        all("12028" in line for line in nvswitch.of("nvswitch_error"))
        and len(nvswitch.of("nvswitch_error")) > 3
    )


def test_containers_and_versions(shared_dir: Path) -> None:
    kata = parse(shared_dir, "docker-info/docker-18.06-legacy-format-kata-default.txt")
    assert (kata.runtimes, kata.default_runtime, kata.docker_desktop) == (
        ("runc", "kata-runtime"),
        "kata-runtime",
        False,
    )
    grep = parse(shared_dir, "docker-info/grep-runtime-nvidia-missing.txt")
    assert grep.runtimes == ("io.containerd.runc.v2", "runc") and grep.docker_desktop is None
    assert parse(shared_dir, "docker-info/docker-19.03-fedora32-runc-only.txt").server_version == "19.03.11"
    desktop = docker_info.parse(" Kernel Version: 6.10.14-linuxkit\n Operating System: Docker Desktop\n")
    assert desktop.docker_desktop is True
    assert parse(shared_dir, "nvidia-ctk-version/ctk-1.12.0.txt").version == "1.12.0"
    runtime = parse(shared_dir, "nvidia-ctk-version/nvidia-container-runtime-1.13.5-with-runc.txt")
    assert (runtime.version, runtime.runc_version) == ("1.13.5", "1.2.5")
    assert parse(shared_dir, "os-release/centos7.txt").version_id == "7"
    assert (
        parse(shared_dir, "os-release/ubuntu-22.04.5-no-trailing-newline.txt").pretty_name
        == "Ubuntu 22.04.5 LTS"
    )
    assert parse(shared_dir, "uname-a/rocky96-el9.txt").release == "5.14.0-570.33.2.el9_6.x86_64"
    cpu = parse(shared_dir, "torch-version/cpu-only-2.13.0.txt")
    assert (cpu.version, cpu.cuda, cpu.cuda_available, cpu.cpu_only) == ("2.13.0+cpu", None, False, True)
    good = parse(shared_dir, "torch-version/cu121-a100-pod-known-good.txt")
    assert (good.cuda, good.cuda_available, good.cpu_only) == ("12.1", True, False)
    assert parse(shared_dir, "torch-version/cu130-with-is-built-4-fields.txt").cuda_available is True
    assert torch_version.parse("ModuleNotFoundError: No module named 'torch'").not_installed
    assert parse(shared_dir, "nvcc-version/cuda-10.0.txt").release == "10.0"


def test_torch_probe_run_for_real_adds_arch_list_and_stays_backward_compatible(shared_dir: Path) -> None:
    source = (Path(__file__).resolve().parents[2] / "collectors/probes/torch_probe.py").read_text()
    out = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, check=True).stdout
    build = torch_version.parse(out)
    assert (build.version, build.arch_list) == (torch.__version__, tuple(torch.cuda.get_arch_list()))
    assert out.splitlines()[0] == build.line  # the first line is the old format, unchanged
    newer = torch_version.parse("2.5.1+cu121 12.1 True\narch_list sm_80 sm_90\nnccl 2.21.5\n")
    assert (newer.cuda_available, newer.arch_list, newer.nccl) == (True, ("sm_80", "sm_90"), "2.21.5")
    for old in (shared_dir / "outputs/torch-version").glob("*.txt"):
        assert torch_version.parse(old.read_text()).arch_list is None  # older probes: unknown, not empty


def test_pasted_tools(shared_dir: Path) -> None:
    deploy = parse(shared_dir, "dcgmi-diag/deployment-error-row-remap-pending-fragment.txt").failed()[0]
    assert deploy.result == "Error" and "row remappings are pending" in deploy.detail
    memory = parse(shared_dir, "dcgmi-diag/r2-gpu-memory-fail-thermal-violation-fragment.txt").results
    assert [(r.test, r.result) for r in memory] == [("GPU Memory", "Fail"), ("Warning", "Warning")]
    assert parse(shared_dir, "dcgmi-diag/r3-v100-pcie-dcgm339-pass.txt").failed() == ()
    row = parse(shared_dir, "nvidia-smi-query-gpu/h100-590-load-allfields.txt").rows[0]
    assert row["name"] == "NVIDIA H100 80GB HBM3" and row["pcie.link.gen.max"] == "5"


def test_kernel_log_short_precise_microseconds() -> None:
    """`journalctl -o short-precise` prints syslog times with microseconds: the time and frame are read."""
    text = (NEW / "journalctl-k/short-precise-bottlerocket-boot-excerpt.txt").read_text(encoding="utf-8")
    log = kernel_log.parse(text, now=NOW)
    assert [e.time for e in log.events] == [
        datetime(2025, 3, 14, 10, 12, 31, usec, tzinfo=UTC) for usec in (545053, 545065, 545076, 545088)
    ]  # March 14 is after NOW's March 1: last year
    first = log.events[0]
    assert (first.time_format, first.framed) == ("syslog", True)
    assert first.message.startswith("x86/PAT: Configuration [0-7]")


def test_ipmitool_sel_locale_timestamps() -> None:
    """ipmitool 1.8.19 prints the date with strftime %x and the time with '%X %Z' (locale dependent)."""
    text = (NEW / "ipmitool-sel/ipmitool-1.8.19-locale-date-12h-clock-zone-log-cleared.txt").read_text()
    assert [e.time for e in ipmi_sel.parse(text).events] == [datetime(2020, 12, 21, 12, 40, 49, tzinfo=UTC)]
    c_locale = "  40 | 09/27/19 | 10:00:00 UTC | Power Supply PS2 Status | Failure detected | Asserted"
    assert ipmi_sel.parse(c_locale).events[0].time == datetime(2019, 9, 27, 10, tzinfo=UTC)
    night = "  2 | 02/04/2026 | 12:28:24 AM -03 | Power Supply #0x62 | Power Supply AC lost | Asserted"
    assert ipmi_sel.parse(night).events[0].time == datetime(2026, 2, 4, 0, 28, 24, tzinfo=UTC)
    assert ipmi_sel.parse(night.replace("12:28:24 AM", "13:28:24 PM")).events[0].time is None


def test_ipmitool_sel_with_a_reading_column_keeps_the_direction() -> None:
    text = (
        " 5 | 11/23/2026 | 03:12:44 | Voltage #0x64 | Lower Non-critical going low  | Asserted"
        " | Reading 196 < Threshold 200 Volts\n"
        " 9 | 11/23/2026 | 03:12:47 | Voltage #0x64 | Lower Non-critical going low  | Deasserted"
        " | Reading 221 > Threshold 200 Volts\n"
    )
    events = ipmi_sel.parse(text).events
    assert [(e.sensor, e.direction) for e in events] == [
        ("Voltage #0x64", "Asserted"),
        ("Voltage #0x64", "Deasserted"),
    ]

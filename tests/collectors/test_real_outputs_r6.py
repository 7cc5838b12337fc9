"""Real outputs of round 6 (tests/fixtures/outputs, sources in its INDEX.md): what Pitstop reads in them."""

from __future__ import annotations

from pathlib import Path

from pitstop.collectors.checks.registry import evaluate
from pitstop.collectors.model import CheckContext, CommandResult
from pitstop.collectors.parsers import cmdline, kernel_log
from pitstop.core.i18n import render
from pitstop.kb.schema import load_pitfalls
from tests.collectors.check_inputs import FIXTURES, NOW, argv, check, ok

REPO = Path(__file__).resolve().parents[2]

POWER_BRAKE = {"reason": ["hw_slowdown", "hw_power_brake_slowdown"], "unless_reason": ["hw_thermal_slowdown"]}


def test_hw_slowdown_without_its_thermal_line_is_not_a_power_brake() -> None:
    """`HW Slowdown : Active` whose `HW Thermal Slowdown` line is missing (drivers before the
    breakdown, a cut output) or N/A: the slowdown may be thermal, so the power-brake entry cannot be
    confirmed (it was). The V100 fragment itself, which says thermal is Not Active, still confirms."""
    text = (
        FIXTURES
        / "outputs/nvidia-smi-q/clocks-throttle-reasons-v100-sxm2-32gb-c4130-power-brake-fragment.txt"
    ).read_text()
    assert check("gpu_clock_event", ok("nvidia_smi_q", text), params=POWER_BRAKE).verdict == "confirmed"
    thermal = "        HW Thermal Slowdown           : Not Active\n"
    brake = "        HW Power Brake Slowdown       : Active\n"
    assert thermal in text and brake in text
    for variant in (
        text.replace(thermal, "").replace(brake, ""),
        text.replace(thermal, thermal.replace("Not Active", "N/A")).replace(brake, ""),
    ):
        verdict = check("gpu_clock_event", ok("nvidia_smi_q", variant), params=POWER_BRAKE)
        assert verdict.verdict == "inconclusive"
        assert "hw_thermal_slowdown" in render(verdict.reason, "en")
        assert "原因未知" in render(verdict.reason, "zh")


def test_ibstat_port_cut_before_its_link_layer_is_of_unknown_layer(shared_dir: Path) -> None:
    """An ibstat cut before a port's `Link layer` line: that port was taken for InfiniBand. An
    H100 host's Ethernet port that is Down (mlx5_2), cut there, confirmed ib-port-down-physical; a
    RoCE-only host cut before its last `Link layer` line ruled the InfiniBand entries out on the
    one cut port ("all 1 InfiniBand port(s) are fine"). Both are now inconclusive, naming the port."""
    lines = (shared_dir / "outputs/ibstat/h100-cx7-ib-active-eth-down.txt").read_text().splitlines(True)
    at = lines.index("\t\tLink layer: Ethernet\n", lines.index("CA 'mlx5_2'\n"))
    cut = ok("ibstat", "".join(lines[:at]))
    for state in ("down", "not_active"):
        verdict = check("ib_port_state", cut, params={"state": state})
        assert verdict.verdict == "inconclusive", state
        assert "mlx5_2 port 1" in render(verdict.reason, "en") and "Link layer" in render(
            verdict.reason, "zh"
        )
    roce = (shared_dir / "outputs/ibstat/h100-cx7-roce-all-active.txt").read_text().splitlines(True)
    last = max(i for i, line in enumerate(roce) if "Link layer" in line)
    assert check("ib_port_state", ok("ibstat", "".join(roce[:last])), params={"state": "down"}).verdict == (
        "inconclusive"
    )
    # the whole outputs read as before
    whole = ok("ibstat", "".join(lines))
    assert check("ib_port_state", whole, params={"state": "down"}).verdict == "ruled_out"
    assert (
        check("ib_port_state", ok("ibstat", "".join(roce)), params={"state": "down"}).verdict == "ruled_out"
    )
    # a single port cut at the size cap shows no link layer anywhere: unknown too
    one = "".join(lines[lines.index("CA 'mlx5_2'\n") : at])
    capped = CommandResult("ibstat", argv("ibstat"), "ok", 0, stdout=one, truncated=True)
    assert check("ib_port_state", capped, params={"state": "down"}).verdict == "inconclusive"


def test_old_toolkit_without_nvidia_ctk_is_not_a_missing_toolkit(shared_dir: Path) -> None:
    """Docker 19.03's `docker info` lists only runc (Fedora 32 host), nvidia-ctk is not installed, and
    `nvidia-container-cli -V` prints libnvidia-container 1.0.7: the toolkit of that era has no
    nvidia-ctk and serves `docker run --gpus` through its hook, with no nvidia runtime registered
    (NVIDIA/k8s-device-plugin#168, Xilinx/Vitis-AI#28). nvidia-container-toolkit-missing was
    confirmed; it is inconclusive, naming the version. Without nvidia-container-cli it still confirms."""
    results = {
        "docker_info": ok(
            "docker_info",
            (shared_dir / "outputs/docker-info/docker-19.03-fedora32-runc-only.txt").read_text(),
        ),
        "nvidia_ctk": CommandResult(
            "nvidia_ctk", argv("nvidia_ctk"), "missing", 127, stderr="bash: nvidia-ctk: command not found"
        ),
    }
    entry = next(
        p for p in load_pitfalls(REPO / "kb" / "pitfalls") if p.id == "nvidia-container-toolkit-missing"
    )
    ctx = CheckContext(host="h", now=NOW)
    assert evaluate(entry, results, ctx).verdict == "confirmed"
    cli = (FIXTURES / "outputs/nvidia-container-cli-version/1.0.7-ubuntu-gcc7.txt").read_text()
    verdict = evaluate(entry, {**results, "nvidia_container_cli": ok("nvidia_container_cli", cli)}, ctx)
    assert verdict.verdict == "inconclusive"
    assert "1.0.7" in render(verdict.reason, "en") and "1.0.7" in render(verdict.reason, "zh")


def test_round6_kernel_logs_read_right() -> None:
    """Kernel logs of this round that Pitstop already read right, kept so they stay read right."""
    ctx = CheckContext(host="h", now=NOW)

    def verdict(name: str, pattern: str) -> str:
        log = ok("kernel_log", (FIXTURES / "outputs" / name).read_text())
        return check("kernel_log_match", log, params={"pattern": pattern}, ctx=ctx).verdict

    aer = "AER: .*error|PCIe Bus Error"
    edac = r"EDAC .*\b\d+ [CU]E\b|HANDLING MCE MEMORY ERROR|mce: \[Hardware Error\]"
    # syslog with the Dutch month 'jan.': dated, so the log is recognized
    dutch = kernel_log.parse(
        (
            FIXTURES / "outputs/journalctl-k/syslog-dutch-jan-aer-corrected-id-00e5-receiver-error.txt"
        ).read_text(),
        now=NOW,
    )
    assert all(e.time is not None and e.time.month == 1 for e in dutch.events) and dutch.recognized
    assert (
        verdict("journalctl-k/syslog-dutch-jan-aer-corrected-id-00e5-receiver-error.txt", aer) == "confirmed"
    )
    # pasted without timestamps, every line indented: present, but no absence can be read from it
    indented = "dmesg/no-timestamp-indented-aer-rxerr-nvme-gtx1060-laptop.txt"
    assert verdict(indented, aer) == "confirmed"
    assert verdict(indented, "nfs: server .* not responding") == "inconclusive"
    for name in (
        "dmesg/ctime-edac-sbridge-1-ce-memory-read-error-chan2-dimm0.txt",
        "journalctl-k/syslog-uptime-edac-mc0-n-ce-error-cpu0channel2-dimm0-excerpt.txt",
    ):
        assert verdict(name, edac) == "confirmed", name
    # wall-clock times without the boot banner: a journal of this boot, the absence holds
    assert verdict("dmesg/ctime-edac-sbridge-1-ce-memory-read-error-chan2-dimm0.txt", aer) == "ruled_out"
    # its first line is 250 days into the boot: what came before is not in it
    late = "journalctl-k/syslog-uptime-edac-mc0-n-ce-error-cpu0channel2-dimm0-excerpt.txt"
    assert verdict(late, aer) == "inconclusive"
    # the server came back ('nfs: server ... OK'), but it did stop responding
    for name in (
        "dmesg/nfs-not-responding-timed-out-still-trying-then-ok-excerpt.txt",
        "dmesg/ctime-nfs-root-over-nfs-still-trying-then-ok-excerpt.txt",
    ):
        assert verdict(name, "nfs: server .* not responding") == "confirmed", name


def test_cmdline_parameter_given_more_than_once_or_as_a_list() -> None:
    """Qubes dom0 boot line `... intel_iommu=igfx_off ... intel_iommu=on intel_iommu=igfx_off`: the
    kernel applies each `intel_iommu=`, but the parser kept the last value only and ruled
    iommu-translation-mode out ("lacks `intel_iommu=on`"). Repeated with different values it is
    inconclusive; a comma list (`intel_iommu=on,igfx_off`) holds each of its options."""
    iommu = {"flag": "intel_iommu", "value": "on", "unless": "iommu=pt"}
    text = (
        FIXTURES / "outputs/proc-cmdline/qubes-dom0-intel-iommu-three-times-igfx-off-last.txt"
    ).read_text()
    assert cmdline.parse(text).values["intel_iommu"] == ("igfx_off", "on", "igfx_off")
    verdict = check("cmdline_flag", ok("cmdline", text), params=iommu)
    assert verdict.verdict == "inconclusive"
    assert "intel_iommu" in render(verdict.reason, "en") and "intel_iommu" in render(verdict.reason, "zh")
    once = text.replace("intel_iommu=igfx_off ", "").replace("intel_iommu=on", "intel_iommu=on,igfx_off")
    assert check("cmdline_flag", ok("cmdline", once), params=iommu).verdict == "confirmed"
    passthrough = once.rstrip() + " iommu=pt\n"
    assert check("cmdline_flag", ok("cmdline", passthrough), params=iommu).verdict == "ruled_out"
    twice = passthrough.rstrip() + " iommu=soft\n"
    assert check("cmdline_flag", ok("cmdline", twice), params=iommu).verdict == "inconclusive"


def test_ring_buffer_that_lost_the_boot_rules_nothing_out() -> None:
    """`dmesg | head` on a DENT OS switch (arm64): the ring buffer's first line is 22.9 s into the
    boot, the earlier messages overwritten (dentOS#270, "log buffer too small"). Every absence was
    ruled out "since boot" (AER, nouveau probe, Xids), though driver probes and enumeration-time
    AER lines are exactly what was lost. It is inconclusive, quoting the first line; a log that starts
    at boot (the kernel banner, or uptime 0) still rules out."""
    text = (FIXTURES / "outputs/dmesg/head-ring-buffer-lost-first-22s-dentos-arm64.txt").read_text()
    ctx = CheckContext(host="h", now=NOW)
    assert kernel_log.parse(text).from_boot is False
    for collector in ("dmesg", "kernel_log"):
        verdict = check("kernel_log_match", ok(collector, text), params={"pattern": "AER: .*error"}, ctx=ctx)
        assert verdict.verdict == "inconclusive", collector
        assert "22.906794" in render(verdict.reason, "en") and "开机" in render(verdict.reason, "zh")
    booted = "[    0.000000] Linux version 6.1.0 (builder@dent) #1 SMP\n" + text
    assert kernel_log.parse(booted).from_boot is True
    verdict = check("kernel_log_match", ok("dmesg", booted), params={"pattern": "AER: .*error"}, ctx=ctx)
    assert verdict.verdict == "ruled_out"


def _entry(pitfall_id: str):
    return next(p for p in load_pitfalls(REPO / "kb" / "pitfalls") if p.id == pitfall_id)


def test_a_machine_check_that_names_no_memory_is_not_a_memory_error() -> None:
    """CPU thermal events log `mce: [Hardware Error]: Machine check events logged` too: those lines,
    as an AHF dmesg excerpt in a runbook shows them (search index file id 52698413730), confirmed
    host-dram-ecc-mce-errors; now inconclusive. An EDAC line still confirms."""
    ctx = CheckContext(host="h", now=NOW)
    entry = _entry("host-dram-ecc-mce-errors")
    thermal = (
        "[821343.182821] CPU0: Core temperature above threshold, cpu clock throttled (total events = 18821)\n"
        "[821401.228821] mce: [Hardware Error]: Machine check events logged\n"
        "[821401.228844] mce: [Hardware Error]: CPU 0: Machine Check Exception: 5 Bank 4: b200000000000108\n"
    )
    assert evaluate(entry, {"dmesg": ok("dmesg", thermal)}, ctx).verdict == "inconclusive"
    edac = "[ 5.1] EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#2_DIMM#0\n"
    assert evaluate(entry, {"dmesg": ok("dmesg", thermal + edac)}, ctx).verdict == "confirmed"


def test_iommu_translation_mode_is_not_ruled_out_by_an_absent_intel_iommu() -> None:
    """AMD's IOMMU, and Intel's on kernels built with it on by default, translate without
    `intel_iommu=on` on the command line: its absence said "ruled out"; now it says nothing."""
    ctx = CheckContext(host="h", now=NOW)
    entry = _entry("iommu-translation-mode")

    def verdict(line: str) -> str:
        return evaluate(entry, {"cmdline": ok("cmdline", line + "\n")}, ctx).verdict

    plain = "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=1 ro quiet splash"
    assert verdict(plain) == "inconclusive"
    assert verdict(plain + " intel_iommu=on") == "confirmed"
    assert verdict(plain + " intel_iommu=on iommu=pt") == "ruled_out"

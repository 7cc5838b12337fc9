"""GPU, driver and framework checks on facts from real outputs and the recorded fake-NVML probe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitstop.collectors.checks import gpu
from pitstop.collectors.parsers.gpu import Gpu
from tests.collectors.check_inputs import check, context, fixture, missing, ok, shared

SMI_Q = "nvidia_smi_q"


def probe(*gpus: dict, **top: object) -> object:
    """An NVML probe result with these GPU records."""
    return ok(
        "nvml_probe", json.dumps({"probe": "pitstop-nvml", "source": "nvml", "gpus": list(gpus), **top})
    )


@pytest.fixture(scope="module")
def h100(shared_dir: Path) -> object:
    return shared(shared_dir, SMI_Q, "nvidia-smi-q/h100-590-load.txt")


@pytest.fixture(scope="module")
def rtx8(shared_dir: Path) -> object:
    return shared(shared_dir, SMI_Q, "nvidia-smi-q/rtx4090x8-535-sw-power-cap.txt")


def test_clock_event_confirmed_and_ruled_out(h100: object, rtx8: object) -> None:
    power = check("gpu_clock_event", rtx8, params={"reason": "sw_power_cap"})
    assert power.verdict == "confirmed" and "GPU 1" in str(power.reason)
    assert any("SW Power Cap" in line and "Active" in line for line in power.evidence[0].lines)
    assert power.evidence[0].command == "nvidia-smi -q"
    assert (
        check(
            "gpu_clock_event", h100, params={"reason": ["hw_thermal_slowdown", "sw_thermal_slowdown"]}
        ).verdict
        == "ruled_out"
    )
    assert check("gpu_clock_event", h100, params={"reason": "bogus"}).verdict == "inconclusive"


def test_thermal_slowdown_from_the_probe() -> None:
    hot = probe(
        {
            "index": 0,
            "name": "NVIDIA H100 80GB HBM3",
            "temperature_c": 89,
            "clock_events": {"sw_thermal_slowdown": True, "hw_thermal_slowdown": False},
        }
    )
    verdict = check("gpu_clock_event", hot, params={"reason": ["sw_thermal_slowdown", "hw_thermal_slowdown"]})
    assert verdict.verdict == "confirmed" and verdict.evidence[0].rerun == "nvidia-smi -q"
    assert (
        "GPU 0 (NVIDIA H100 80GB HBM3): clock_events.sw_thermal_slowdown: True (nvml)"
        in verdict.evidence[0].lines
    )
    assert check("gpu_temperature", hot, params={"above_c": 85}).verdict == "confirmed"


def test_unknown_is_inconclusive_never_ruled_out(shared_dir: Path) -> None:
    fragment = shared(shared_dir, SMI_Q, "nvidia-smi-q/a100-510-row-remap-pending-excerpt.txt")
    assert check("gpu_clock_event", fragment).verdict == "inconclusive"  # section elided by the poster
    assert check("gpu_temperature", fragment).verdict == "inconclusive"
    lost = probe({"index": 0, "lost": True, "error": "GPU is lost"})
    assert check("gpu_remapped_rows", lost).verdict == "inconclusive"
    no_driver = ok(
        "nvml_probe",
        json.dumps(
            {
                "probe": "pitstop-nvml",
                "source": "nvidia-smi",
                "message": "no NVIDIA driver here (libnvidia-ml.so not found)",
                "nvidia_smi": {"missing": True},
                "gpus": [],
            }
        ),
    )
    verdict = check("ecc_uncorrected", no_driver)
    assert verdict.verdict == "inconclusive" and "no NVIDIA driver here" in str(verdict.reason)
    assert (
        str(check("ecc_uncorrected", missing("nvml_probe")).reason) == "no GPU facts: python3 not installed; "
        "nvidia_smi_q was not collected"
    )


def test_memory_health(shared_dir: Path, h100: object) -> None:
    pending = shared(shared_dir, SMI_Q, "nvidia-smi-q/a100-510-row-remap-pending-excerpt.txt")
    verdict = check("gpu_remapped_rows", pending, params={"state": "pending"})
    assert verdict.verdict == "confirmed" and any("Pending" in line for line in verdict.evidence[0].lines)
    assert check("gpu_remapped_rows", h100, params={"state": "pending"}).verdict == "ruled_out"
    assert check("gpu_remapped_rows", pending, params={"state": "failure"}).verdict == "ruled_out"
    sram = shared(shared_dir, SMI_Q, "nvidia-smi-q-d/ecc-errors-section-sram-uncorrectable.txt")
    assert check("ecc_uncorrected", sram).verdict == "confirmed"
    assert check("ecc_uncorrected", h100).verdict == "ruled_out"
    assert check("ecc_corrected", pending, params={"min": 100}).verdict == "confirmed"
    assert check("ecc_corrected", h100).verdict == "ruled_out"
    retired = check("gpu_retired_pages", pending)
    assert retired.verdict == "inconclusive" and "row remapping" in str(retired.reason)


def test_modes(shared_dir: Path, h100: object) -> None:
    mig = shared(shared_dir, SMI_Q, "nvidia-smi-q/h100-mig-590-idle.txt")
    assert check("gpu_mig_mode", mig).verdict == "confirmed"
    assert check("gpu_mig_mode", h100).verdict == "ruled_out"
    l40s = shared(shared_dir, SMI_Q, "nvidia-smi-q/l40s-595-load.txt")
    assert check("gpu_persistence", l40s).verdict == "confirmed"
    assert check("gpu_persistence", h100).verdict == "ruled_out"
    exclusive = probe({"index": 0, "compute_mode": "Exclusive_Process"})
    assert check("gpu_compute_mode", exclusive).verdict == "confirmed"
    assert check("gpu_compute_mode", h100).verdict == "ruled_out"


def test_memory_held_by_idle_gpu() -> None:
    stale = probe(
        {
            "index": 0,
            "memory_used_mib": 30000,
            "utilization_pct": 0,
            "processes": [{"pid": 77, "name": "python", "used_mib": 29990}],
        }
    )
    verdict = check("gpu_memory_held", stale)  # a live owner may be between steps: one reading proves nothing
    assert verdict.verdict == "inconclusive" and "pid 77 python 29990 MiB" in verdict.evidence[-1].lines[0]
    orphan = probe({"index": 0, "memory_used_mib": 30000, "utilization_pct": 0, "processes": []})
    verdict = check("gpu_memory_held", orphan)
    assert verdict.verdict == "confirmed" and "no process is listed" in str(verdict.reason)
    busy = probe({"index": 0, "memory_used_mib": 30000, "utilization_pct": 97})
    assert check("gpu_memory_held", busy).verdict == "ruled_out"


@pytest.mark.parametrize(
    ("name", "limit", "form"),
    [
        ("NVIDIA H100 PCIe", 350.0, "PCIe"),
        ("NVIDIA H100 80GB HBM3", 700.0, "SXM"),
        ("NVIDIA H100", 350.0, "PCIe"),
        ("NVIDIA H100 NVL", 400.0, "PCIe"),
        ("NVIDIA L40S", 350.0, None),
    ],
)
def test_form_factor(name: str, limit: float, form: str | None) -> None:
    assert gpu.form_factor(Gpu(name=name, max_power_limit_w=limit)) == form


def test_sku_against_expectations(h100: object) -> None:
    ordered_sxm = context(gpu_model="H100", form_factor="SXM5")
    assert check("gpu_sku", h100, ctx=ordered_sxm).verdict == "ruled_out"
    pcie = probe({"index": 0, "name": "NVIDIA H100 PCIe", "max_power_limit_w": 350.0})
    wrong = check("gpu_sku", pcie, ctx=ordered_sxm)
    assert wrong.verdict == "confirmed" and "form factor PCIe" in wrong.evidence[0].lines[0]
    assert check("gpu_sku", h100).verdict == "inconclusive"  # no expectations: cannot judge


def test_count_lost_generation_and_mixed(shared_dir: Path, rtx8: object) -> None:
    assert check("gpu_count", rtx8, ctx=context(gpu_count=8)).verdict == "ruled_out"
    one_lost = probe({"index": 0, "name": "A"}, {"index": 1, "lost": True})
    assert check("gpu_count", one_lost, ctx=context(gpu_count=2)).verdict == "confirmed"
    table = shared(shared_dir, "nvidia_smi", "nvidia-smi/a100-pcie-595-two-gpus-err.txt")
    assert check("gpu_lost", table, ok("nvml_probe", "")).verdict == "confirmed"
    titan = shared(shared_dir, SMI_Q, "nvidia-smi-q/titanv-560-idle.txt")
    assert check("gpu_generation", titan).verdict == "confirmed"  # Volta: no bf16
    assert check("gpu_generation", rtx8).verdict == "ruled_out"
    assert (
        check(
            "gpu_mixed_models",
            probe(
                {"index": 0, "name": "NVIDIA A100 80GB PCIe"}, {"index": 1, "name": "Tesla V100-PCIE-16GB"}
            ),
        ).verdict
        == "confirmed"
    )
    assert check("gpu_mixed_models", rtx8).verdict == "ruled_out"


@pytest.mark.parametrize(
    ("name", "verdict"),
    [
        ("gpu-is-lost-reboot-0000-02.txt", "confirmed"),
        ("gpu-is-lost-windows-console-wrapped.txt", "confirmed"),
        ("device-handle-unknown-error-0b.txt", "inconclusive"),  # not the lost-GPU wording
        ("device-handle-unknown-error-no-space-tesla-p4.txt", "inconclusive"),
    ],
)
def test_gpu_lost_from_the_device_handle_error(name: str, verdict: str) -> None:
    result = fixture("nvidia_smi", f"outputs/nvidia-smi-errors/{name}")
    got = check("gpu_lost", result)
    assert got.verdict == verdict
    assert got.evidence and "Unable to determine the device handle" in got.evidence[0].lines[0]


def test_pcie_idle_downclock_is_benign_only_when_idle(shared_dir: Path, h100: object) -> None:
    idle = shared(shared_dir, SMI_Q, "nvidia-smi-q/rtx4080s-595-idle.txt")  # gen 1 of 4 while idle
    assert check("pcie_idle_downclock", idle).verdict == "confirmed"
    assert check("pcie_idle_downclock", h100).verdict == "ruled_out"
    busy = probe(
        {
            "index": 0,
            "pcie_gen_current": 3,
            "pcie_gen_max": 5,
            "pcie_width_current": 16,
            "pcie_width_max": 16,
            "utilization_pct": 99,
            "clock_events": {"gpu_idle": False},
        }
    )
    assert check("pcie_idle_downclock", busy).verdict == "ruled_out"


def slower_link(bus: str) -> object:
    """lspci of one NVIDIA GPU whose link runs at Gen1 speed at full width: what an idle GPU shows (the
    LnkCap/LnkSta shape of the shared H100 output, its speed lowered; no real idle GPU block found)."""
    return ok(
        "lspci",
        f"{bus} VGA compatible controller: NVIDIA Corporation AD103 [GeForce RTX 4080 SUPER] (rev a1)\n"
        "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM L1, Exit Latency L1 <4us\n"
        "\t\tLnkSta:\tSpeed 2.5GT/s (downgraded), Width x16 (ok)\n\tKernel driver in use: nvidia\n",
    )


def test_a_slower_gpu_link_counts_only_when_the_gpu_is_busy(shared_dir: Path) -> None:
    """An idle NVIDIA GPU drops its link to a lower speed on purpose: that is not a downtrained link
    (it confirmed `pcie-link-downtrained` on every idle host). Narrower is never power saving."""
    idle = shared(shared_dir, SMI_Q, "nvidia-smi-q/rtx4080s-595-idle.txt")  # bus 01:00.0, 0% load
    quiet = check("pcie_link_downgraded", slower_link("01:00.0"), idle)
    assert quiet.verdict == "inconclusive" and "idle" in str(quiet.reason)
    assert "Speed 2.5GT/s (downgraded)" in quiet.evidence[0].lines[0]
    busy = probe(
        {"index": 0, "bus_id": "00000000:01:00.0", "utilization_pct": 97, "clock_events": {"gpu_idle": False}}
    )
    assert check("pcie_link_downgraded", slower_link("01:00.0"), busy).verdict == "confirmed"
    unknown = check("pcie_link_downgraded", slower_link("01:00.0"))  # no GPU reading at all
    assert unknown.verdict == "inconclusive" and "load was not read" in str(unknown.reason)
    elsewhere = check("pcie_link_downgraded", slower_link("41:00.0"), busy)  # the busy GPU is another one
    assert elsewhere.verdict == "inconclusive"


# --- driver and framework -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("nvidia-smi-errors/couldnt-communicate-two-lines-curly-quote.txt", "no_driver"),
        ("nvidia-smi-errors/no-devices-were-found.txt", "no_devices"),
    ],
)
def test_nvidia_smi_error(shared_dir: Path, rel: str, kind: str) -> None:
    verdict = check(
        "nvidia_smi_error", shared(shared_dir, "nvidia_smi", rel, exit_code=9), params={"kind": kind}
    )
    assert verdict.verdict == "confirmed" and verdict.evidence[0].command == "nvidia-smi"
    healthy = shared(shared_dir, "nvidia_smi", "nvidia-smi/h100x8-550-idle.txt")
    assert check("nvidia_smi_error", healthy, params={"kind": kind}).verdict == "ruled_out"
    assert check("nvidia_smi_error", missing("nvidia_smi")).verdict == "inconclusive"


def test_nvml_mismatch(shared_dir: Path) -> None:
    text = shared(
        shared_dir, "nvidia_smi", "nvidia-smi-errors/nvml-mismatch-with-nvml-version-line.txt", exit_code=18
    )
    verdict = check("nvml_version_mismatch", text)
    assert verdict.verdict == "confirmed" and "NVML library version: 570.124" in verdict.evidence[0].lines
    stale = shared(
        shared_dir, "driver_version", "proc-driver-nvidia-version/470.103-stale-module-centos7.txt"
    )
    user = shared(shared_dir, "nvidia_smi", "nvidia-smi/quadro-rtx8000x10-470-idle.txt")  # 470.63.01
    assert check("nvml_version_mismatch", stale, user).verdict == "confirmed"
    same = shared(shared_dir, "driver_version", "proc-driver-nvidia-version/470.63.01-centos7.txt")
    assert check("nvml_version_mismatch", same, user).verdict == "ruled_out"


def test_driver_branch(shared_dir: Path) -> None:
    old = shared(shared_dir, "driver_version", "proc-driver-nvidia-version/open-515.57-gcc11.txt")
    verdict = check("driver_branch", old, ctx=context(driver_branch="535"))
    assert (
        verdict.verdict == "confirmed"
        and "515.57" in str(verdict.reason)
        and "NVRM version" in verdict.evidence[0].lines[0]
    )
    new = shared(shared_dir, "nvidia_smi", "nvidia-smi/h100x8-550-idle.txt")
    assert check("driver_branch", new, ctx=context(driver_branch="535")).verdict == "ruled_out"
    assert check("driver_branch", old).verdict == "inconclusive"
    # a Jetson's module prints its L4T release (35.3.1) where a driver version would be: not branch 35
    jetson = fixture(
        "driver_version", "outputs/proc-driver-nvidia-version/jetson-orin-nx-l4t-35.3.1-open-aarch64.txt"
    )
    assert check("driver_branch", jetson, ctx=context(driver_branch="535")).verdict == "inconclusive"
    assert (
        check("nvml_version_mismatch", jetson, new).verdict != "confirmed"
    )  # 35.3.1 is no version to compare


def test_torch_build_and_cuda_compat(shared_dir: Path) -> None:
    cpu = shared(shared_dir, "torch_probe", "torch-version/cpu-only-2.13.0.txt")
    verdict = check("torch_build", cpu)
    assert verdict.verdict == "confirmed" and verdict.evidence[0].lines == ("2.13.0+cpu None False",)
    good = shared(shared_dir, "torch_probe", "torch-version/cu121-a100-pod-known-good.txt")
    assert check("torch_build", good).verdict == "ruled_out"
    absent = ok("torch_probe", "ModuleNotFoundError: No module named 'torch'")
    assert check("torch_build", absent).verdict == "inconclusive"
    new = shared(shared_dir, "torch_probe", "torch-version/cu130-with-is-built-4-fields.txt")
    old_driver = shared(shared_dir, "nvidia_smi", "nvidia-smi/h100x8-550-idle.txt")  # CUDA 12.4
    assert check("cuda_driver_compat", new, old_driver).verdict == "confirmed"
    assert check("cuda_driver_compat", good, old_driver).verdict == "ruled_out"


def test_processes_crowded_on_gpu0() -> None:
    rank = {"pid": 1, "name": "python", "used_mib": 30000}
    ghost = {"pid": 9, "name": "python", "used_mib": 500}
    crowded = probe(
        {"index": 0, "processes": [rank, ghost, ghost, ghost]},
        {"index": 1, "processes": [rank]},
        {"index": 2, "processes": [rank]},
    )
    verdict = check("gpu_processes_crowded", crowded)
    assert verdict.verdict == "confirmed" and str(verdict.reason).startswith("GPU 0 carries")
    even = probe({"index": 0, "processes": [rank]}, {"index": 1, "processes": [rank]})
    assert check("gpu_processes_crowded", even).verdict == "ruled_out"
    assert check("gpu_processes_crowded", probe({"index": 0, "processes": [rank]})).verdict == "inconclusive"


def test_pcie_system_limit(h100: object, shared_dir: Path) -> None:
    assert check("pcie_system_limit", h100).verdict == "ruled_out"  # Max 5, Device Max 5
    capped = ok(
        SMI_Q,
        "GPU 00000000:19:00.0\n    Product Name : NVIDIA H100 80GB HBM3\n    PCI\n"
        "        GPU Link Info\n            PCIe Generation\n                Max : 3\n"
        "                Current : 3\n                Device Current : 3\n                Device Max : 5\n",
    )
    verdict = check("pcie_system_limit", capped)
    assert verdict.verdict == "confirmed" and any(
        "Device Max : 5" in line for line in verdict.evidence[0].lines
    )
    old = shared(shared_dir, SMI_Q, "nvidia-smi-q/a100-510-row-remap-pending-excerpt.txt")  # no "Device Max"
    assert check("pcie_system_limit", old).verdict == "inconclusive"


def test_driver_versions_mixed(shared_dir: Path) -> None:
    stale = shared(
        shared_dir, "driver_version", "proc-driver-nvidia-version/470.103-stale-module-centos7.txt"
    )
    user = shared(shared_dir, "nvidia_smi", "nvidia-smi/quadro-rtx8000x10-470-idle.txt")
    assert check("driver_versions_mixed", stale, user).verdict == "confirmed"
    mismatch = shared(
        shared_dir, "nvidia_smi", "nvidia-smi-errors/nvml-mismatch-with-nvml-version-line.txt", 18
    )
    assert check("driver_versions_mixed", mismatch).verdict == "inconclusive"  # one version only
    same = shared(shared_dir, "driver_version", "proc-driver-nvidia-version/470.63.01-centos7.txt")
    assert check("driver_versions_mixed", same, user).verdict == "ruled_out"


def test_temperature_outlier_needs_no_extra_power() -> None:
    def gpu(i: int, temp: float, power: float) -> dict:
        return {"index": i, "temperature_c": temp, "power_draw_w": power}

    peers = [gpu(i, 60, 620) for i in range(1, 4)]
    defect = check("gpu_temperature_outlier", probe(gpu(0, 89, 400), *peers))
    assert defect.verdict == "confirmed" and "consistent with a cooling defect" in str(defect.reason)
    busy = check("gpu_temperature_outlier", probe(gpu(0, 89, 700), *[gpu(i, 60, 300) for i in range(1, 4)]))
    assert busy.verdict == "ruled_out" and "load, not cooling" in str(busy.reason)
    assert check("gpu_temperature_outlier", probe(gpu(0, 62, 600), *peers)).verdict == "ruled_out"
    assert check("gpu_temperature_outlier", probe(gpu(0, 89, 400))).verdict == "inconclusive"


def test_temperature_outlier_quotes_the_lines_it_read() -> None:
    one = check("gpu_temperature_outlier", fixture(SMI_Q, "outputs/nvidia-smi-q/h100-590-idle.txt"))
    assert one.verdict == "inconclusive"  # one GPU: no peers to compare with, but the reading is shown
    assert one.evidence and any("GPU Current Temp" in line for line in one.evidence[0].lines)
    eight = check(
        "gpu_temperature_outlier", fixture(SMI_Q, "outputs/nvidia-smi-q/rtx4090x8-535.154-all-idle.txt")
    )
    assert eight.verdict == "ruled_out" and len(eight.evidence[0].lines) == 8
    assert all("GPU Current Temp" in line for line in eight.evidence[0].lines)

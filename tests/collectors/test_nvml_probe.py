"""The NVML probe run for real as `python3 -` with a substituted pynvml, and its nvidia-smi fallback."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pynvml
import pytest

from collectors.parsers import gpu as gpu_facts
from collectors.parsers import nvml_probe
from collectors.probes import nvml_probe_source

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FAKE = FIXTURES / "fakenvml"
SCENARIO = FIXTURES / "nvml" / "h100x2-thermal-remap-lost.json"


def run_probe(
    tmp_path: Path,
    pythonpath: Path | None,
    smi: tuple[str, int] | None = None,
    scenario: Path | dict | None = None,
) -> nvml_probe.ProbeResult:
    """Run the probe script on stdin like the runner does; `smi` installs a fake nvidia-smi (text, exit)."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    if smi is not None:
        (bindir / "out.txt").write_text(smi[0], encoding="utf-8")
        tool = bindir / "nvidia-smi"
        tool.write_text(f"#!/bin/sh\ncat '{bindir / 'out.txt'}'\nexit {smi[1]}\n", encoding="utf-8")
        tool.chmod(0o755)
    if isinstance(scenario, dict):
        path = tmp_path / "scenario.json"
        path.write_text(json.dumps(scenario), encoding="utf-8")
        scenario = path
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "LC_ALL": "C", "PYTHONNOUSERSITE": "1"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    if scenario is not None:
        env["PITSTOP_FAKE_NVML"] = str(scenario)
    proc = subprocess.run(
        [sys.executable, "-"],
        input=nvml_probe_source(),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip().splitlines()) == 1  # one JSON object, nothing else on stdout
    return nvml_probe.parse(proc.stdout)


def test_fake_pynvml_matches_nvidia_ml_py() -> None:
    spec = importlib.util.spec_from_file_location("fake_pynvml", FAKE / "pynvml.py")
    fake = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake)
    for name in dir(fake):
        if name.startswith("NVML_") and name != "NVML_NVLINK_MAX_LINKS":
            assert getattr(pynvml, name) == getattr(fake, name), name
        elif name.startswith("nvml"):
            assert callable(getattr(pynvml, name, None)), f"nvidia-ml-py has no {name}"


def test_probe_reads_only_getters_and_uses_only_the_standard_library() -> None:
    ast.parse(nvml_probe_source(), feature_version=(3, 6))  # hosts may run an old python3 (CentOS 7: 3.6)
    tree = ast.parse(nvml_probe_source())
    imports = {
        a.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in getattr(n, "names", ())
    } | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imports - {None} <= {"json", "os", "subprocess", "sys", "pynvml"}
    called = {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and re.fullmatch(r"nvml[A-Za-z]+", n.value)
    }
    assert called and all(c.startswith(("nvmlDeviceGet", "nvmlSystemGet")) for c in called), called
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("nvml")}
    assert attrs == {"nvmlInit", "nvmlShutdown"}


def test_probe_clock_event_bits_match_nvml_and_the_parser() -> None:
    namespace: dict[str, object] = {}
    exec(compile(nvml_probe_source(), "nvml_probe", "exec"), {"__name__": "probe"}, namespace)  # noqa: S102
    assert dict(namespace["CLOCK_EVENT_BITS"]) == dict(gpu_facts.CLOCK_EVENT_BITS)
    names = {
        "gpu_idle": "GpuIdle",
        "applications_clocks_setting": "ApplicationsClocksSetting",
        "sw_power_cap": "SwPowerCap",
        "hw_slowdown": "HwSlowdown",
        "sync_boost": "SyncBoost",
        "sw_thermal_slowdown": "SwThermalSlowdown",
        "hw_thermal_slowdown": "HwThermalSlowdown",
        "hw_power_brake_slowdown": "HwPowerBrakeSlowdown",
        "display_clock_setting": "DisplayClockSetting",
    }
    for ours, theirs in names.items():
        assert gpu_facts.CLOCK_EVENT_BITS[ours] == getattr(pynvml, f"nvmlClocksEventReason{theirs}")
    assert gpu_facts.decode_clock_events(0x60)["hw_thermal_slowdown"] is True


def test_nvml_path_per_gpu_facts(tmp_path: Path) -> None:
    probe = run_probe(tmp_path, FAKE, scenario=SCENARIO)
    assert (probe.source, probe.driver_version, probe.nvml_version, probe.cuda_driver_version) == (
        "nvml",
        "535.154.05",
        "12.535.154.05",
        "12.2",
    )
    first, lost = probe.gpus
    assert (first.name, first.bus_id, first.uuid, first.vbios_version) == (
        "NVIDIA H100 80GB HBM3",
        "00000000:9B:00.0",
        "GPU-509665ad-b600-ac93-3616-d754b23d636d",
        "96.00.89.00.01",
    )
    assert first.serial is None  # NVML_ERROR_NO_PERMISSION on that one field: unknown, the rest still read
    assert (first.temperature_c, first.slowdown_temp_c, first.power_draw_w, first.power_limit_w) == (
        89,
        87,
        612.345,
        700,
    )
    assert set(first.active_clock_events) == {"sw_thermal_slowdown", "hw_thermal_slowdown"}
    assert (first.ecc_volatile_corrected, first.ecc_volatile_uncorrected) == (3, 1)
    assert (first.ecc_aggregate_corrected, first.ecc_aggregate_uncorrected) == (177, 2)
    assert (first.retired_sbe, first.retired_dbe, first.retired_pending) == (0, 0, False)
    assert (first.remap_correctable, first.remap_uncorrectable, first.remap_pending, first.remap_failure) == (
        1,
        0,
        True,
        False,
    )
    assert [link.link for link in first.nvlinks if link.state == "down"] == [3] and len(first.nvlinks) == 18
    pcie = (first.pcie_gen_current, first.pcie_gen_max, first.pcie_gen_device_max)
    assert pcie == (5, 5, 5) and (first.pcie_width_current, first.pcie_width_max) == (16, 16)
    assert (first.persistence_mode, first.mig_mode, first.compute_mode) == (True, "Disabled", "Default")
    assert [(p.pid, p.name, p.used_mib) for p in first.processes] == [(4242, "python3", 19456)]
    assert (first.memory_used_mib, first.memory_total_mib, first.utilization_pct) == (20480, 81559, 100)
    assert lost.lost and "GPU_IS_LOST" in lost.error and lost.temperature_c is None and lost.index == 1


def test_nvml_init_failure_falls_back_to_nvidia_smi(tmp_path: Path, shared_dir: Path) -> None:
    text = (shared_dir / "outputs/nvidia-smi-q/h100-590-load.txt").read_text(encoding="utf-8")
    probe = run_probe(tmp_path, FAKE, smi=(text, 0), scenario={"init_error": 9})
    assert (probe.source, probe.nvml_error) == ("nvidia-smi", "driver_not_loaded")
    assert probe.message == "the NVIDIA kernel driver is not loaded"
    assert probe.driver_version == "590.48.01" and probe.gpus[0].temperature_c == 59
    assert probe.gpus[0].source == "nvidia-smi -q"


def test_no_library_and_nvidia_smi_error_text(tmp_path: Path, shared_dir: Path) -> None:
    text = (shared_dir / "outputs/nvidia-smi-errors/couldnt-communicate-one-line.txt").read_text(
        encoding="utf-8"
    )
    probe = run_probe(tmp_path, None, smi=(text, 9))  # the real nvidia-ml-py: no libnvidia-ml.so here
    assert probe.nvml_error == "library_not_found" and probe.message.startswith("no NVIDIA driver here")
    assert probe.gpus == () and probe.smi_error.kind == "no_driver"


def test_no_pynvml_and_no_nvidia_smi(tmp_path: Path) -> None:
    blocker = tmp_path / "nopynvml"
    blocker.mkdir()
    (blocker / "pynvml.py").write_text("raise ImportError('not installed')\n", encoding="utf-8")
    probe = run_probe(tmp_path, blocker)
    assert (probe.source, probe.message, probe.smi_missing, probe.gpus) == (
        "nvidia-smi",
        "pynvml is not installed",
        True,
        (),
    )


@pytest.mark.parametrize("garbage", ["", "Traceback (most recent call last):", '{"probe": "other"}', "[1, 2"])
def test_parser_rejects_non_probe_output(garbage: str) -> None:
    assert nvml_probe.parse(garbage).source == "invalid"


def test_parser_keeps_unknown_fields_unknown() -> None:
    record = {
        "probe": "pitstop-nvml",
        "source": "nvml",
        "gpus": [
            {"index": 0, "errors": {"temperature_c": "not_supported"}, "temperature_c": None, "nvlinks": []}
        ],
    }
    gpu = nvml_probe.parse(json.dumps(record)).gpus[0]
    assert (
        gpu.temperature_c is None and gpu.nvlinks == () and gpu.clock_events is None and gpu.processes is None
    )


def test_probe_script_is_importable_without_running() -> None:
    env = dict(os.environ, PYTHONPATH=str(FAKE))
    script = str(Path(__file__).resolve().parents[2] / "collectors/probes/nvml_probe.py")
    code = f"import runpy; runpy.run_path({script!r}, run_name='not_main')"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=30, check=False
    )
    assert proc.returncode == 0 and proc.stdout == ""

"""The NVML probe run for real as `python3 -` with a substituted pynvml, and its nvidia-smi fallback."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pynvml
import pytest

from pitstop.collectors.parsers import gpu as gpu_facts
from pitstop.collectors.parsers import nvml_probe
from pitstop.collectors.probes import nvml_probe_source

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
    assert imports - {None} <= {"json", "os", "re", "subprocess", "sys", "pynvml"}
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


# --- the GPU processes' job facts, read from /proc of a real child process ------------------------

SECRET = "xyz-do-not-leak"


@pytest.fixture
def job_process() -> Iterator[subprocess.Popen[bytes]]:
    """A real process with a crafted environment, limits and arguments, standing in for a training rank."""

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    env = {
        "NCCL_IB_DISABLE": "1",
        "CONDA_PREFIX": "/opt/conda/envs/train",
        "SECRET_TOKEN": SECRET,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "PATH": "/usr/bin:/bin",
    }
    code = "import time; time.sleep(60)"
    args = [sys.executable, "-c", code, "--local-rank=0", f"--api-key={SECRET}"]
    proc = subprocess.Popen(args, env=env, preexec_fn=limits)  # noqa: S603 (fixed argv)
    yield proc
    proc.kill()
    proc.wait(timeout=10)


def nvml_with(pid: int, name: str) -> dict:
    """The thermal scenario with GPU 0 running `pid` under `name`."""
    scenario = json.loads(SCENARIO.read_text(encoding="utf-8"))
    scenario["gpus"][0]["processes"] = [{"pid": pid, "used": 1 << 30}]
    scenario["process_names"] = {str(pid): name}
    return scenario


def test_probe_reads_allow_listed_environment_limits_and_cmdline(
    tmp_path: Path, job_process: subprocess.Popen[bytes]
) -> None:
    out = run_probe(tmp_path, FAKE, scenario=nvml_with(job_process.pid, sys.executable))
    (job,) = out.jobs
    assert job.pid == job_process.pid and job.errors == {}
    assert job.environ == {"NCCL_IB_DISABLE": "1", "CONDA_PREFIX": "/opt/conda/envs/train"}
    assert (job.limits["nofile"].soft, job.limits["stack"].unlimited) == ("1024", True)
    assert job.limits["memlock"].soft_value == resource.getrlimit(resource.RLIMIT_MEMLOCK)[0]
    assert "--local-rank=0" in job.cmdline and SECRET not in job.cmdline  # redacted on this side


def test_probe_output_never_carries_other_variables(
    tmp_path: Path, job_process: subprocess.Popen[bytes]
) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(nvml_with(job_process.pid, sys.executable)), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(FAKE), "PITSTOP_FAKE_NVML": str(scenario)}
    raw = subprocess.run(
        [sys.executable, "-"], input=nvml_probe_source(), capture_output=True, text=True, env=env, check=True
    ).stdout
    record = json.loads(raw)["jobs"][0]
    assert "SECRET_TOKEN" not in raw and "AWS_SECRET_ACCESS_KEY" not in raw
    assert set(record["environ"]) == {"NCCL_IB_DISABLE", "CONDA_PREFIX"}
    # the raw cmdline leaves the host (bounded) and is redacted by the parser before it becomes evidence
    assert len(record["cmdline"]) <= 300


def test_unreadable_or_reused_pids_are_null_with_a_reason(
    tmp_path: Path, job_process: subprocess.Popen[bytes]
) -> None:
    gone = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1  # no process can have this pid
    scenario = nvml_with(job_process.pid, "/opt/conda/envs/train/bin/torchrun")
    scenario["gpus"][0]["processes"].append({"pid": gone, "used": 1 << 20})
    reused, missing = run_probe(tmp_path, FAKE, scenario=scenario).jobs
    assert reused.environ is None and reused.limits is None and reused.cmdline is None
    assert "now runs python" in reused.errors["environ"] and "not /opt/conda" in reused.errors["environ"]
    assert (missing.environ, missing.limits) == (None, None)
    assert missing.errors["limits"] == "No such file or directory"


def test_fallback_reads_the_pids_nvidia_smi_lists(
    tmp_path: Path, job_process: subprocess.Popen[bytes]
) -> None:
    text = (
        "GPU 00000000:9B:00.0\n    Product Name                          : NVIDIA H100 80GB HBM3\n"
        "    Processes\n        GPU instance ID                   : N/A\n"
        f"        Process ID                        : {job_process.pid}\n"
        "            Type                          : C\n"
        f"            Name                          : {sys.executable}\n"
        "            Used GPU Memory               : 100 MiB\n"
    )
    out = run_probe(tmp_path, FAKE, smi=(text, 0), scenario={"init_error": 9})
    assert out.source == "nvidia-smi" and [j.pid for j in out.jobs] == [job_process.pid]
    assert out.jobs[0].environ["NCCL_IB_DISABLE"] == "1"


def test_no_gpu_process_means_no_jobs_and_old_output_means_unknown(tmp_path: Path) -> None:
    scenario = json.loads(SCENARIO.read_text(encoding="utf-8"))
    scenario["gpus"][0]["processes"] = []
    assert run_probe(tmp_path, FAKE, scenario=scenario).jobs == ()
    assert nvml_probe.parse(json.dumps({"probe": "pitstop-nvml", "gpus": []})).jobs is None

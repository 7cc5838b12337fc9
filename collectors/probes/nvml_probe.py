"""Pitstop NVML probe: print read-only GPU facts as one JSON object on stdout.

Sent as-is as the host's `python3 -c` argument, so it uses the standard library plus pynvml (from
nvidia-ml-py) when the host has it, and runs on Python 3.6+. Only NVML getters are called. One helper,
`_call`, wraps every NVML call: a per-field error becomes null plus an entry in the GPU's "errors"; a
lost GPU becomes a record saying so; no library or no driver falls back to running `nvidia-smi -q`,
whose output is returned verbatim for Pitstop to parse.

For every GPU compute process it also reads, when the probe's user may, an allow-listed part of
/proc/<pid>/environ (never any other variable), three rows of /proc/<pid>/limits and the first 300
characters of /proc/<pid>/cmdline; what cannot be read is null with the reason, never a guess.
"""

import json
import os
import re
import subprocess
import sys

PROBE = "pitstop-nvml"
VERSION = 1
# nvmlClocksEventReason* bits (nvidia-ml-py), decoded to names here so the output is self-describing.
CLOCK_EVENT_BITS = (
    ("gpu_idle", 0x1),
    ("applications_clocks_setting", 0x2),
    ("sw_power_cap", 0x4),
    ("hw_slowdown", 0x8),
    ("sync_boost", 0x10),
    ("sw_thermal_slowdown", 0x20),
    ("hw_thermal_slowdown", 0x40),
    ("hw_power_brake_slowdown", 0x80),
    ("display_clock_setting", 0x100),
)
ERROR_NAMES = {
    1: "uninitialized",
    2: "invalid_argument",
    3: "not_supported",
    4: "no_permission",
    6: "not_found",
    7: "insufficient_size",
    9: "driver_not_loaded",
    10: "timeout",
    12: "library_not_found",
    13: "function_not_found",
    15: "gpu_is_lost",
    18: "lib_rm_version_mismatch",
    999: "unknown",
}
INIT_MESSAGES = {
    "library_not_found": "no NVIDIA driver here (libnvidia-ml.so not found)",
    "driver_not_loaded": "the NVIDIA kernel driver is not loaded",
    "lib_rm_version_mismatch": "Driver/library version mismatch between NVML and the kernel module",
    "no_permission": "no permission to open the NVIDIA devices",
}
COMPUTE_MODES = {0: "Default", 1: "Exclusive_Thread", 2: "Prohibited", 3: "Exclusive_Process"}
LOST = "gpu_is_lost"
# Only these environment variables ever leave the host; everything else (tokens, keys) is dropped here.
ENV_NAMES = frozenset(
    (
        "TORCH_DISTRIBUTED_DEBUG",
        "CUDA_VISIBLE_DEVICES",
        "CUDA_DEVICE_ORDER",
        "CUDA_LAUNCH_BLOCKING",
        "MASTER_ADDR",
        "MASTER_PORT",
        "WORLD_SIZE",
        "LOCAL_RANK",
        "OMP_NUM_THREADS",
        "LD_LIBRARY_PATH",
        "CONDA_PREFIX",
        "CONDA_DEFAULT_ENV",
        "VIRTUAL_ENV",
    )
)
ENV_PREFIXES = ("NCCL_", "TORCH_NCCL_")
LIMIT_ROWS = (("Max locked memory", "memlock"), ("Max open files", "nofile"), ("Max stack size", "stack"))
CMDLINE_CHARS = 300
MAX_JOBS = 64
SMI_PROCESS = re.compile(r"^\s*Process ID\s*:\s*(\d+)\s*\n\s*Type\s*:.*\n\s*Name\s*:\s*(.*)$", re.M)


class GpuLost(Exception):
    """Raised by `_call` when NVML says the GPU fell off the bus."""


def _error_name(exc):
    value = getattr(exc, "value", None)
    if value is None:
        return "function_not_found" if isinstance(exc, AttributeError) else type(exc).__name__
    return ERROR_NAMES.get(value, f"nvml_error_{value}")


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _call(errors, field, fn_name, *args):
    """Run one NVML getter by name; errors become None (recorded), a lost GPU raises GpuLost."""
    try:
        return getattr(NVML, fn_name)(*args)
    except Exception as exc:  # NVMLError subclasses, or AttributeError for an old binding
        name = _error_name(exc)
        if name == LOST:
            raise GpuLost(fn_name) from None
        errors[field] = name
        return None


def _scaled(value, divisor):
    return None if value is None else value / divisor


def _clock_events(errors, handle):
    getter = "nvmlDeviceGetCurrentClocksEventReasons"
    if not hasattr(NVML, getter):
        getter = "nvmlDeviceGetCurrentClocksThrottleReasons"
    mask = _call(errors, "clock_events", getter, handle)
    if mask is None:
        return None, None
    return dict((name, bool(mask & bit)) for name, bit in CLOCK_EVENT_BITS), mask


def _ecc(errors, handle):
    out = {}
    for counter_name, counter in (
        ("volatile", NVML.NVML_VOLATILE_ECC),
        ("aggregate", NVML.NVML_AGGREGATE_ECC),
    ):
        for kind_name, kind in (
            ("corrected", NVML.NVML_MEMORY_ERROR_TYPE_CORRECTED),
            ("uncorrected", NVML.NVML_MEMORY_ERROR_TYPE_UNCORRECTED),
        ):
            field = f"ecc_{counter_name}_{kind_name}"
            out[field] = _call(errors, field, "nvmlDeviceGetTotalEccErrors", handle, kind, counter)
    return out


def _nvlinks(errors, handle):
    """Every link NVML answers for; absent or unsupported link numbers are skipped (SKUs fuse some off)."""
    links, failures = [], {}
    for link in range(getattr(NVML, "NVML_NVLINK_MAX_LINKS", 18)):
        state = _call(failures, link, "nvmlDeviceGetNvLinkState", handle, link)
        if state is not None:
            links.append({"link": link, "state": "up" if state == NVML.NVML_FEATURE_ENABLED else "down"})
    unexpected = set(failures.values()) - {"not_supported", "invalid_argument"}
    if unexpected and not links:
        errors["nvlinks"] = sorted(unexpected)[0]
        return None
    return links


def _processes(errors, handle):
    procs = _call(errors, "processes", "nvmlDeviceGetComputeRunningProcesses", handle)
    if procs is None:
        return None
    out = []
    for proc in procs:
        used = getattr(proc, "usedGpuMemory", None)
        name = _text(_call({}, "name", "nvmlSystemGetProcessName", proc.pid)) or _comm(proc.pid)
        out.append(
            {"pid": proc.pid, "name": name or "", "used_mib": None if used is None else used // (1024 * 1024)}
        )
    return out


def _comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return None


def _read(path):
    """(bytes, None) or (None, reason): a file the probe's user may not read is a reason, not an error."""
    try:
        with open(path, "rb") as handle:
            return handle.read(), None
    except OSError as exc:
        return None, exc.strerror or type(exc).__name__


def _environ(raw):
    out = {}
    for item in raw.split(b"\0"):
        name, sep, value = _text(item).partition("=")
        if sep and (name in ENV_NAMES or name.startswith(ENV_PREFIXES)):
            out[name] = value
    return out


def _limits(raw):
    out = {}
    for line in _text(raw).splitlines():
        for label, key in LIMIT_ROWS:
            words = line[len(label) :].split() if line.startswith(label) else []
            if len(words) >= 2:
                out[key] = {"soft": words[0], "hard": words[1], "unit": words[2] if len(words) > 2 else ""}
    return out


def _job(pid, name):
    """What /proc says about one GPU process; a reused pid (another program now) is not read."""
    record = {"pid": pid, "name": name}
    raw, why = _read(f"/proc/{pid}/cmdline")
    args = [] if raw is None else [_text(a) for a in raw.split(b"\0") if a]
    record["cmdline"] = None if raw is None else " ".join(args)[:CMDLINE_CHARS]
    record["cmdline_error"] = why
    program = os.path.basename(args[0]) if args else None
    if name and program and os.path.basename(name) != program:
        reason = f"pid {pid} now runs {program}, not {name}"
        record.update(cmdline=None, cmdline_error=reason)
        record.update(environ=None, environ_error=reason, limits=None, limits_error=reason)
        return record
    for field, parse in (("environ", _environ), ("limits", _limits)):
        raw, why = _read(f"/proc/{pid}/{field}")
        record[field] = None if raw is None else parse(raw)
        record[field + "_error"] = why
    return record


def _jobs(out):
    """The GPU compute processes seen by NVML or in the nvidia-smi fallback, read from /proc."""
    seen = {}
    for gpu in out["gpus"]:
        for proc in gpu.get("processes") or ():
            seen.setdefault(proc["pid"], proc["name"])
    smi = out["nvidia_smi"] or {}
    for pid, name in SMI_PROCESS.findall(smi.get("stdout") or ""):
        seen.setdefault(int(pid), name.strip())
    return [_job(pid, seen[pid]) for pid in sorted(seen)[:MAX_JOBS]]


def _gpu(index):
    errors = {}
    record = {"index": index, "errors": errors}
    try:
        handle = _call(errors, "handle", "nvmlDeviceGetHandleByIndex", index)
        if handle is None:
            record["error"] = f"cannot get a handle: {errors.get('handle')}"
            return record
        pci = _call(errors, "bus_id", "nvmlDeviceGetPciInfo", handle)
        mig = _call(errors, "mig_mode", "nvmlDeviceGetMigMode", handle)
        ecc_mode = _call(errors, "ecc_mode", "nvmlDeviceGetEccMode", handle)
        constraints = _call(
            errors, "max_power_limit_w", "nvmlDeviceGetPowerManagementLimitConstraints", handle
        )
        remap = _call(errors, "remapped_rows", "nvmlDeviceGetRemappedRows", handle)
        persistence = _call(errors, "persistence_mode", "nvmlDeviceGetPersistenceMode", handle)
        compute = _call(errors, "compute_mode", "nvmlDeviceGetComputeMode", handle)
        util = _call(errors, "utilization_pct", "nvmlDeviceGetUtilizationRates", handle)
        memory = _call(errors, "memory", "nvmlDeviceGetMemoryInfo", handle)
        sbe = _call(
            errors,
            "retired_sbe",
            "nvmlDeviceGetRetiredPages",
            handle,
            NVML.NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS,
        )
        dbe = _call(
            errors,
            "retired_dbe",
            "nvmlDeviceGetRetiredPages",
            handle,
            NVML.NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR,
        )
        pending = _call(errors, "retired_pending", "nvmlDeviceGetRetiredPagesPendingStatus", handle)
        events, mask = _clock_events(errors, handle)
        record.update(
            {
                "name": _text(_call(errors, "name", "nvmlDeviceGetName", handle)),
                "serial": _text(_call(errors, "serial", "nvmlDeviceGetSerial", handle)),
                "uuid": _text(_call(errors, "uuid", "nvmlDeviceGetUUID", handle)),
                "bus_id": _text(pci.busId) if pci is not None else None,
                "vbios_version": _text(_call(errors, "vbios_version", "nvmlDeviceGetVbiosVersion", handle)),
                "temperature_c": _call(
                    errors, "temperature_c", "nvmlDeviceGetTemperature", handle, NVML.NVML_TEMPERATURE_GPU
                ),
                "slowdown_temp_c": _call(
                    errors,
                    "slowdown_temp_c",
                    "nvmlDeviceGetTemperatureThreshold",
                    handle,
                    NVML.NVML_TEMPERATURE_THRESHOLD_SLOWDOWN,
                ),
                "power_draw_w": _scaled(
                    _call(errors, "power_draw_w", "nvmlDeviceGetPowerUsage", handle), 1000.0
                ),
                "power_limit_w": _scaled(
                    _call(errors, "power_limit_w", "nvmlDeviceGetEnforcedPowerLimit", handle), 1000.0
                ),
                "max_power_limit_w": _scaled(constraints[1], 1000.0) if constraints else None,
                "clock_events": events,
                "sm_clock_mhz": _call(
                    errors,
                    "sm_clock_mhz",
                    "nvmlDeviceGetClockInfo",
                    handle,
                    getattr(NVML, "NVML_CLOCK_SM", 1),
                ),
                "max_sm_clock_mhz": _call(
                    errors,
                    "max_sm_clock_mhz",
                    "nvmlDeviceGetMaxClockInfo",
                    handle,
                    getattr(NVML, "NVML_CLOCK_SM", 1),
                ),
                "clock_events_mask": mask,
                "ecc_mode": None if ecc_mode is None else ("Enabled" if ecc_mode[0] else "Disabled"),
                "retired_sbe": None if sbe is None else len(sbe),
                "retired_dbe": None if dbe is None else len(dbe),
                "retired_pending": None if pending is None else pending == NVML.NVML_FEATURE_ENABLED,
                "remap_correctable": remap[0] if remap else None,
                "remap_uncorrectable": remap[1] if remap else None,
                "remap_pending": bool(remap[2]) if remap else None,
                "remap_failure": bool(remap[3]) if remap else None,
                "nvlinks": _nvlinks(errors, handle),
                "pcie_gen_current": _call(
                    errors, "pcie_gen_current", "nvmlDeviceGetCurrPcieLinkGeneration", handle
                ),
                "pcie_gen_max": _call(errors, "pcie_gen_max", "nvmlDeviceGetMaxPcieLinkGeneration", handle),
                "pcie_width_current": _call(
                    errors, "pcie_width_current", "nvmlDeviceGetCurrPcieLinkWidth", handle
                ),
                "pcie_width_max": _call(errors, "pcie_width_max", "nvmlDeviceGetMaxPcieLinkWidth", handle),
                "pcie_gen_device_max": _call(
                    errors, "pcie_gen_device_max", "nvmlDeviceGetGpuMaxPcieLinkGeneration", handle
                ),
                "persistence_mode": None if persistence is None else persistence == NVML.NVML_FEATURE_ENABLED,
                "mig_mode": ("N/A" if errors.get("mig_mode") == "not_supported" else None)
                if mig is None
                else ("Enabled" if mig[0] == NVML.NVML_DEVICE_MIG_ENABLE else "Disabled"),
                "compute_mode": None if compute is None else COMPUTE_MODES.get(compute, str(compute)),
                "utilization_pct": None if util is None else util.gpu,
                "memory_used_mib": None if memory is None else memory.used // (1024 * 1024),
                "memory_total_mib": None if memory is None else memory.total // (1024 * 1024),
                "processes": _processes(errors, handle),
            }
        )
        record.update(_ecc(errors, handle))
    except GpuLost as lost:
        record.update({"lost": True, "error": f"GPU is lost (NVML_ERROR_GPU_IS_LOST during {lost})"})
    return record


def _nvidia_smi():
    """Fallback: run `nvidia-smi -q` (read-only) and return its output verbatim."""
    env = dict(os.environ, LC_ALL="C")
    try:
        proc = subprocess.run(  # noqa: UP022 (capture_output is Python 3.7+; hosts may run 3.6)
            ["nvidia-smi", "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60
        )
    except FileNotFoundError:
        return {"missing": True}
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    return {
        "exit": proc.returncode,
        # the tail, small enough to stay under the catalog's 2 MiB cap once JSON-escaped
        "stdout": proc.stdout.decode("utf-8", "replace")[-1500000:],
        "stderr": proc.stderr.decode("utf-8", "replace")[-20000:],
    }


def _cuda_version(value):
    return None if value is None else f"{value // 1000}.{(value % 1000) // 10}"


def probe():
    """Collect everything, then the GPU processes' job facts; never raises."""
    out = _devices()
    try:
        out["jobs"] = _jobs(out)
    except Exception as exc:  # reading /proc is best effort; the GPU facts stand on their own
        out["jobs_error"] = type(exc).__name__
    return out


def _devices():
    out = {
        "probe": PROBE,
        "version": VERSION,
        "source": "nvml",
        "nvml_error": None,
        "message": "",
        "driver_version": None,
        "nvml_version": None,
        "cuda_driver_version": None,
        "gpus": [],
        "nvidia_smi": None,
        "jobs": [],
    }
    if NVML is None:
        out.update(
            source="nvidia-smi",
            nvml_error="library_not_found",
            message="pynvml is not installed",
            nvidia_smi=_nvidia_smi(),
        )
        return out
    errors = {}
    try:
        NVML.nvmlInit()
    except Exception as exc:
        name = _error_name(exc)
        out.update(
            source="nvidia-smi",
            nvml_error=name,
            message=INIT_MESSAGES.get(name, "nvmlInit failed: " + name),
            nvidia_smi=_nvidia_smi(),
        )
        return out
    try:
        out["driver_version"] = _text(_call(errors, "driver_version", "nvmlSystemGetDriverVersion"))
        out["nvml_version"] = _text(_call(errors, "nvml_version", "nvmlSystemGetNVMLVersion"))
        out["cuda_driver_version"] = _cuda_version(_call(errors, "cuda", "nvmlSystemGetCudaDriverVersion"))
        count = _call(errors, "count", "nvmlDeviceGetCount")
        out["gpus"] = [_gpu(i) for i in range(count or 0)]
        if count is None:
            out["message"] = f"cannot count GPUs: {errors.get('count')}"
    finally:
        try:
            NVML.nvmlShutdown()
        except Exception:  # shutting down is best effort
            pass
    return out


try:
    import pynvml as NVML
except ImportError:
    NVML = None

if __name__ == "__main__":
    json.dump(probe(), sys.stdout, sort_keys=True)
    sys.stdout.write("\n")

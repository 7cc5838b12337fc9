"""The NVML probe's JSON (collectors/probes/nvml_probe.py) -> GPU records (or its nvidia-smi fallback)
and the GPU processes' job facts (allow-listed environment, limits, command line)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers import nvidia_smi_q, smi_error
from pitstop.collectors.parsers.gpu import Gpu, GpuProcess, NvLink
from pitstop.core.redact import redact

_GPU_FIELDS = (
    "name",
    "serial",
    "uuid",
    "bus_id",
    "vbios_version",
    "temperature_c",
    "slowdown_temp_c",
    "power_draw_w",
    "power_limit_w",
    "max_power_limit_w",
    "sm_clock_mhz",
    "max_sm_clock_mhz",
    "ecc_mode",
    "ecc_volatile_corrected",
    "ecc_volatile_uncorrected",
    "ecc_aggregate_corrected",
    "ecc_aggregate_uncorrected",
    "retired_sbe",
    "retired_dbe",
    "retired_pending",
    "remap_correctable",
    "remap_uncorrectable",
    "remap_pending",
    "remap_failure",
    "pcie_gen_current",
    "pcie_gen_max",
    "pcie_width_current",
    "pcie_width_max",
    "pcie_gen_device_max",
    "persistence_mode",
    "mig_mode",
    "compute_mode",
    "utilization_pct",
    "memory_used_mib",
    "memory_total_mib",
)


@dataclass(frozen=True)
class Limit:
    """One row of /proc/<pid>/limits: soft and hard as printed ("unlimited" or a number)."""

    soft: str
    hard: str
    unit: str = ""

    @property
    def unlimited(self) -> bool:
        """The soft limit is unlimited."""
        return self.soft == "unlimited"

    @property
    def soft_value(self) -> int | None:
        """The soft limit as a number; None when unlimited or unreadable."""
        return int(self.soft) if self.soft.isdigit() else None

    def line(self, label: str) -> str:
        """The row as evidence."""
        return f"{label}: soft {self.soft}, hard {self.hard} {self.unit}".rstrip()


@dataclass(frozen=True)
class Job:
    """A GPU compute process as /proc shows it; a None field was not readable (its reason in `errors`)."""

    pid: int
    name: str
    cmdline: str | None  # redacted, at most 300 characters
    environ: Mapping[str, str] | None  # allow-listed variables only
    limits: Mapping[str, Limit] | None  # "memlock", "nofile", "stack"
    errors: Mapping[str, str]

    @property
    def label(self) -> str:
        """ "pid 123 (python)"."""
        return f"pid {self.pid} ({self.name or 'unknown'})"


def _job(record: Mapping[str, Any]) -> Job:
    limits = record.get("limits")
    cmdline = record.get("cmdline")
    return Job(
        pid=int(record["pid"]),
        name=str(record.get("name") or ""),
        cmdline=None if cmdline is None else redact(str(cmdline)),
        environ=None
        if record.get("environ") is None
        else {str(k): str(v) for k, v in record["environ"].items()},
        limits=None if limits is None else {str(k): Limit(**v) for k, v in limits.items()},
        errors={
            field: str(record[f"{field}_error"])
            for field in ("cmdline", "environ", "limits")
            if record.get(f"{field}_error")
        },
    )


@dataclass(frozen=True)
class ProbeResult:
    """What the probe saw. `source` is "nvml", "nvidia-smi" (fallback) or "invalid" (output not JSON)."""

    source: str
    gpus: tuple[Gpu, ...] = ()
    driver_version: str | None = None
    nvml_version: str | None = None
    cuda_driver_version: str | None = None
    nvml_error: str | None = None
    message: str = ""
    smi: nvidia_smi_q.SmiQuery | None = None
    smi_missing: bool = False
    jobs: tuple[Job, ...] | None = None  # None: this probe output carries no job facts

    @property
    def smi_error(self) -> smi_error.SmiError | None:
        """The nvidia-smi error text of the fallback, if any."""
        return self.smi.error if self.smi else None


def _gpu(record: dict[str, Any], driver: str | None) -> Gpu:
    values: dict[str, Any] = {name: record.get(name) for name in _GPU_FIELDS}  # JSON from the probe
    links = record.get("nvlinks")
    procs = record.get("processes")
    return Gpu(
        index=record.get("index"),
        driver_version=driver,
        clock_events=record.get("clock_events"),
        nvlinks=None if links is None else tuple(NvLink(int(x["link"]), str(x["state"])) for x in links),
        processes=None
        if procs is None
        else tuple(
            GpuProcess(pid=p.get("pid"), name=p.get("name") or "", used_mib=p.get("used_mib")) for p in procs
        ),
        lost=bool(record.get("lost")),
        error=str(record.get("error") or ""),
        source="nvml",
        **values,
    )


def parse(text: str) -> ProbeResult:
    """Parse the JSON line; never raises (garbage gives source "invalid")."""
    data: Any = None
    for candidate in (text.strip(), *reversed((text or "").strip().splitlines())):
        try:
            data = json.loads(candidate)
            break
        except (ValueError, TypeError):
            continue
    if not isinstance(data, dict) or data.get("probe") != "pitstop-nvml":
        return ProbeResult(source="invalid", message="the NVML probe printed no result")
    smi_out = data.get("nvidia_smi") or {}
    smi = None
    if "stdout" in smi_out or "stderr" in smi_out:
        # joined as Facts joins a command's streams, so an equal output is parsed once (parsers/memo.py)
        smi = nvidia_smi_q.parse(
            "\n".join(s for s in (smi_out.get("stdout", ""), smi_out.get("stderr", "")) if s)
        )
    driver = data.get("driver_version")
    try:
        gpus = tuple(_gpu(g, driver) for g in data.get("gpus") or () if isinstance(g, dict))
    except (TypeError, ValueError, KeyError):
        gpus = ()
    try:
        jobs = None if data.get("jobs") is None else tuple(_job(j) for j in data["jobs"])
    except (TypeError, ValueError, KeyError, AttributeError):
        jobs = None
    return ProbeResult(
        jobs=jobs,
        source=str(data.get("source") or "nvml"),
        gpus=gpus or (smi.gpus if smi else ()),
        driver_version=driver or (smi.driver_version if smi else None),
        nvml_version=data.get("nvml_version"),
        cuda_driver_version=data.get("cuda_driver_version") or (smi.cuda_version if smi else None),
        nvml_error=data.get("nvml_error"),
        message=str(data.get("message") or ""),
        smi=smi,
        smi_missing=bool(smi_out.get("missing")),
    )

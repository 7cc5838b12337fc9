"""The NVML probe's JSON (collectors/probes/nvml_probe.py) -> GPU records, or its nvidia-smi fallback."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from collectors.parsers import nvidia_smi_q, smi_error
from collectors.parsers.gpu import Gpu, GpuProcess, NvLink

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

    @property
    def smi_error(self) -> smi_error.SmiError | None:
        """The nvidia-smi error text of the fallback, if any."""
        return self.smi.error if self.smi else None


def _gpu(record: dict[str, Any], driver: str | None) -> Gpu:
    values = {name: record.get(name) for name in _GPU_FIELDS}
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
        smi = nvidia_smi_q.parse(f"{smi_out.get('stdout', '')}\n{smi_out.get('stderr', '')}")
    driver = data.get("driver_version")
    try:
        gpus = tuple(_gpu(g, driver) for g in data.get("gpus") or () if isinstance(g, dict))
    except (TypeError, ValueError, KeyError):
        gpus = ()
    return ProbeResult(
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

"""The per-GPU record shared by the `nvidia-smi -q` parser and the NVML probe parser."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

# Clock event (throttle) reasons: canonical name -> NVML bit (nvmlClocksEventReason* in nvidia-ml-py).
CLOCK_EVENT_BITS: Mapping[str, int] = {
    "gpu_idle": 0x1,
    "applications_clocks_setting": 0x2,
    "sw_power_cap": 0x4,
    "hw_slowdown": 0x8,
    "sync_boost": 0x10,
    "sw_thermal_slowdown": 0x20,
    "hw_thermal_slowdown": 0x40,
    "hw_power_brake_slowdown": 0x80,
    "display_clock_setting": 0x100,
}


@dataclass(frozen=True)
class NvLink:
    """One NVLink of one GPU: state 'up' | 'down' | 'disabled' | 'unknown'."""

    link: int
    state: str
    speed_gbps: float | None = None
    line: str = ""


@dataclass(frozen=True)
class GpuProcess:
    """A process holding memory on a GPU."""

    pid: int | None
    name: str
    used_mib: int | None


@dataclass(frozen=True)
class Gpu:
    """What is known about one GPU; every field None when it could not be read."""

    index: int | None = None
    bus_id: str | None = None
    name: str | None = None
    serial: str | None = None
    uuid: str | None = None
    driver_version: str | None = None
    vbios_version: str | None = None
    temperature_c: float | None = None
    slowdown_temp_c: float | None = None
    power_draw_w: float | None = None
    power_limit_w: float | None = None
    max_power_limit_w: float | None = None
    clock_events: Mapping[str, bool] | None = None  # canonical reason -> active
    sm_clock_mhz: float | None = None
    max_sm_clock_mhz: float | None = None
    ecc_mode: str | None = None
    ecc_volatile_corrected: int | None = None
    ecc_volatile_uncorrected: int | None = None
    ecc_aggregate_corrected: int | None = None
    ecc_aggregate_uncorrected: int | None = None
    retired_sbe: int | None = None
    retired_dbe: int | None = None
    retired_pending: bool | None = None
    remap_correctable: int | None = None
    remap_uncorrectable: int | None = None
    remap_pending: bool | None = None
    remap_failure: bool | None = None
    nvlinks: tuple[NvLink, ...] | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    pcie_width_current: int | None = None
    pcie_width_max: int | None = None
    pcie_gen_device_max: int | None = None  # the GPU's own maximum, whatever the platform allows
    persistence_mode: bool | None = None
    mig_mode: str | None = None
    compute_mode: str | None = None
    utilization_pct: float | None = None
    memory_used_mib: int | None = None
    memory_total_mib: int | None = None
    processes: tuple[GpuProcess, ...] | None = None
    recovery_action: str | None = None
    fabric_state: str | None = None  # -q Fabric State: Completed | In Progress | Not Started (None: N/A)
    fabric_status: str | None = None  # -q Fabric Status: Success, or the failure NVML gave (None: N/A)
    fabric_clique_id: str | None = None
    fabric_cluster_uuid: str | None = None
    lost: bool = False
    error: str = ""
    source: str = ""  # "nvml" | "nvidia-smi -q"
    lines: Mapping[str, str] = field(default_factory=dict)  # field name -> the output line it came from

    def line(self, name: str) -> str:
        """The source line of one field, or a synthetic `field: value` line when there is none."""
        if name in self.lines:
            return self.lines[name]
        return f"{name}: {self.value(name)} ({self.source or 'probe'})"

    def value(self, name: str) -> object:
        """A field by name; `clock_events.<reason>` reaches into the reasons."""
        head, _, key = name.partition(".")
        return (getattr(self, head, None) or {}).get(key) if key else getattr(self, name, None)

    @property
    def label(self) -> str:
        """A short human name: index and bus id when known."""
        parts = [str(self.index) if self.index is not None else "?"]
        if self.bus_id:
            parts.append(self.bus_id)
        return " ".join(parts)

    @property
    def active_clock_events(self) -> tuple[str, ...] | None:
        """Names of the active clock event reasons, None when they could not be read."""
        if self.clock_events is None:
            return None
        return tuple(name for name, active in self.clock_events.items() if active)


def decode_clock_events(mask: int) -> dict[str, bool]:
    """NVML bitmask -> {reason: active} over every known reason."""
    return {name: bool(mask & bit) for name, bit in CLOCK_EVENT_BITS.items()}


def short_bus_id(bus_id: str | None) -> str | None:
    """Normalise a PCI address to `bb:dd` lower case ("00000000:9B:00.0" and "PCI:0000:9b:00" -> "9b:00"),
    keeping a domain other than 0 ("PCI:0009:01:00" -> "0009:01:00"): a GB200 tray has its GPUs at bus 01
    of domains 0008, 0009, 0018 and 0019, four GPUs that `bb:dd` alone would make one."""
    if not bus_id:
        return None
    match = re.search(
        r"(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})(?:\.[0-7])?\s*$", bus_id.strip()
    )
    if not match:
        return None
    domain = int(match.group(1), 16) if match.group(1) else 0
    short = f"{match.group(2)}:{match.group(3)}".lower()
    return f"{domain:04x}:{short}" if domain else short

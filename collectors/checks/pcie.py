"""PCIe checks over `lspci -vv`: link downtraining, ACS redirection, which kernel driver owns the GPU."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.checks.gpu import GPU, idle
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers.gpu import short_bus_id
from pitstop.collectors.parsers.lspci import PciDevice
from pitstop.core.i18n import msg

NVIDIA_VENDOR_ID = "10de"
DEVICE_FILTERS: Mapping[str, re.Pattern[str]] = {
    "gpu": re.compile(r"NVIDIA.*|3D controller|VGA compatible controller", re.I),
    "nic": re.compile(r"Ethernet controller|Infiniband controller|Network controller", re.I),
    "any": re.compile(r".*"),
}


def _selected(device: PciDevice, kind: str) -> bool:
    if kind == "gpu":
        return (device.vendor == "nvidia" or device.vendor_id == NVIDIA_VENDOR_ID) and device.gpu_class
    return bool(DEVICE_FILTERS.get(kind, DEVICE_FILTERS["any"]).search(device.device_class))


def _idle_gpus(facts: Facts) -> dict[str, bool | None]:
    """Short bus id -> whether the NVIDIA GPU there was idle when NVML or `nvidia-smi -q` read it."""
    _, gpus = facts.gpus()
    return {bus: idle(g) for g in gpus or () if (bus := short_bus_id(g.bus_id or ""))}


def pcie_link_downgraded(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """LnkSta speed or width below LnkCap for GPUs (default), NICs or any device.

    An NVIDIA GPU lowers its link speed when idle, on purpose: a GPU link that is only slower (full
    width) counts when the GPU was busy, and is inconclusive when it was idle or its load is unknown.
    """
    pci = facts.get("lspci")
    if pci is None:
        return inconclusive(facts.why_missing("lspci"))
    kind = str(params.get("device", "gpu"))
    devices = [d for d in pci.devices if _selected(d, kind)]
    if not devices:
        return inconclusive(msg("reasons.pcie.no_device", kind=kind))
    idle_at = _idle_gpus(facts) if kind == "gpu" else {}

    def saving(d: PciDevice) -> bool | None:  # False: a slower link on a busy GPU (or not a GPU)
        return None if kind != "gpu" else idle_at.get(short_bus_id(d.slot) or "")

    down = [
        d for d in devices if d.narrower or (d.slower and saving(d) is False) or (d.slower and kind != "gpu")
    ]
    lines = [f"{d.slot} {d.description}: {d.cap_line} | {d.sta_line}" for d in (down or devices)]
    if down:
        return confirmed(
            msg("reasons.pcie.downgraded", n=len(down), kind=kind), facts.evidence("lspci", lines)
        )
    slow = [d for d in devices if d.slower]
    if slow:
        key = (
            "reasons.pcie.slower_idle" if all(saving(d) for d in slow) else "reasons.pcie.slower_load_unknown"
        )
        shown = [f"{d.slot} {d.description}: {d.cap_line} | {d.sta_line}" for d in slow]
        return inconclusive(msg(key, n=len(slow)), facts.evidence("lspci", shown))
    if all(d.downgraded is None for d in devices):
        if any(d.access_denied for d in devices):
            return inconclusive(msg("reasons.pcie.status_denied"))
        return inconclusive(msg("reasons.pcie.status_missing"))
    return ruled_out(msg("reasons.pcie.links_ok", kind=kind), facts.evidence("lspci", lines[:8]))


def pci_acs_redirect(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """ACS ReqRedir+/CmpltRedir+ on a PCIe bridge above an NVIDIA GPU (its bus range holds the GPU's
    bus): GPU peer-to-peer traffic is forced up to the root complex. Bridges above other devices
    (NVMe, NICs) do not count."""
    pci = facts.get("lspci")
    if pci is None:
        return inconclusive(facts.why_missing("lspci"))
    gpus = [d.bus for d in pci.devices if _selected(d, "gpu") and d.bus is not None]
    if not gpus:
        return inconclusive(msg("reasons.pcie.no_gpu_p2p"))
    above = [
        d
        for d in pci.devices
        if d.acs_redirect is not None and d.buses and any(d.buses[0] <= b <= d.buses[1] for b in gpus)
    ]
    if not above:
        return inconclusive(msg("reasons.pcie.no_acs_line"))
    on = [d for d in above if d.acs_redirect]
    lines = [f"{d.slot} {d.description}: {d.acs_line}" for d in (on or above)]
    if on:
        return confirmed(msg("reasons.pcie.acs_on"), facts.evidence("lspci", lines))
    return ruled_out(msg("reasons.pcie.acs_off"), facts.evidence("lspci", lines[:6]))


def pci_kernel_driver(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Which kernel driver owns the NVIDIA GPUs (nouveau conflict)."""
    pci = facts.get("lspci")
    if pci is None:
        return inconclusive(facts.why_missing("lspci"))
    wanted = str(params.get("driver", "nouveau"))
    gpus = [d for d in pci.devices if _selected(d, "gpu")]
    if not gpus:
        return inconclusive(msg("reasons.pcie.no_gpu"))
    lines = [f"{d.slot} {d.description}: Kernel driver in use: {d.driver or 'none'}" for d in gpus]
    if any(d.driver == wanted for d in gpus):
        return confirmed(msg("reasons.pcie.bound_to", driver=wanted), facts.evidence("lspci", lines))
    if all(d.driver is None for d in gpus):
        return inconclusive(msg("reasons.pcie.unbound"), facts.evidence("lspci", lines))
    return ruled_out(msg("reasons.pcie.not_bound_to", driver=wanted), facts.evidence("lspci", lines))


SPECS = (
    spec(
        pcie_link_downgraded,
        ("lspci", *GPU),
        {"device": "gpu (default) | nic | any"},
        describe={
            "en": (
                "Compares each device's PCIe link speed and width with what the link is "
                "capable of: a narrower link, or a slower one on a busy GPU, confirms it; a "
                "GPU link that is only slower while the GPU is idle (power saving) or of "
                "unknown load is inconclusive; full speed and width rule it out."
            ),
            "zh": (
                "比较每个设备 PCIe 链路当前的速率和宽度与它的能力上限：宽度降了，或 GPU 在忙时速率降了，"
                "即确认；GPU 空闲（节能）或负载不明时只是速率降低，无法判断；满速满宽则排除。"
            ),
        },
    ),
    spec(
        pci_acs_redirect,
        ("lspci",),
        describe={
            "en": (
                "Reads the access-control (ACS) settings of the PCIe bridges above the NVIDIA GPUs: "
                "request redirection turned on there confirms it, turned off on all of them rules it out."
            ),
            "zh": (
                "读取 NVIDIA GPU 上游 PCIe 桥的 ACS（访问控制）设置：这些桥开启了请求重定向即确认，"
                "全部关闭则排除。"
            ),
        },
    ),
    spec(
        pci_kernel_driver,
        ("lspci",),
        {"driver": "driver that confirms (default nouveau)"},
        describe={
            "en": (
                "Reads which kernel driver owns each NVIDIA GPU: the conflicting driver "
                "(nouveau) confirms it, the nvidia driver rules it out."
            ),
            "zh": (
                "读取每张 NVIDIA GPU 由哪个内核驱动接管：是冲突的 nouveau 驱动即确认，是 nvidia 驱动则排除。"
            ),
        },
    ),
)

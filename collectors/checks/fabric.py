"""NVLink and Fabric Manager checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.checks.gpu import form_factor
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers.gpu import Gpu
from pitstop.core.i18n import msg

_FABRIC_PENDING = ("in progress", "not started")
_FABRIC_RERUN = "nvidia-smi -q | grep -A4 Fabric"
_DOWN = ("down", "disabled")  # link states that are down; "unknown" (a state not recognised) is neither


def _fabric(facts: Facts) -> tuple[list[Gpu], list[Gpu], list[Gpu]]:
    """`nvidia-smi -q` Fabric sections: (registered: Completed + Success, not initialised: In Progress /
    Not Started / Completed with a failure status, unclear: any other reading). N/A and Not Supported
    (PCIe boards, no NVSwitch) are in none of them: they say nothing."""
    smi = facts.get("nvidia_smi_q")
    done: list[Gpu] = []
    pending: list[Gpu] = []
    unclear: list[Gpu] = []
    for gpu in smi.gpus if smi is not None else ():
        state = (gpu.fabric_state or "").lower()
        status = (gpu.fabric_status or "").lower()
        if not state:
            continue
        if state == "completed" and status == "success":
            done.append(gpu)
        elif state in _FABRIC_PENDING or (state == "completed" and status):
            pending.append(gpu)
        else:  # Completed without a status, or a state this parser does not know
            unclear.append(gpu)
    return done, pending, unclear


def _fabric_lines(gpus: list[Gpu]) -> list[str]:
    return [
        f"GPU {g.label}: {g.line('fabric_state')}; {g.line('fabric_status')}"
        if "fabric_status" in g.lines
        else f"GPU {g.label}: {g.line('fabric_state')}"
        for g in gpus
    ]


def fabric_manager_state(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """nvidia-fabricmanager is not active (running), read with the GPUs' `-q` Fabric state."""
    status = facts.get("fabricmanager_status")
    done, pending, unclear = _fabric(facts)
    fm_down = (
        status is not None
        and not status.not_found
        and status.active is not None
        and not (status.active == "active" and status.sub in (None, "running"))
    )
    fm_lines = [status.line] if status is not None and status.line else []
    if pending:  # the GPUs say the fabric is not set up
        gpus = ", ".join(f"GPU {g.label}" for g in pending[:6])
        smi = facts.evidence("nvidia_smi_q", _fabric_lines(pending)[:8], rerun=_FABRIC_RERUN)
        if fm_down:
            state = " ".join(filter(None, (status.active, status.sub))) if status else ""
            return confirmed(
                msg("reasons.fabric.fabric_pending_fm_down", gpus=gpus, state=state),
                facts.evidence("fabricmanager_status", fm_lines),
                smi,
            )
        return inconclusive(msg("reasons.fabric.fabric_pending", gpus=gpus), smi)
    if done and not unclear:  # registered with the fabric: CUDA is not held back by it
        smi = facts.evidence("nvidia_smi_q", _fabric_lines(done)[:8], rerun=_FABRIC_RERUN)
        return ruled_out(msg("reasons.fabric.fabric_completed", n=len(done)), smi)
    if status is None:
        return inconclusive(facts.why_missing("fabricmanager_status"))
    if status.not_found:
        return inconclusive(
            msg("reasons.fabric.fm_not_installed"), facts.evidence("fabricmanager_status", [status.line])
        )
    if status.active is None:
        return inconclusive(msg("reasons.fabric.state_not_shown"))
    evidence = facts.evidence("fabricmanager_status", [status.line])
    if not fm_down:
        return ruled_out(msg("reasons.fabric.fm_running"), evidence)
    return confirmed(
        msg("reasons.fabric.fm_state", state=" ".join(filter(None, (status.active, status.sub)))), evidence
    )


def nvlink_state(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Some NVLink is down/inactive, or fewer links than expected are up."""
    expected = params.get("count") or ctx.expectations.get("nvlink_count")
    status = facts.get("nvidia_smi_nvlink")
    if status is not None and status.gpus:
        per_gpu = [
            (f"GPU {g.index}", g.links, g.line) for g in status.gpus if g.supported and not g.all_inactive
        ]
        inactive = [g for g in status.gpus if g.all_inactive]
        collector = "nvidia_smi_nvlink"
    else:
        _, gpus = facts.gpus()
        per_gpu = [(f"GPU {g.label}", g.nvlinks, g.label) for g in gpus or () if g.nvlinks]
        inactive = []
        collector = "nvml_probe"
    if not per_gpu and not inactive:
        if status is not None and status.error is not None:
            return inconclusive(msg("reasons.driver.smi_fails", error=status.error.line))
        if status is None and collector == "nvml_probe" and not facts.gpus()[1]:
            return inconclusive(facts.why_missing("nvidia_smi_nvlink", "nvml_probe"))
        shown = [f"GPU {g.index}: {g.name}: no NVLink" for g in status.gpus] if status else []
        evidence = facts.evidence(
            collector if status is None else "nvidia_smi_nvlink", shown or ["(no GPU reports an NVLink)"]
        )
        if expected:
            return confirmed(msg("reasons.fabric.no_nvlink_expected", expected=expected), evidence)
        return inconclusive(msg("reasons.fabric.no_nvlink"), evidence)
    if not all(links for _, links, _ in per_gpu):  # a GPU line without link lines shows nothing
        return inconclusive(msg("reasons.fabric.gpu_without_links"))
    # NVML prints one line in place of the link lines when no link of a GPU is active
    lines = [line for g in inactive for line in (g.line, g.all_inactive or "")]
    bad = [f"GPU {g.index} (0 up)" for g in inactive]
    unsure: list[str] = []  # GPUs whose links read neither up nor down (a state the parser does not know)
    unsure_lines: list[str] = []
    for name, links, head in per_gpu:
        links = tuple(link for link in links if link.state != "unsupported")  # no such link on this SKU
        down = [link for link in links if link.state in _DOWN]
        unknown = [link for link in links if link.state != "up" and link.state not in _DOWN]
        n_up = len(links) - len(down) - len(unknown)
        short = expected is not None and n_up + len(unknown) < int(expected)  # short even if all came up
        if down or short:
            bad.append(f"{name} ({n_up}/{len(links)} up)")
            lines.append(head)
            lines.extend(link.line or f"link {link.link}: {link.state}" for link in down[:6])
        elif unknown:
            unsure.append(f"{name} ({len(unknown)}/{len(links)})")
            unsure_lines.append(head)
            unsure_lines.extend(link.line or f"link {link.link}: {link.state}" for link in unknown[:6])
    if bad:
        down_on = (
            msg("reasons.fabric.links_down_expected", gpus=", ".join(bad), expected=expected)
            if expected
            else msg("reasons.fabric.links_down", gpus=", ".join(bad))
        )
        return confirmed(down_on, facts.evidence(collector, lines))
    if unsure:
        return inconclusive(
            msg("reasons.fabric.links_unknown", gpus=", ".join(unsure)),
            facts.evidence(collector, unsure_lines),
        )
    up = [x for _, links, head in per_gpu for x in (head, *(link.line for link in links[:2]))]
    return ruled_out(msg("reasons.fabric.links_up", n=len(per_gpu)), facts.evidence(collector, up[:8]))


def nvlink_topology(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """GPU pairs without the expected NV# connection in `topo -m` (SXM systems)."""
    topo = facts.get("nvidia_smi_topo")
    if topo is None:
        return inconclusive(facts.why_missing("nvidia_smi_topo"))
    gpus = [g.name for g in topo.gpus]
    if len(gpus) < 2:
        return inconclusive(msg("reasons.fabric.fewer_than_two_gpus"))
    expected = params.get("count") or ctx.expectations.get("nvlink_count")
    wants_nvlink = expected or str(ctx.expectations.get("form_factor", "")).upper().startswith("SXM")
    if not wants_nvlink:
        return inconclusive(msg("reasons.fabric.no_expectation"))
    _, facts_gpus = facts.gpus()
    wants_sxm = str(ctx.expectations.get("form_factor", "")).upper().startswith("SXM")
    if wants_sxm and facts_gpus and all(form_factor(g) == "PCIe" for g in facts_gpus):
        return inconclusive(msg("reasons.fabric.pcie_not_sxm"))
    pairs = [(a, b, topo.nvlinks_between(a, b)) for i, a in enumerate(gpus) for b in gpus[i + 1 :]]
    weak = [(a, b, n) for a, b, n in pairs if n is not None and (n == 0 or (expected and n < int(expected)))]
    lines = [topo.header_line, *[d.line for d in topo.gpus]]
    if weak:
        sample = ", ".join(f"{a}-{b}: {'NV' + str(n) if n else 'PCIe only'}" for a, b, n in weak[:6])
        return confirmed(
            msg("reasons.fabric.weak_pairs", n=len(weak), sample=sample),
            facts.evidence("nvidia_smi_topo", lines),
        )
    return ruled_out(msg("reasons.fabric.pairs_ok"), facts.evidence("nvidia_smi_topo", lines))


SPECS = (
    spec(
        fabric_manager_state,
        ("fabricmanager_status", "nvidia_smi_q"),
        describe={
            "en": (
                "Asks systemd whether the Fabric Manager service runs and reads each GPU's fabric "
                "registration state: GPUs not registered while the service is down confirm it, GPUs "
                "registered (Completed, Success) or a running service rule it out."
            ),
            "zh": (
                "通过 systemd 查看 Fabric Manager 服务是否在运行，并读取每张 GPU 的 fabric 注册状态："
                "服务没有运行且有 GPU 没有完成注册即确认，"
                "GPU 已完成注册（Completed、Success）或服务正在运行则排除。"
            ),
        },
    ),
    spec(
        nvlink_state,
        ("nvidia_smi_nvlink",),
        {"count": "links per GPU (or expectations.nvlink_count)"},
        describe={
            "en": (
                "Reads the state of each GPU's NVLink links: a link down or fewer links "
                "than expected confirm it, all links up rule it out."
            ),
            "zh": ("读取每张 GPU 的 NVLink 链路状态：有链路断开或数量少于预期即确认，全部正常则排除。"),
        },
    ),
    spec(
        nvlink_topology,
        ("nvidia_smi_topo", "nvml_probe"),
        {"count": "NVLinks per pair (or expectations.nvlink_count)"},
        describe={
            "en": (
                "Reads the GPU-to-GPU topology matrix: GPU pairs without the expected NVLink "
                "connection confirm it, the full mesh rules it out."
            ),
            "zh": ("读取 GPU 之间的拓扑矩阵：有 GPU 对之间缺少预期的 NVLink 连接即确认，全互联则排除。"),
        },
    ),
)

"""NVLink and Fabric Manager checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.checks.gpu import form_factor
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.core.i18n import msg

_DOWN = ("down", "disabled")  # link states that are down; "unknown" (a state not recognised) is neither


def fabric_manager_state(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """nvidia-fabricmanager is not active (running)."""
    status = facts.get("fabricmanager_status")
    if status is None:
        return inconclusive(facts.why_missing("fabricmanager_status"))
    if status.not_found:
        return inconclusive(
            msg("reasons.fabric.fm_not_installed"), facts.evidence("fabricmanager_status", [status.line])
        )
    if status.active is None:
        return inconclusive(msg("reasons.fabric.state_not_shown"))
    evidence = facts.evidence("fabricmanager_status", [status.line])
    if status.active == "active" and status.sub in (None, "running"):
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
        ("fabricmanager_status",),
        describe={
            "en": (
                "Asks systemd whether the Fabric Manager service runs: not running confirms "
                "it, running rules it out."
            ),
            "zh": ("通过 systemd 查看 Fabric Manager 服务是否在运行：没有运行即确认，正在运行则排除。"),
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

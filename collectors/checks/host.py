"""Host checks: CPU governor, kernel command line, NUMA layout and GPU/NIC affinity, BMC sensors."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import by_outcome, confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.core.i18n import msg

_NEAR = ("PIX", "PXB", "PHB", "NODE")


# Governors that raise clocks with load: neither pinned low (powersave) nor high (performance), so
# the setting alone does not show slow cores; the frequency under load does.
SCALING_GOVERNORS = frozenset({"schedutil", "ondemand", "conservative"})


def cpu_governor(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The CPU frequency governor is not the expected one."""
    freq = facts.get("cpupower")
    if freq is None:
        return inconclusive(facts.why_missing("cpupower"))
    expect = str(params.get("expect", "performance"))
    if freq.no_driver:
        return inconclusive(msg("reasons.host.no_cpufreq"), facts.evidence("cpupower", [freq.driver_line]))
    if freq.governor is None:
        return inconclusive(msg("reasons.host.governor_not_shown"))
    lines = [line for line in (freq.driver_line, freq.governor_line) if line]
    if freq.governor != expect and freq.governor in SCALING_GOVERNORS:
        return inconclusive(
            msg("reasons.host.governor_scales", governor=freq.governor, expect=expect),
            facts.evidence("cpupower", lines),
        )
    if freq.governor != expect:
        return confirmed(
            msg(
                "reasons.host.governor_other",
                governor=freq.governor,
                driver=freq.driver or "?",
                expect=expect,
            ),
            facts.evidence("cpupower", lines),
        )
    return ruled_out(msg("reasons.host.governor_ok", governor=expect), facts.evidence("cpupower", lines))


def cmdline_flag(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A kernel parameter is present or absent."""
    cmd = facts.get("cmdline")
    if cmd is None:
        return inconclusive(facts.why_missing("cmdline"))
    flag = str(params.get("flag", ""))
    if not flag:
        return inconclusive(msg("reasons.needs_param", check="cmdline_flag", param="flag"))
    value = params.get("value")
    shown = f"{flag}={value}" if value is not None else flag
    evidence = facts.evidence("cmdline", [cmd.line])

    def given(name: str, wanted: str | None) -> bool | None:
        """Whether `name` was given `wanted` (one of its comma-separated options: `on,igfx_off`);
        None when it was given more than once and only some times so."""
        found = cmd.values.get(name) or ((cmd.params[name],) if name in cmd.params else ())
        if wanted is None or not found:
            return bool(found)
        hits = [wanted in str(v).split(",") for v in found]
        return True if all(hits) else False if not any(hits) else None

    present = given(flag, None if value is None else str(value))
    unless_name, _, unless_value = str(params.get("unless", "")).partition("=")
    unless = given(unless_name, unless_value or "True") if present and unless_name else False
    if present is None or unless is None:
        name, wanted = (flag, value) if present is None else (unless_name, unless_value or "True")
        return inconclusive(msg("reasons.host.cmdline_repeated", flag=name, value=wanted), evidence)
    if unless:
        return ruled_out(
            msg("reasons.host.cmdline_has_unless", flag=shown, unless=params["unless"]), evidence
        )
    if present:
        return by_outcome(
            str(params.get("when_present", "confirmed")),
            msg("reasons.host.cmdline_has", flag=shown),
            evidence,
        )
    if not cmd.recognized:
        return inconclusive(msg("reasons.host.cmdline_unrecognized", flag=shown))
    return by_outcome(
        str(params.get("when_absent", "ruled_out")), msg("reasons.host.cmdline_lacks", flag=shown), evidence
    )


def numa_topology(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """NUMA layout and GPU affinity; rules out a single-node host, otherwise shows what to compare."""
    numa = facts.get("numactl")
    topo = facts.get("nvidia_smi_topo")
    if numa is None and topo is None:
        return inconclusive(facts.why_missing("numactl", "nvidia_smi_topo"))
    lines = []
    if numa is not None:
        lines.append(numa.available_line)
        if numa.available == 1:
            return ruled_out(msg("reasons.host.one_numa_node"), facts.evidence("numactl", lines))
    nodes = {}
    if topo is not None:
        for gpu in topo.gpus:
            nodes[gpu.name] = gpu.numa_node
            lines.append(f"{gpu.name}: CPU affinity {gpu.cpu_affinity}, NUMA node {gpu.numa_node}")
    spread = sorted({n for n in nodes.values() if n is not None})
    reason = msg(
        "reasons.host.numa_layout",
        n=numa.available if numa else "?",
        nodes=", ".join(str(n) for n in spread) or "?",
    )
    return inconclusive(reason, facts.evidence("nvidia_smi_topo" if topo else "numactl", lines))


def gpu_nic_numa(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Some GPU reaches every NIC only across sockets (SYS) in `topo -m`."""
    topo = facts.get("nvidia_smi_topo")
    if topo is None:
        return inconclusive(facts.why_missing("nvidia_smi_topo"))
    nics = [n for n in topo.nics if re.match(str(params.get("nic", r"mlx|NIC|ib|bnxt|eth")), n)]
    if not topo.gpus or not nics:
        return inconclusive(msg("reasons.host.no_gpu_nic_pairs"))
    far = [g for g in topo.gpus if not any(g.links.get(n) in _NEAR for n in nics)]
    lines = [g.line for g in (far or topo.gpus)]
    if far:
        return confirmed(
            msg("reasons.host.far_nics", gpus=", ".join(g.name for g in far)),
            facts.evidence("nvidia_smi_topo", [topo.header_line, *lines]),
        )
    return ruled_out(
        msg("reasons.host.near_nics"),
        facts.evidence("nvidia_smi_topo", [topo.header_line, *lines[:4]]),
    )


def ipmi_sensor_alarm(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """BMC sensors matching a pattern are outside thresholds (nc/cr/nr)."""
    sensors = facts.get("ipmi_sensor")
    if sensors is None:
        return inconclusive(facts.why_missing("ipmi_sensor"))
    pattern = re.compile(str(params.get("pattern", "fan")), re.I)
    rows = [s for s in sensors.sensors if pattern.search(f"{s.name} {s.unit or ''}")]
    if not rows:
        return inconclusive(msg("reasons.host.no_sensor", pattern=pattern.pattern))
    bad = [s for s in rows if s.alarming]
    if bad:
        return confirmed(
            msg("reasons.host.sensor_alarm", sensors=", ".join(s.name for s in bad)),
            facts.evidence("ipmi_sensor", [s.line for s in bad]),
        )
    unread = [s for s in rows if s.discrete or (s.status is not None and s.value is None)]
    if unread:  # a state word or a status without a reading: nothing to hold against thresholds
        return inconclusive(
            msg("reasons.host.sensors_unread", sensors=", ".join(s.name for s in unread)),
            facts.evidence("ipmi_sensor", [s.line for s in unread]),
        )
    read = [s for s in rows if s.readable]
    if not read:
        return inconclusive(
            msg("reasons.host.sensors_na"), facts.evidence("ipmi_sensor", [s.line for s in rows])
        )
    return ruled_out(
        msg("reasons.host.sensors_ok"), facts.evidence("ipmi_sensor", [s.line for s in read[:6]])
    )


_OUTCOMES = "confirmed | ruled_out | inconclusive"
SPECS = (
    spec(
        cpu_governor,
        ("cpupower",),
        {"expect": "governor (default performance)"},
        describe={
            "en": (
                "Reads the CPU frequency governor: a fixed low one such as powersave confirms it, the"
                " expected one (performance) rules it out, one that scales with load leaves it open."
            ),
            "zh": (
                "读取 CPU 调频策略（governor）：powersave 这类固定低频的确认是这个原因，"
                "预期的 performance 排除，随负载升频的无法判断。"
            ),
        },
    ),
    spec(
        cmdline_flag,
        ("cmdline",),
        {
            "flag": "parameter name",
            "value": "optional value",
            "when_present": _OUTCOMES,
            "when_absent": _OUTCOMES,
            "unless": "flag or flag=value that, when also present, rules out (e.g. iommu=pt)",
        },
        describe={
            "en": (
                "Reads the kernel boot parameters: the setting this cause depends on decides "
                "it, present or absent as the cause describes."
            ),
            "zh": "读取内核启动参数：按这个原因的描述，看相关参数是否存在来判断。",
        },
    ),
    spec(
        numa_topology,
        ("numactl", "nvidia_smi_topo"),
        describe={
            "en": (
                "Reads the NUMA layout and which CPUs sit near each GPU: a single NUMA "
                "node rules it out, several nodes show what to compare with the job's binding."
            ),
            "zh": (
                "读取 NUMA 布局以及每张 GPU 靠近哪些 CPU：只有一个 NUMA 节点即可排除，有多个节"
                "点时列出需要和任务绑核对照的信息。"
            ),
        },
    ),
    spec(
        gpu_nic_numa,
        ("nvidia_smi_topo",),
        {"nic": "NIC name regex"},
        describe={
            "en": (
                "Reads the GPU and network card topology: a GPU that reaches every network "
                "card only across CPU sockets confirms it, a nearby card rules it out."
            ),
            "zh": ("读取 GPU 与网卡的拓扑：某张 GPU 到所有网卡都要跨 CPU 插槽即确认，有就近的网卡则排除。"),
        },
    ),
    spec(
        ipmi_sensor_alarm,
        ("ipmi_sensor",),
        {"pattern": "regex over name and unit (default fan)"},
        describe={
            "en": (
                "Reads the BMC sensors this cause concerns (fans, power supplies, voltages): "
                "a sensor outside its thresholds confirms it, all within rule it out."
            ),
            "zh": (
                "读取 BMC 里与这个原因相关的传感器（风扇、电源、电压）：有传感器超出阈值即确认"
                "，全部正常则排除。"
            ),
        },
    ),
)

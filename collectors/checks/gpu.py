"""GPU-state checks over NVML probe records (or `nvidia-smi -q`): throttling, memory health, modes, SKU."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import (
    as_list,
    confirmed,
    gpus_or_reason,
    inconclusive,
    per_gpu,
    ruled_out,
    smi_errors,
    spec,
)
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers.gpu import CLOCK_EVENT_BITS, Gpu
from pitstop.core.i18n import Msg, msg

GPU = ("nvml_probe",)
# Architecture rank by model name: first match wins. bf16/TF32 need rank >= 8 (Ampere).
GENERATIONS: tuple[tuple[re.Pattern[str], str, int], ...] = tuple(
    (re.compile(p, re.I), name, rank)
    for p, name, rank in (
        (r"\b(B100|B200|GB200|B300|RTX PRO 6000|RTX 50\d\d)\b", "blackwell", 10),
        (r"\b(H100|H200|H800|H20|GH200)\b", "hopper", 9),
        (r"\b(L40S?|L4|L20|RTX 40\d\d|RTX \d000 Ada|Ada)\b", "ada", 8),
        (r"\b(A100|A800|A40|A30|A16|A10G?|A2|RTX A\d000|RTX 30\d\d)\b", "ampere", 8),
        (r"\b(T4|TITAN RTX|Quadro RTX|RTX 20\d\d|GTX 16\d\d)\b", "turing", 7),
        (r"\b(V100|TITAN V)\b", "volta", 7),
        (r"\b(P100|P40|P4|GTX 10\d\d|TITAN Xp)\b", "pascal", 6),
        (r"\b(K80|K40|M40|M60)\b", "older", 5),
    )
)


_PCIE_NAME = re.compile(r"PCIe|\bNVL\b", re.I)
_SXM_NAME = re.compile(r"SXM|HBM3", re.I)


def generation(name: str | None) -> tuple[str, int] | None:
    """(architecture, rank) from a product name, None when unknown."""
    for pattern, arch, rank in GENERATIONS:
        if name and pattern.search(name):
            return arch, rank
    return None


def form_factor(gpu: Gpu) -> str | None:
    """'PCIe' or 'SXM' from the name, else from the power envelope (SXM5 H100: 700 W; PCIe: 350 W)."""
    name = gpu.name or ""
    if _PCIE_NAME.search(name):
        return "PCIe"
    if _SXM_NAME.search(name):
        return "SXM"
    limit = gpu.max_power_limit_w or gpu.power_limit_w
    if limit is not None and re.search(r"H100|H200|A100|H800", name):
        return "SXM" if limit >= 500 else "PCIe"
    return None


def gpu_clock_event(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A clock event (throttle) reason is active on some GPU."""
    reasons = as_list(params.get("reason")) or ["hw_thermal_slowdown", "sw_thermal_slowdown"]
    unless = as_list(params.get("unless_reason"))
    unknown = [r for r in reasons + unless if r not in CLOCK_EVENT_BITS]
    if unknown:
        return inconclusive(msg("reasons.gpu.unknown_clock_event", names=", ".join(unknown)))

    def test(g: Gpu) -> bool | None:
        if g.clock_events is None:
            return None
        explained = any(g.clock_events.get(r) for r in unless)  # e.g. HW Slowdown caused by temperature
        active = any(g.clock_events.get(r) for r in reasons)
        if active and not explained and any(g.clock_events.get(r) is None for r in unless):
            return None  # an explaining reason not printed (older driver, cut output): cause unknown
        return active and not explained

    fields = [f"clock_events.{r}" for r in reasons + unless] + ["temperature_c", "power_draw_w"]
    got = gpus_or_reason(facts)
    if not isinstance(got, Verdict):
        unexplained = [g for g in got[1] if test(g) is None and g.clock_events is not None]
        if unexplained and not any(test(g) for g in got[1]):
            missing = [r for r in unless if any(g.clock_events.get(r) is None for g in unexplained)]  # type: ignore[union-attr]
            return inconclusive(
                msg(
                    "reasons.gpu.clock_event_unexplained",
                    names="/".join(reasons),
                    unless="/".join(missing),
                    gpus=", ".join(g.label for g in unexplained),
                ),
                facts.evidence(
                    got[0],
                    [f"GPU {g.label}: {g.line(f)}" for g in unexplained for f in fields if f in g.lines],
                ),
            )
    return per_gpu(
        facts,
        test,
        fields,
        msg("reasons.gpu.clock_event", names="/".join(reasons)),
        msg("reasons.gpu.no_clock_event_unless", names="/".join(reasons), unless="/".join(unless))
        if unless
        else msg("reasons.gpu.no_clock_event", names="/".join(reasons)),
    )


def gpu_temperature(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Some GPU is at or above a temperature."""
    above = float(params.get("above_c", 85))

    def test(g: Gpu) -> bool | None:
        return None if g.temperature_c is None else g.temperature_c >= above

    return per_gpu(
        facts,
        test,
        ["temperature_c", "power_draw_w"],
        msg("reasons.gpu.hot", limit=f"{above:g}"),
        msg("reasons.gpu.not_hot", limit=f"{above:g}"),
    )


def gpu_temperature_outlier(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """One GPU runs much hotter than its peers without drawing more power (consistent with bad cooling)."""
    delta = float(params.get("delta_c", 15))
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    lines = [f"GPU {g.label}: {g.line('temperature_c')} / {g.line('power_draw_w')}" for g in gpus]
    temps = sorted(g.temperature_c for g in gpus if g.temperature_c is not None)
    if len(temps) < 3:
        return inconclusive(msg("reasons.gpu.outlier_needs_three"), facts.evidence(collector, lines))
    median = temps[len(temps) // 2]
    powers = sorted(g.power_draw_w for g in gpus if g.power_draw_w is not None)
    median_power = powers[len(powers) // 2] if powers else None

    def harder_working(g: Gpu) -> bool:  # hot because it draws more power: not a cooling fault
        return None not in (g.power_draw_w, median_power) and g.power_draw_w > 1.1 * median_power  # type: ignore[operator]

    hot = [g for g in gpus if g.temperature_c is not None and g.temperature_c - median >= delta]
    defect = [g for g in hot if not harder_working(g)]
    if defect:
        return confirmed(
            msg(
                "reasons.gpu.hot_outlier",
                gpus=", ".join(g.label for g in defect),
                delta=f"{delta:g}",
                median=f"{median:g}",
            ),
            facts.evidence(collector, lines),
        )
    if hot:
        return ruled_out(msg("reasons.gpu.hot_from_load"), facts.evidence(collector, lines))
    return ruled_out(
        msg("reasons.gpu.no_hot_outlier", delta=f"{delta:g}", median=f"{median:g}"),
        facts.evidence(collector, lines),
    )


def gpu_remapped_rows(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Row remapping state on Ampere and newer."""
    state = str(params.get("state", "pending"))
    field = {
        "pending": "remap_pending",
        "failure": "remap_failure",
        "uncorrectable": "remap_uncorrectable",
        "correctable": "remap_correctable",
    }.get(state)
    if field is None:
        return inconclusive(msg("reasons.unknown_param", param="state", value=state))

    def test(g: Gpu) -> bool | None:
        value = getattr(g, field)
        return None if value is None else bool(value)

    verdict = per_gpu(
        facts,
        test,
        [field],
        msg("reasons.gpu.remapped", state=state),
        msg("reasons.gpu.not_remapped", state=state),
    )
    if state == "pending" and facts.gpus()[0] is None:
        return _from_kernel_log(facts, verdict, _REMAP_LINE, msg("reasons.gpu.remap_pending"))
    return verdict


# Xid 63/64 wordings: Ampere and later remap rows (a GPU reset applies them), older GPUs retire
# pages (a reboot applies them). A line of this boot means it has not been applied since, unless
# the GPU was reset.
_REMAP_LINE = re.compile(r"row remap|remapping|reset (?:the )?gpu to activate", re.I)
_RETIRE_LINE = re.compile(
    r"page retire|pages? .*retired|retired page|reboot (?:the system )?to activate", re.I
)


def _from_kernel_log(facts: Facts, verdict: Verdict, wording: re.Pattern[str], what: Msg) -> Verdict:
    """When NVML/nvidia-smi cannot be read: an Xid 63/64 line of this boot in `wording` confirms."""
    collector, log = facts.kernel_log()
    if log is None:
        return verdict
    hits = [e for e in log.events if e.xid in (63, 64) and wording.search(e.message)]
    if not hits:
        return verdict
    return confirmed(
        msg("reasons.gpu.xid_instead", what=what, xid=hits[0].xid, why=verdict.reason),
        facts.evidence(collector, [line for e in hits[:6] for line in e.lines]),  # type: ignore[arg-type]
    )


def ecc_uncorrected(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Uncorrectable ECC errors counted."""
    counter = str(params.get("counter", "volatile"))
    field = f"ecc_{counter}_uncorrected"

    def test(g: Gpu) -> bool | None:
        value = getattr(g, field, None)
        return None if value is None else value > 0

    return per_gpu(
        facts,
        test,
        [field],
        msg("reasons.gpu.ecc_uncorrected", counter=counter),
        msg("reasons.gpu.no_ecc_uncorrected", counter=counter),
    )


def ecc_corrected(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Many corrected (single-bit) ECC errors counted."""
    counter = str(params.get("counter", "aggregate"))
    minimum = int(params.get("min", 100))
    field = f"ecc_{counter}_corrected"

    def test(g: Gpu) -> bool | None:
        value = getattr(g, field, None)
        return None if value is None else value >= minimum

    return per_gpu(
        facts,
        test,
        [field],
        msg("reasons.gpu.ecc_corrected", n=minimum, counter=counter),
        msg("reasons.gpu.few_ecc_corrected", n=minimum, counter=counter),
    )


def gpu_retired_pages(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Dynamic page retirement on pre-Ampere GPUs."""
    state = str(params.get("state", "pending"))

    def test(g: Gpu) -> bool | None:
        if state == "pending":
            return g.retired_pending
        if g.retired_dbe is None and g.retired_sbe is None:
            return None
        return bool((g.retired_dbe or 0) + (g.retired_sbe if state == "any" else 0))  # type: ignore[operator]

    verdict = per_gpu(
        facts,
        test,
        ["retired_pending", "retired_sbe", "retired_dbe"],
        msg("reasons.gpu.retired", state=state),
        msg("reasons.gpu.not_retired", state=state),
    )
    if state == "pending" and facts.gpus()[0] is None:
        verdict = _from_kernel_log(facts, verdict, _RETIRE_LINE, msg("reasons.gpu.retire_pending"))
    if verdict.verdict == "inconclusive":
        return inconclusive(msg("reasons.gpu.retire_note", reason=verdict.reason))
    return verdict


def gpu_persistence(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Persistence mode is disabled on some GPU."""
    return per_gpu(
        facts,
        lambda g: None if g.persistence_mode is None else not g.persistence_mode,
        ["persistence_mode"],
        msg("reasons.gpu.persistence_off"),
        msg("reasons.gpu.persistence_on"),
    )


def gpu_compute_mode(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Compute mode is not Default (or is the given mode)."""
    wanted = [m.lower() for m in as_list(params.get("mode"))]

    def test(g: Gpu) -> bool | None:
        if g.compute_mode is None:
            return None
        mode = g.compute_mode.lower().replace(" ", "_").replace(".", "")
        return (
            mode != "default" if not wanted else any(w.replace(" ", "_") in mode or mode in w for w in wanted)
        )

    return per_gpu(
        facts,
        test,
        ["compute_mode"],
        msg("reasons.gpu.compute_mode_changed"),
        msg("reasons.gpu.compute_mode_default"),
    )


def gpu_mig_mode(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """MIG mode is enabled on some GPU."""

    def test(g: Gpu) -> bool | None:  # "N/A": a GPU without MIG, which cannot have it enabled
        return None if g.mig_mode is None else g.mig_mode.lower() == "enabled"

    verdict = per_gpu(facts, test, ["mig_mode"], msg("reasons.gpu.mig_on"), msg("reasons.gpu.mig_off"))
    if _unreadable_value(verdict):
        return inconclusive(msg("reasons.gpu.mig_note", reason=verdict.reason))
    return verdict


def gpu_memory_held(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """An idle GPU holds memory (stale process or leak)."""
    minimum = int(params.get("min_mib", 1024))
    busy = float(params.get("idle_below_pct", 5))

    def test(g: Gpu) -> bool | None:
        if g.memory_used_mib is None:
            return None
        return g.memory_used_mib >= minimum and (g.utilization_pct is None or g.utilization_pct < busy)

    verdict = per_gpu(
        facts,
        test,
        ["memory_used_mib", "utilization_pct"],
        msg("reasons.gpu.memory_held", mib=minimum),
        msg("reasons.gpu.memory_free", mib=minimum),
    )
    if verdict.verdict != "confirmed":
        return verdict
    collector, gpus = facts.gpus()
    held = [g for g in gpus or () if test(g)]
    procs = [f"GPU {g.label}: pid {p.pid} {p.name} {p.used_mib} MiB" for g in held for p in g.processes or ()]
    if any(g.processes is None for g in held):
        return inconclusive(
            msg("reasons.but", reason=verdict.reason, why=msg("reasons.gpu.no_process_list")),
            *verdict.evidence,
        )
    if procs:  # a live process that owns the memory may be between steps: one idle reading proves nothing
        return inconclusive(
            msg("reasons.gpu.held_by_live_process", reason=verdict.reason),
            *verdict.evidence,
            facts.evidence(collector, procs),  # type: ignore[arg-type]
        )
    return confirmed(msg("reasons.gpu.held_by_nobody", reason=verdict.reason), *verdict.evidence)


def gpu_sku(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """GPU model and form factor differ from the inventory's (H100 PCIe vs SXM5: name, then power limit)."""
    model = params.get("gpu_model") or ctx.expectations.get("gpu_model")
    wanted_ff = params.get("form_factor") or ctx.expectations.get("form_factor")
    if not model and not wanted_ff:
        return inconclusive(msg("reasons.gpu.no_expected_model"))
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    wrong = []
    for g in gpus:
        actual_ff = form_factor(g)
        name_ok = not model or (
            g.name is not None and str(model).lower().replace("nvidia ", "") in g.name.lower()
        )
        ff_ok = not wanted_ff or actual_ff is None or str(wanted_ff).upper().startswith(actual_ff.upper())
        if not (name_ok and ff_ok):
            wrong.append(
                f"GPU {g.label}: {g.name} (form factor {actual_ff or 'unknown'}, "
                f"power limit {g.max_power_limit_w or g.power_limit_w} W)"
            )
    expected = " ".join(str(x) for x in (model, wanted_ff) if x)
    if wrong:
        return confirmed(msg("reasons.gpu.sku_differs", expected=expected), facts.evidence(collector, wrong))
    if wanted_ff and all(form_factor(g) is None for g in gpus):
        return inconclusive(msg("reasons.gpu.form_factor_unknown", model=gpus[0].name or "?"))
    return ruled_out(
        msg("reasons.gpu.sku_matches", expected=expected),
        facts.evidence(collector, [f"GPU {g.label}: {g.name}" for g in gpus]),
    )


def gpu_count(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Fewer usable GPUs than expected."""
    expected = params.get("count") or ctx.expectations.get("gpu_count")
    if expected is None:
        return inconclusive(msg("reasons.gpu.no_expected_count"))
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    healthy = [g for g in gpus if not g.lost]
    lines = [f"GPU {g.label}: {g.name}{' (LOST)' if g.lost else ''}" for g in gpus]
    if len(healthy) < int(expected):
        return confirmed(
            msg("reasons.gpu.too_few", n=len(healthy), expected=expected), facts.evidence(collector, lines)
        )
    return ruled_out(msg("reasons.gpu.count_ok", n=len(healthy)), facts.evidence(collector, lines))


def gpu_lost(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A GPU is lost to NVML, nvidia-smi says "GPU is lost", or it shows ERR! in nvidia-smi."""
    for collector, error in smi_errors(facts):
        evidence = facts.evidence(collector, [error.line])
        if error.kind == "gpu_lost":
            return confirmed(msg("reasons.driver.smi_fails", error=error.line), evidence)
        if error.kind == "device_handle_error":
            return inconclusive(msg("reasons.gpu.handle_error", error=error.line), evidence)
    table = facts.get("nvidia_smi")
    rows = table.gpus if table else ()
    lost_rows = [
        x for r in rows if len(set(r.errors)) >= 2 for x in r.lines or (r.line,)
    ]  # one ERR!: a sensor
    if lost_rows:
        return confirmed(
            msg("reasons.gpu.err_fields"),
            facts.evidence("nvidia_smi", lost_rows),
        )
    verdict = per_gpu(
        facts, lambda g: g.lost, ["error"], msg("reasons.gpu.lost"), msg("reasons.gpu.none_lost")
    )
    one = [r for r in rows if r.errors]
    if verdict.verdict != "confirmed" and one:
        return inconclusive(
            msg("reasons.gpu.err_one_field", fields=", ".join(one[0].errors)),
            facts.evidence("nvidia_smi", [x for r in one for x in r.lines or (r.line,)]),
        )
    return verdict


def gpu_generation(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Some GPU predates an architecture (bf16 needs Ampere)."""
    below = str(params.get("below", "ampere"))
    floor = {"ampere": 8, "hopper": 9, "volta": 7, "blackwell": 10}.get(below, 8)

    def test(g: Gpu) -> bool | None:
        gen = generation(g.name)
        return None if gen is None else gen[1] < floor

    return per_gpu(
        facts,
        test,
        ["name"],
        msg("reasons.gpu.older_than", arch=below.capitalize()),
        msg("reasons.gpu.not_older_than", arch=below.capitalize()),
    )


def gpu_mixed_models(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The host mixes GPU models (device order matters)."""
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    if any(not g.name for g in gpus):
        return inconclusive(msg("reasons.gpu.model_not_shown"))
    names = {g.name for g in gpus}
    lines = [f"GPU {g.label}: {g.line('name')}" for g in gpus]
    if len(names) > 1:
        return confirmed(msg("reasons.gpu.mixed_models", n=len(names)), facts.evidence(collector, lines))
    return ruled_out(
        msg("reasons.gpu.one_model"),
        facts.evidence(collector, lines[:4]),
    )


def idle(gpu: Gpu) -> bool | None:
    """Whether the GPU was idle when read (its idle clock event, or under 5% load); None when unknown."""
    if (gpu.clock_events or {}).get("gpu_idle") or (
        gpu.utilization_pct is not None and gpu.utilization_pct < 5
    ):
        return True
    if gpu.utilization_pct is not None or (gpu.clock_events or {}).get("gpu_idle") is False:
        return False
    return None


def pcie_idle_downclock(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Benign: lower PCIe generation only while idle, at full width."""
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    fields = ("pcie_gen_current", "pcie_gen_max", "pcie_width_current", "pcie_width_max")
    lines = [f"GPU {g.label}: {g.line(f)}" for g in gpus for f in (*fields, "utilization_pct")]
    down = [
        g
        for g in gpus
        if None not in (g.pcie_gen_current, g.pcie_gen_max) and g.pcie_gen_current < g.pcie_gen_max  # type: ignore[operator]
    ]
    if not down:
        if all(g.pcie_gen_current is None for g in gpus):
            return inconclusive(msg("reasons.gpu.pcie_gen_unreadable"))
        return ruled_out(msg("reasons.gpu.pcie_gen_max"), facts.evidence(collector, lines))
    idle_ones = [g for g in down if idle(g)]
    narrow = [
        g
        for g in down
        if None not in (g.pcie_width_current, g.pcie_width_max) and g.pcie_width_current < g.pcie_width_max  # type: ignore[operator]
    ]
    if len(idle_ones) == len(down) and not narrow:
        return confirmed(msg("reasons.gpu.pcie_idle_saving"), facts.evidence(collector, lines))
    return ruled_out(
        msg("reasons.gpu.pcie_busy_downclock"),
        facts.evidence(collector, lines),
    )


def gpu_processes_crowded(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """One GPU (usually GPU 0) carries extra processes: ranks that never called set_device."""
    extra = int(params.get("extra", 2))
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    counts = {g.label: len(g.processes) for g in gpus if g.processes is not None}
    if len(counts) < 2:
        return inconclusive(msg("reasons.gpu.need_two_process_lists"))
    lines = [
        f"GPU {g.label}: {len(g.processes or ())} process(es): "
        + ", ".join(f"{p.pid} {p.name} {p.used_mib} MiB" for p in g.processes or ())
        for g in gpus
    ]
    ordered = sorted(counts.values())
    median = ordered[len(ordered) // 2]
    crowded = [label for label, n in counts.items() if n >= median + extra]
    if crowded:
        return confirmed(
            msg("reasons.gpu.crowded", gpus=", ".join(crowded), extra=extra), facts.evidence(collector, lines)
        )
    return ruled_out(msg("reasons.gpu.spread_evenly"), facts.evidence(collector, lines[:8]))


def pcie_system_limit(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """PCIe generation max for this system below the GPU's own maximum (nvidia-smi 'Max' < 'Device Max')."""

    def test(g: Gpu) -> bool | None:
        if g.pcie_gen_max is None or g.pcie_gen_device_max is None:
            return None
        return g.pcie_gen_max < g.pcie_gen_device_max

    verdict = per_gpu(
        facts,
        test,
        ["pcie_gen_max", "pcie_gen_device_max", "pcie_gen_current"],
        msg("reasons.gpu.platform_caps_pcie"),
        msg("reasons.gpu.platform_allows_pcie"),
    )
    if _unreadable_value(verdict):
        return inconclusive(msg("reasons.gpu.device_max_note", reason=verdict.reason))
    return verdict


def _unreadable_value(verdict: Verdict) -> bool:
    """An inconclusive `per_gpu` verdict because some GPU's value could not be read."""
    reason = verdict.reason
    return (
        verdict.verdict == "inconclusive"
        and isinstance(reason, Msg)
        and reason.key == "reasons.gpu.cannot_tell"
        and any(m.key == "reasons.gpu.unreadable_on" for m in reason.params["why"])
    )


SPECS = (
    spec(
        gpu_clock_event,
        GPU,
        {
            "reason": "one or a list of: " + ", ".join(CLOCK_EVENT_BITS),
            "unless_reason": "reasons that explain it away (HW Slowdown caused by HW Thermal Slowdown)",
        },
        describe={
            "en": (
                "Reads each GPU's active clock-slowdown reasons: the reason this cause "
                "names confirms it, none of them on any GPU rules it out."
            ),
            "zh": (
                "读取每张 GPU 当前生效的降频原因（clock event reasons）：出现这个原因对应的降"
                "频标志即确认，所有 GPU 都没有则排除。"
            ),
        },
    ),
    spec(
        gpu_temperature,
        GPU,
        {"above_c": "threshold in C (default 85)"},
        describe={
            "en": (
                "Reads each GPU's temperature: a GPU at or above the limit confirms it, "
                "every GPU below rules it out."
            ),
            "zh": "读取每张 GPU 的温度：有 GPU 达到或超过阈值即确认，全部低于阈值则排除。",
        },
    ),
    spec(
        gpu_temperature_outlier,
        GPU,
        {"delta_c": "degrees above the median (default 15)"},
        describe={
            "en": (
                "Compares each GPU's temperature and power draw with its peers: one GPU "
                "far hotter without drawing more power points to its cooling, even temperatures "
                "rule it out."
            ),
            "zh": (
                "把每张 GPU 的温度和功耗与同机其他卡比较：某张卡明显更热但功耗并不更高，指向这"
                "张卡散热有问题；温度均匀则排除。"
            ),
        },
    ),
    spec(
        gpu_remapped_rows,
        (*GPU, "kernel_log"),
        {"state": "pending | failure | uncorrectable | correctable"},
        describe={
            "en": (
                "Reads the row-remapping counters of each GPU (when NVML cannot be read, an Xid 63 "
                "row-remapper line of this boot): a pending or failed remap confirms it, clean "
                "counters rule it out."
            ),
            "zh": (
                "读取每张 GPU 的显存行重映射（row remapping）状态（NVML 读不出时看本次启动内核日志里的 "
                "Xid 63 行重映射行）：有待处理或失败的重映射即确认，计数干净则排除。"
            ),
        },
    ),
    spec(
        ecc_uncorrected,
        GPU,
        {"counter": "volatile (since reboot, default) | aggregate (lifetime)"},
        describe={
            "en": (
                "Reads each GPU's uncorrectable ECC error count: any such error confirms "
                "it, zero on every GPU rules it out."
            ),
            "zh": ("读取每张 GPU 的不可纠正 ECC 错误计数：只要有一个即确认，所有 GPU 都为零则排除。"),
        },
    ),
    spec(
        ecc_corrected,
        GPU,
        {"counter": "aggregate (default) | volatile", "min": "count (default 100)"},
        describe={
            "en": (
                "Reads each GPU's corrected ECC error count: a high count is consistent "
                "with this cause and should be read again to see the rate, a low count "
                "rules it out."
            ),
            "zh": (
                "读取每张 GPU 的可纠正 ECC 错误计数：计数很高与这个原因相符，需要隔一段时间再"
                "读一次看增长速度；计数低则排除。"
            ),
        },
    ),
    spec(
        gpu_retired_pages,
        (*GPU, "kernel_log"),
        {"state": "pending (default) | dbe | any"},
        describe={
            "en": (
                "Reads the retired-page counters of older (pre-Ampere) GPUs (when NVML cannot be "
                "read, an Xid 63/64 'page retired, reboot to activate' line of this boot): pending or "
                "double-bit retirements confirm it, none rule it out."
            ),
            "zh": (
                "读取 Ampere 之前老卡的显存页退役（retired pages）计数（NVML 读不出时看本次启动内核日志里"
                "“page retired, reboot to activate”的 Xid 63/64 行）："
                "有待生效或双比特错误导致的退役即确认，没有则排除。"
            ),
        },
    ),
    spec(
        gpu_persistence,
        GPU,
        describe={
            "en": (
                "Reads each GPU's persistence mode: disabled on some GPU confirms it, enabled "
                "everywhere rules it out."
            ),
            "zh": "读取每张 GPU 的持久模式（persistence mode）：有卡关闭即确认，全部开启则排除。",
        },
    ),
    spec(
        gpu_compute_mode,
        GPU,
        {"mode": "optional: Exclusive_Process | Prohibited | Exclusive_Thread"},
        describe={
            "en": (
                "Reads each GPU's compute mode: an exclusive or prohibited mode confirms "
                "it, Default everywhere rules it out."
            ),
            "zh": (
                "读取每张 GPU 的计算模式（compute mode）：出现独占或禁止模式即确认，全部为 Default 则排除。"
            ),
        },
    ),
    spec(
        gpu_mig_mode,
        GPU,
        describe={
            "en": (
                "Reads each GPU's MIG mode: MIG enabled on some GPU confirms it, disabled or "
                "N/A (a GPU without MIG) everywhere rules it out."
            ),
            "zh": (
                "读取每张 GPU 的 MIG 模式：有卡开启 MIG 即确认，全部关闭或为 N/A（不支持 MIG 的卡）则排除。"
            ),
        },
    ),
    spec(
        gpu_memory_held,
        GPU,
        {
            "min_mib": "memory held (default 1024)",
            "idle_below_pct": "utilization counted as idle (default 5)",
        },
        describe={
            "en": (
                "Reads memory use, load and processes of each GPU: an idle GPU holding memory with "
                "no process listed confirms it; held by a listed, running process it only names "
                "that process; no idle GPU holding memory rules it out."
            ),
            "zh": (
                "读取每张 GPU 的显存占用、利用率和进程：空闲的卡占着显存且没有列出任何进程即确认；"
                "若由仍在运行的进程占用，只列出该进程不作结论；没有这种卡则排除。"
            ),
        },
    ),
    spec(
        gpu_sku,
        GPU,
        {
            "gpu_model": "overrides expectations.gpu_model",
            "form_factor": "overrides expectations.form_factor",
        },
        describe={
            "en": (
                "Compares each GPU's model and form factor with what the inventory says "
                "was ordered: a different model or form factor confirms it, a match rules "
                "it out."
            ),
            "zh": (
                "把每张 GPU 的型号和形态（PCIe 或 SXM）与资产清单里采购的型号比较：不一致即确认，一致则排除。"
            ),
        },
    ),
    spec(
        gpu_count,
        GPU,
        {"count": "overrides expectations.gpu_count"},
        describe={
            "en": (
                "Counts the usable GPUs against the number the inventory expects: fewer "
                "confirms it, the full count rules it out."
            ),
            "zh": "清点可用 GPU 的数量并与资产清单的预期数量比较：少了即确认，数量齐全则排除。",
        },
    ),
    spec(
        gpu_lost,
        ("nvml_probe", "nvidia_smi"),
        describe={
            "en": (
                "Looks for a GPU the driver has lost or that nvidia-smi shows as ERR! in several "
                "fields: such a GPU confirms it (one ERR! field is a sensor, not the GPU), every GPU "
                "answering rules it out."
            ),
            "zh": (
                "查找驱动已丢失或 nvidia-smi 在多个字段显示 ERR! 的 GPU：有这样的卡即确认"
                "（只有一个字段 ERR! 是传感器问题，不算），所有卡都正常响应则排除。"
            ),
        },
    ),
    spec(
        gpu_generation,
        GPU,
        {"below": "ampere (default) | volta | hopper | blackwell"},
        describe={
            "en": (
                "Reads each GPU's model to find its architecture: a GPU older than the "
                "one this feature needs confirms it, only newer GPUs rule it out."
            ),
            "zh": ("根据每张 GPU 的型号判断架构：有卡早于这个功能所需的架构即确认，全部够新则排除。"),
        },
    ),
    spec(
        gpu_mixed_models,
        GPU,
        describe={
            "en": (
                "Reads the GPU models on the host: different models on one host confirm "
                "it, a single model rules it out."
            ),
            "zh": "读取主机上所有 GPU 的型号：同一台机器上混插不同型号即确认，型号一致则排除。",
        },
    ),
    spec(
        gpu_processes_crowded,
        GPU,
        {"extra": "processes above the median that count as crowded (default 2)"},
        describe={
            "en": (
                "Counts the processes on each GPU: one GPU carrying clearly more processes "
                "than the others confirms it, an even spread rules it out."
            ),
            "zh": (
                "统计每张 GPU 上的进程数：某张卡（通常是 0 号卡）上的进程明显比其他卡多即确认"
                "，分布均匀则排除。"
            ),
        },
    ),
    spec(
        pcie_system_limit,
        GPU,
        describe={
            "en": (
                "Compares the PCIe generation the platform allows with each GPU's own maximum: "
                "a lower platform limit confirms it, equal limits rule it out."
            ),
            "zh": (
                "比较平台允许的 PCIe 代数和每张 GPU 自身支持的最高代数：平台限制更低即确认，两者一致则排除。"
            ),
        },
    ),
    spec(
        pcie_idle_downclock,
        GPU,
        describe={
            "en": (
                "Reads each GPU's current PCIe generation, width and load: a lower generation "
                "only on idle GPUs at full width confirms this harmless power saving, a "
                "slow link under load rules it out."
            ),
            "zh": (
                "读取每张 GPU 当前的 PCIe 代数、链路宽度和负载：只有空闲的卡降到低代数且宽度不"
                "变，说明是正常的节能，不用处理；负载下链路也慢则排除。"
            ),
        },
    ),
)

"""Storage checks: RAID cache policy, BBU/CacheVault, virtual drive state, disk space, /dev/shm."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import as_list, by_outcome, confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers.df import size_bytes
from pitstop.core.i18n import msg

RAID = ("storcli", "megacli")


def _raid(facts: Facts) -> tuple[str, Any] | Verdict:
    for collector in RAID:
        parsed = facts.get(collector)
        if parsed is not None and (
            parsed.vds or getattr(parsed, "controllers", ()) or getattr(parsed, "cachevault_states", ())
        ):
            return collector, parsed
    return inconclusive(msg("reasons.storage.no_raid", why=facts.why_missing(*RAID)))


def _missing_vds(raid: Any) -> Verdict | None:
    """Inconclusive when storcli declares more VDs than its rows show (a cut output): no rule-out then."""
    declared = getattr(raid, "declared_vds", None)
    if declared is not None and len(raid.vds) < declared:
        return inconclusive(msg("reasons.storage.vds_missing", declared=declared, n=len(raid.vds)))
    return None


def raid_cache_policy(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A RAID virtual drive's current write policy is write-through (storcli, else MegaCli)."""
    got = _raid(facts)
    if isinstance(got, Verdict):
        return got
    collector, raid = got
    if collector == "storcli":
        rows = [(vd.vd, vd.write_policy, (vd.line,)) for vd in raid.vds]
    else:
        rows = [
            (
                str(vd.vd),
                {"WriteThrough": "WT", "WriteBack": "WB"}.get(vd.current_write or ""),
                vd.lines,
            )
            for vd in raid.vds
        ]
    if not rows:
        return inconclusive(msg("reasons.storage.no_vd"))
    wt = [r for r in rows if r[1] == "WT"]
    if wt:
        return confirmed(
            msg("reasons.storage.write_through", vds=", ".join(r[0] for r in wt)),
            facts.evidence(collector, [line for r in wt for line in r[2]]),
        )
    if all(r[1] is None for r in rows):
        return inconclusive(
            msg("reasons.storage.policy_not_shown"),
            facts.evidence(collector, [line for r in rows for line in r[2]]),
        )
    if (cut := _missing_vds(raid)) is not None:
        return cut
    return ruled_out(
        msg("reasons.storage.write_back"),
        facts.evidence(collector, [line for r in rows for line in r[2]]),
    )


def raid_bbu(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """BBU/CacheVault not optimal, or the controller fell back from write-back to write-through."""
    got = _raid(facts)
    if isinstance(got, Verdict):
        return got
    collector, raid = got
    if collector == "megacli":
        forced = [
            vd for vd in raid.vds if vd.default_write == "WriteBack" and vd.current_write == "WriteThrough"
        ]
        if forced:
            return confirmed(
                msg("reasons.storage.fell_back"),
                facts.evidence(collector, [line for vd in forced for line in vd.lines]),
            )
        return inconclusive(
            msg("reasons.storage.megacli_no_battery"),
            facts.evidence(collector, [line for vd in raid.vds for line in vd.lines]),
        )
    states = [(c.bbu, c.line) for c in raid.controllers if c.bbu] + list(raid.cachevault_states)
    if not states:
        return inconclusive(msg("reasons.storage.no_bbu_state"))
    bad = [(s, line) for s, line in states if s not in ("Opt", "Optimal")]
    if bad:
        return confirmed(msg("reasons.storage.bbu_bad"), facts.evidence(collector, [line for _, line in bad]))
    return ruled_out(msg("reasons.storage.bbu_ok"), facts.evidence(collector, [line for _, line in states]))


def raid_vd_state(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A RAID virtual drive is not optimal (degraded, rebuilding...)."""
    got = _raid(facts)
    if isinstance(got, Verdict):
        return got
    collector, raid = got
    rows = [
        (
            str(vd.vd),
            vd.state or "",
            getattr(vd, "line", "")
            or getattr(vd, "state_line", "")
            or f"Virtual Drive {vd.vd}: State {vd.state}",
        )
        for vd in raid.vds
    ]
    if not rows:
        return inconclusive(msg("reasons.storage.no_vd"))
    if any(not r[1] for r in rows):
        return inconclusive(msg("reasons.storage.vd_state_not_shown"))
    bad = [r for r in rows if r[1] not in ("Optl", "Optimal")]
    if bad:
        return confirmed(
            msg(
                "reasons.storage.vd_bad",
                vds=", ".join(r[0] for r in bad),
                states=", ".join(r[1] for r in bad),
            ),
            facts.evidence(collector, [r[2] for r in bad]),
        )
    if (cut := _missing_vds(raid)) is not None:
        return cut
    return ruled_out(msg("reasons.storage.vd_ok"), facts.evidence(collector, [r[2] for r in rows]))


def disk_full(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A filesystem is (nearly) full; loop/snap mounts ignored."""
    free = facts.get("df")
    if free is None:
        return inconclusive(facts.why_missing("df"))
    threshold = int(params.get("min_use_pct", 95))
    mounts = as_list(params.get("mounts"))
    rows = [
        f
        for f in free.filesystems
        if f.use_pct is not None
        and not f.source.startswith("/dev/loop")
        and (not mounts or f.mount in mounts)
    ]
    if not rows:
        return inconclusive(msg("reasons.storage.no_usage"))
    full = [f for f in rows if f.use_pct >= threshold]
    if full:
        return confirmed(
            msg("reasons.storage.full", mounts=", ".join(f.mount for f in full), pct=threshold),
            facts.evidence("df", [f.line for f in full]),
        )
    return ruled_out(
        msg("reasons.storage.not_full", pct=threshold),
        facts.evidence("df", [f.line for f in rows[:6]]),
    )


def shm_size(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """/dev/shm is smaller than needed for NCCL/dataloaders."""
    free = facts.get("df")
    if free is None:
        return inconclusive(facts.why_missing("df"))
    minimum = float(params.get("min_mib", 512))
    shm = next((f for f in free.filesystems if f.mount == "/dev/shm"), None)
    if shm is None or size_bytes(shm.size) is None:
        return inconclusive(msg("reasons.storage.no_shm"))
    mib = size_bytes(shm.size) / 2**20  # type: ignore[operator]
    if mib < minimum:
        return confirmed(msg("reasons.storage.shm_small", mib=f"{mib:.0f}"), facts.evidence("df", [shm.line]))
    return by_outcome(
        str(params.get("when_large", "ruled_out")),
        msg("reasons.storage.shm_host", mib=f"{mib:.0f}"),
        facts.evidence("df", [shm.line]),
    )


SPECS = (
    spec(
        raid_cache_policy,
        RAID,
        describe={
            "en": (
                "Reads the current write policy of each RAID volume: write-through confirms "
                "it, write-back rules it out."
            ),
            "zh": (
                "读取每个 RAID 卷当前的写策略：是 write-through（直写）即确认，是 write-back（回写）则排除。"
            ),
        },
    ),
    spec(
        raid_bbu,
        RAID,
        describe={
            "en": (
                "Reads the state of the RAID controller's battery or flash cache backup: "
                "not optimal, or a fallback to write-through, confirms it, a healthy backup "
                "rules it out."
            ),
            "zh": (
                "读取 RAID 卡电池或超级电容（BBU/CacheVault）的状态：状态异常或已回退到直写即"
                "确认，状态正常则排除。"
            ),
        },
    ),
    spec(
        raid_vd_state,
        RAID,
        describe={
            "en": (
                "Reads the state of each RAID volume: degraded or rebuilding confirms it, "
                "optimal rules it out."
            ),
            "zh": "读取每个 RAID 卷的状态：降级或正在重建即确认，状态为 Optimal 则排除。",
        },
    ),
    spec(
        disk_full,
        ("df",),
        {"min_use_pct": "threshold (default 95)", "mounts": "only these mount points"},
        describe={
            "en": (
                "Reads how full each filesystem is: one at or above the limit confirms "
                "it, room everywhere rules it out."
            ),
            "zh": "读取每个文件系统的使用率：有分区达到阈值即确认，都有余量则排除。",
        },
    ),
    spec(
        shm_size,
        ("df",),
        {
            "min_mib": "default 512 (Docker's default is 64 MiB)",
            "when_large": "verdict when the host's /dev/shm is large enough "
            "(default ruled_out; inconclusive for container entries)",
        },
        describe={
            "en": (
                "Reads the size of the shared-memory filesystem (/dev/shm): smaller than "
                "training needs confirms it, large enough points elsewhere."
            ),
            "zh": ("读取共享内存文件系统（/dev/shm）的大小：小于训练所需即确认，足够大则说明问题在别处。"),
        },
    ),
)

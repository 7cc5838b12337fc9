"""Log checks: kernel log (Xid/SXid and patterns) within the time window, Fabric Manager log, BMC SEL."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from pitstop.collectors import catalog
from pitstop.collectors.checks.base import (
    as_list,
    by_outcome,
    entry_text,
    inconclusive,
    ruled_out,
    spec,
    window,
)
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers.ipmi_sel import SelEvent
from pitstop.collectors.parsers.kernel_log import KernelEvent
from pitstop.core.i18n import Msg, msg


def _compile(pattern: Any) -> re.Pattern[str] | None:
    return re.compile(str(pattern), re.I) if pattern else None


def _label(params: Mapping[str, Any]) -> Msg:
    """The entry's words for what is searched, else the Xids and the pattern themselves."""
    xids = "/".join(str(x) for x in as_list(params.get("xid")))
    pattern = str(params.get("pattern") or "")
    if xids and pattern:
        default = msg("reasons.logs.xid_or_pattern", xids=xids, pattern=pattern)
    else:
        default = msg("reasons.logs.xid", xids=xids) if xids else msg("reasons.logs.pattern", pattern=pattern)
    return entry_text(params.get("label"), default)


def _matcher(xids: list[int], pattern: re.Pattern[str] | None) -> Callable[[KernelEvent], bool]:
    """The test of an event: it carries one of `xids` or its message matches `pattern` (built once per
    check: a sweep runs about 30 of these checks on every host's log)."""
    wanted = frozenset(xids)
    if pattern is None:
        return lambda e: e.xid in wanted
    search = pattern.search
    if not wanted:
        return lambda e: search(e.message) is not None
    return lambda e: e.xid in wanted or search(e.message) is not None


def _sample(lines: list[str], limit: int = 10) -> list[str]:
    return (
        lines
        if len(lines) <= limit
        else [*lines[: limit // 2], f"... {len(lines) - limit} more ...", *lines[-limit // 2 :]]
    )


def _grep_rerun(collector: str, xids: list[int], pattern: Any) -> str:
    """The log command piped through the same match, for a person to look again."""
    parts = [rf"Xid \(.*\): ({'|'.join(str(x) for x in xids)})\b"] if xids else []
    parts += [str(pattern)] if pattern else []
    return f"{catalog.get(collector).rerun} | grep -iP {shlex.quote('|'.join(parts))}"


def kernel_log_match(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Kernel log lines in the window (default: this boot) carry an Xid or match a pattern."""
    if not params.get("xid") and not params.get("pattern"):
        return inconclusive(msg("reasons.needs_one_of", check="kernel_log_match", params="xid, pattern"))
    collector, log = facts.kernel_log()
    if collector is None or log is None:
        return inconclusive(facts.why_missing("kernel_log", "dmesg"))
    win = window(ctx, params.get("hours"))
    xids = [int(x) for x in as_list(params.get("xid"))]
    pattern = _compile(params.get("pattern"))
    label = _label(params)
    match = _matcher(xids, pattern)
    matched = [e for e in log.events if match(e)]
    hits = [e for e in matched if win.contains(e.time)]
    older = [e for e in matched if not win.contains(e.time)]
    rerun = _grep_rerun(collector, xids, params.get("pattern"))
    if len(hits) >= int(params.get("min_count", 1)):
        events = [e for e in log.events if win.contains(e.time)]
        unless = [int(x) for x in as_list(params.get("unless_xid"))]
        unless_pattern = _compile(params.get("unless_pattern"))
        gpus = {h.pci for h in hits}
        prior = [  # a cause counts on the same GPU (or when either side names none)
            e
            for e in events
            if (e.xid in unless or (unless_pattern and unless_pattern.search(e.message)))
            and (e.pci is None or None in gpus or e.pci in gpus)
        ]
        if prior:
            causes = sorted(
                {f"Xid {e.xid}" if e.xid in unless else f"`/{unless_pattern.pattern}/`" for e in prior}  # type: ignore[union-attr]
            )
            return ruled_out(
                msg("reasons.logs.consequence", label=label, causes=", ".join(causes), window=win.describe()),
                facts.evidence(collector, _sample([line for e in prior + hits for line in e.lines]), rerun),
            )
        untimed = sum(1 for e in hits if e.time is None)
        note: Msg | str = msg("reasons.logs.untimed", n=untimed) if untimed and win.since else ""
        pcis = sorted({e.pci for e in hits if e.pci})
        where: Msg | str = msg("reasons.logs.on_pci", pcis=", ".join(pcis)) if pcis else ""
        return by_outcome(
            str(params.get("when_found", "confirmed")),
            msg(
                "reasons.logs.found", n=len(hits), window=win.describe(), label=label, where=where, note=note
            ),
            facts.evidence(collector, _sample([line for e in hits for line in e.lines]), rerun),
        )
    reason = (
        msg("reasons.logs.absent_older", window=win.describe(), label=label, n=len(older))
        if older
        else msg("reasons.logs.absent", window=win.describe(), label=label)
    )
    health = _compile(params.get("health_pattern"))
    if not log.recognized:
        return inconclusive(msg("reasons.logs.not_a_kernel_log", reason=reason))
    if health is not None:
        healthy = [e for e in log.events if win.contains(e.time) and health.search(e.message)]
        if not healthy:
            return inconclusive(msg("reasons.logs.no_healthy_line", reason=reason, pattern=health.pattern))
        return ruled_out(
            msg(
                "reasons.logs.healthy_logged",
                reason=reason,
                health=entry_text(params.get("health_label"), msg("reasons.logs.healthy_state")),
            ),
            facts.evidence(collector, _sample([line for e in healthy for line in e.lines], 4), rerun),
        )
    covered = [e.line for e in (log.events[0], log.events[-1])] if log.events else []
    # since boot, an absence covers only what the log kept: not a ring buffer that lost its start
    if win.since is None and (log.from_boot is False or (log.from_boot is None and collector == "dmesg")):
        return inconclusive(
            msg("reasons.logs.not_from_boot", reason=reason, first=log.events[0].line),
            facts.evidence(collector, covered, rerun),
        )
    return by_outcome(
        str(params.get("when_absent", "ruled_out")),
        reason,
        facts.evidence(collector, _sample([line for e in older for line in e.lines], 4) or covered, rerun),
    )


def fabricmanager_log_match(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Fabric Manager log lines of a kind (see `parsers.fabricmanager.LOG_KINDS`) or matching a pattern."""
    kinds = as_list(params.get("kind"))
    pattern = _compile(params.get("pattern"))
    if not kinds and pattern is None:
        return inconclusive(
            msg("reasons.needs_one_of", check="fabricmanager_log_match", params="kind, pattern")
        )
    log = facts.get("fabricmanager_log")
    if log is None:
        return inconclusive(facts.why_missing("fabricmanager_log"))
    hits = [line for kind, line in log.entries if kind in kinds or (pattern and pattern.search(line))]
    label = entry_text(
        params.get("label"),
        msg("reasons.logs.kinds", kinds="/".join(kinds))
        if kinds
        else msg("reasons.logs.pattern", pattern=str(params.get("pattern"))),
    )
    if hits:
        return by_outcome(
            str(params.get("when_found", "confirmed")),
            msg("reasons.logs.fm_found", n=len(hits), label=label),
            facts.evidence("fabricmanager_log", _sample(hits)),
        )
    reason = msg("reasons.logs.fm_absent", label=label)
    if not log.recognized:
        return inconclusive(msg("reasons.logs.no_fm_log", reason=reason))
    return by_outcome(
        str(params.get("when_absent", "ruled_out")),
        reason,
        facts.evidence("fabricmanager_log", [line for line in dict.fromkeys((log.first, log.last)) if line]),
    )


_DEASSERTION = re.compile(r"\bde-?assert(?:ed|ion)\b", re.I)


def _deasserted(direction: str | None, event: str) -> bool:
    """A record that ends a condition: ipmitool's `Deasserted` column, or FreeIPMI's words in the event."""
    return (direction or "").lower() == "deasserted" or bool(_DEASSERTION.search(event))


def _recovered(events: tuple[SelEvent, ...], hits: list[SelEvent]) -> dict[int, SelEvent]:
    """For each hit (by position) the later record that deasserts the same sensor and event."""
    found: dict[int, SelEvent] = {}
    at = {id(e): n for n, e in enumerate(events)}
    for i, hit in enumerate(hits):
        after = events[at[id(hit)] + 1 :]
        key = (hit.sensor.lower(), hit.event.lower())
        end = next(
            (e for e in after if (e.sensor.lower(), e.event.lower()) == key and _deasserted(e.direction, "")),
            None,
        )
        if end is not None:
            found[i] = end
    return found


def ipmi_sel_match(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """BMC SEL events matching a pattern within the window (default 7 days)."""
    sel = facts.get("ipmi_sel")
    if sel is None:
        return inconclusive(facts.why_missing("ipmi_sel"))
    pattern = _compile(params.get("pattern")) or re.compile(r"power|voltage|AC lost", re.I)
    win = window(ctx, params.get("hours", 24 * 7))
    hits = [
        e
        for e in sel.events
        if pattern.search(f"{e.sensor} {e.event}") and not _deasserted(e.direction, e.event)
    ]
    # A SEL spans years: a record the BMC wrote before its clock was set (Pre-Init, PostInit) has no
    # date, so it is not taken to be in the window (untimed kernel lines are: they are this boot's).
    current = [e for e in hits if e.time is not None and win.contains(e.time)]
    label = entry_text(params.get("label"), msg("reasons.logs.pattern", pattern=pattern.pattern))
    recovered = _recovered(sel.events, current)
    if current and params.get("when_recovered") and len(recovered) == len(current):
        return by_outcome(
            str(params["when_recovered"]),
            msg("reasons.logs.sel_recovered", n=len(current), window=win.describe(), label=label),
            facts.evidence(
                "ipmi_sel", _sample([x.line for i, e in enumerate(current) for x in (e, recovered[i])])
            ),
        )
    if current:
        found = msg("reasons.logs.sel_found", n=len(current), window=win.describe(), label=label)
        if params.get("consistent_with"):
            found = msg(
                "reasons.logs.and_note", reason=found, note=entry_text(params["consistent_with"], found)
            )
        return by_outcome(
            str(params.get("when_found", "confirmed")),
            found,
            facts.evidence("ipmi_sel", _sample([e.line for e in current])),
        )
    if not sel.recognized:
        return inconclusive(msg("reasons.logs.not_a_sel", label=label, window=win.describe()))
    undated = [e for e in hits if e.time is None]
    if undated:
        return inconclusive(
            msg("reasons.logs.sel_undated", label=label, window=win.describe(), n=len(undated)),
            facts.evidence("ipmi_sel", _sample([e.line for e in undated], 4)),
        )
    reason = (
        msg("reasons.logs.sel_absent_older", label=label, window=win.describe(), n=len(hits))
        if hits
        else msg("reasons.logs.sel_absent", label=label, window=win.describe())
    )
    return by_outcome(
        str(params.get("when_absent", "ruled_out")),
        reason,
        facts.evidence("ipmi_sel", _sample([e.line for e in hits], 4)),
    )


_OUTCOMES = "confirmed | ruled_out | inconclusive"
SPECS = (
    spec(
        kernel_log_match,
        ("kernel_log",),
        {
            "xid": "Xid number or list",
            "pattern": "Python regex over the message (case-insensitive)",
            "min_count": "lines needed (default 1)",
            "unless_xid": "Xids that, when present, make this one a consequence (ruled out)",
            "unless_pattern": "regex; a matching line makes this one a consequence (ruled out)",
            "hours": "look-back when no --since (default: whole boot)",
            "when_found": f"verdict when found (default confirmed; {_OUTCOMES})",
            "when_absent": f"verdict when absent (default ruled_out; {_OUTCOMES})",
            "label": "words for reasons, {en, zh}",
            "health_pattern": "regex of a line that shows health; without it an absence is inconclusive",
            "health_label": "words for that line, {en, zh}",
        },
        describe={
            "en": (
                "Searches the kernel log of the time window (this boot unless a time is "
                "given) for the Xid codes or messages this cause leaves: finding them confirms "
                "it; their absence rules it out only in output that reads as a complete kernel log "
                "(or, where the entry names one, when a line showing health is there)."
            ),
            "zh": (
                "在时间窗口内（未指定时为本次开机以来）的内核日志里查找这个原因会留下的 "
                "Xid 或报错信息：找到即确认；只有输出确实是完整的内核日志（或条目指定的健康行出现）时，"
                "找不到才排除。"
            ),
        },
    ),
    spec(
        fabricmanager_log_match,
        ("fabricmanager_log",),
        {
            "kind": "one or a list of kinds",
            "pattern": "regex",
            "when_found": _OUTCOMES,
            "when_absent": _OUTCOMES,
            "label": "words for reasons, {en, zh}",
        },
        describe={
            "en": (
                "Searches the Fabric Manager log for the messages this cause leaves: finding "
                "them confirms it; their absence rules it out only when the host has a Fabric "
                "Manager log at all."
            ),
            "zh": (
                "在 Fabric Manager 日志里查找这个原因会留下的信息：找到即确认；"
                "只有主机上确实有 Fabric Manager 日志时，找不到才排除。"
            ),
        },
    ),
    spec(
        ipmi_sel_match,
        ("ipmi_sel",),
        {
            "pattern": "regex over sensor and event (default power/voltage/AC lost)",
            "hours": "look-back",
            "consistent_with": "phrase appended to the reason, {en, zh}",
            "when_found": _OUTCOMES,
            "when_absent": _OUTCOMES,
            "when_recovered": "verdict when each match was deasserted later (default: as when_found)",
            "label": "words for reasons, {en, zh}",
        },
        describe={
            "en": (
                "Searches the BMC event log (SEL) of the past days for the power, fan or "
                "memory events this cause leaves: such events confirm it, none rule it "
                "out."
            ),
            "zh": (
                "在 BMC 事件日志（SEL）里查找最近几天与这个原因相关的电源、风扇或内存事件：有"
                "即确认，没有则排除。"
            ),
        },
    ),
)

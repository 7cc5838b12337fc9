"""The registry of checks and `evaluate`, which combines an entry's check references into one verdict.

Combination: any check confirmed -> confirmed (with the confirming evidence); otherwise any
inconclusive -> inconclusive (with every reason); otherwise ruled out. A benign entry that is
confirmed is reported as confirmed with `benign=True`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime

from pitstop.collectors import catalog
from pitstop.collectors.checks import (
    container,
    driver,
    fabric,
    fleet,
    gpu,
    host,
    job,
    logs,
    network,
    pcie,
    storage,
    system,
)
from pitstop.collectors.checks.base import CheckSpec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, CommandResult, Verdict
from pitstop.core.i18n import Msg, msg
from pitstop.kb.schema import Pitfall

CHECKS: dict[str, CheckSpec] = {
    spec.name: spec
    for spec in (
        *gpu.SPECS,
        *driver.SPECS,
        *logs.SPECS,
        *pcie.SPECS,
        *network.SPECS,
        *storage.SPECS,
        *host.SPECS,
        *fabric.SPECS,
        *container.SPECS,
        *job.SPECS,
        *system.SPECS,
        *fleet.SPECS,
    )
}

__all__ = ["CHECKS", "WHEN_CONFIRMED", "CheckSpec", "evaluate", "needs_of"]


def needs_of(pitfall: Pitfall) -> tuple[str, ...]:
    """The catalog collectors an entry's checks need, in order, without duplicates."""
    seen: dict[str, None] = {}
    for ref in pitfall.checks:
        spec = CHECKS.get(ref.check)
        for collector in spec.needs if spec else ():
            seen.setdefault(collector, None)
    return tuple(seen)


# A parameter every check accepts, applied here: what a confirmation by this check may at most mean.
# `when_confirmed: inconclusive` keeps physical causes the host cannot see (a heat pipe, a dusty slot)
# at "consistent with", and single readings of growing counters at "read again".
WHEN_CONFIRMED = "when_confirmed"


def _run(spec: CheckSpec, facts: Facts, params: Mapping[str, object], ctx: CheckContext) -> Verdict:
    cap = params.get(WHEN_CONFIRMED)
    own = {k: v for k, v in params.items() if k != WHEN_CONFIRMED}
    try:
        verdict = spec.fn(facts, own, ctx)
    except Exception as exc:  # a check bug must not hide the other verdicts; say so instead of a traceback
        return Verdict(
            pitfall="",
            verdict="inconclusive",
            reason=msg("reasons.check_failed", check=spec.name, error=repr(exc)),
        )
    verdict = contradiction_rule(spec, facts, verdict)
    if verdict.verdict == "confirmed" and cap == "inconclusive":
        return replace(
            verdict, verdict="inconclusive", reason=msg("reasons.consistent", reason=verdict.reason)
        )
    return verdict


def _inputs(spec: CheckSpec) -> tuple[str, ...]:
    """The collectors a check reads: its needs and the fallbacks that stand in for them."""
    fallbacks = tuple(c.name for c in catalog.CATALOG if c.fallback_for in spec.needs)
    return spec.needs + fallbacks


def contradiction_rule(spec: CheckSpec, facts: Facts, verdict: Verdict) -> Verdict:
    """What every verdict must satisfy, whatever the check: a confirmation quotes a line from output
    that was read (not from a missing tool or a failed command); a rule-out quotes a line that shows
    health, from output that was not cut at the size cap. Anything else is inconclusive, saying why."""
    if verdict.verdict == "inconclusive":
        return verdict
    readable = facts.read_commands()
    quoted = [e for e in verdict.evidence if e.lines and e.command in readable]
    if not quoted:
        why = msg("reasons.unquoted")
        return replace(
            verdict, verdict="inconclusive", reason=msg("reasons.but", reason=verdict.reason, why=why)
        )
    if verdict.verdict == "ruled_out":
        quoted_commands = {e.command for e in verdict.evidence}
        cut = [c for c in facts.truncated() if c in _inputs(spec) or facts.command(c) in quoted_commands]
        if cut:
            why = msg("reasons.cut", commands=", ".join(facts.command(c) for c in cut))
            return replace(
                verdict, verdict="inconclusive", reason=msg("reasons.but", reason=verdict.reason, why=why)
            )
    return verdict


_RECENT: OrderedDict[int, tuple[Mapping[str, CommandResult], datetime | None, Facts]] = OrderedDict()
_RECENT_LOCK = threading.Lock()


def facts_for(results: Mapping[str, CommandResult], now: datetime | None) -> Facts:
    """The parsed facts of one host's results, shared by every entry evaluated on them.

    A sweep evaluates every entry on the same results; parsing once per host instead of once per
    entry is what keeps the client's CPU per host low. The cache holds the last 64 result sets.
    """
    with _RECENT_LOCK:
        hit = _RECENT.get(id(results))
        if hit is not None and hit[0] is results and hit[1] == now:
            _RECENT.move_to_end(id(results))
            return hit[2]
        facts = Facts(results, now=now)
        _RECENT[id(results)] = (results, now, facts)
        while len(_RECENT) > 64:
            _RECENT.popitem(last=False)
        return facts


def _no_check(pitfall: Pitfall) -> Msg:
    """Why an entry has no check, with the entry's own note (both languages) when it has one."""
    note = pitfall.checks_note
    if note.get("en"):
        return msg("reasons.no_check_because", note=dict(note))
    return msg("reasons.no_check")


def evaluate(pitfall: Pitfall, results: Mapping[str, CommandResult], ctx: CheckContext) -> Verdict:
    """Run every check the entry names on one host's results and combine them."""
    facts = facts_for(results, ctx.now)
    commands = tuple(facts.command(c) for c in needs_of(pitfall) if c in results)
    if not pitfall.checks:
        return Verdict(
            pitfall=pitfall.id,
            verdict="inconclusive",
            commands=commands,
            reason=_no_check(pitfall),
        )
    verdicts = []
    for ref in pitfall.checks:
        spec = CHECKS.get(ref.check)
        if spec is None:
            verdicts.append(
                Verdict(
                    pitfall="", verdict="inconclusive", reason=msg("reasons.unknown_check", check=ref.check)
                )
            )
        else:
            verdicts.append(_run(spec, facts, ref.params, ctx))
    for name in ("confirmed", "inconclusive", "ruled_out"):
        chosen = [v for v in verdicts if v.verdict == name]
        if chosen:
            break
    # distinct reasons in order (a message hashes by rendering its parameters: skipped for one)
    reasons = (chosen[0].reason,) if len(chosen) == 1 else tuple(dict.fromkeys(v.reason for v in chosen))
    reason = reasons[0] if len(reasons) == 1 else msg("reasons.all", reasons=reasons)
    evidence = tuple(e for v in chosen for e in v.evidence if e.lines)
    return Verdict(
        pitfall=pitfall.id,
        verdict=name,
        reason=reason,
        evidence=evidence,
        commands=commands,
        benign=pitfall.benign and name == "confirmed",
    )

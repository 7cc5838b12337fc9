"""What every check module shares: the spec record, verdict constructors, the time window, GPU access."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Evidence, Verdict
from pitstop.collectors.parsers.gpu import Gpu
from pitstop.collectors.parsers.smi_error import SmiError
from pitstop.core.i18n import Msg, msg

CheckFn = Callable[[Facts, Mapping[str, Any], CheckContext], Verdict]


@dataclass(frozen=True)
class CheckSpec:
    """A registered check: its name, the catalog collectors it needs, the function, and its documentation.

    `doc` (the docstring) is for developers; `describe` is for the people reading an answer: one
    sentence per language (`{"en": ..., "zh": ...}`) saying what the check looks at and what
    confirms or rules the cause out, shown as the answer's "Check:" line.
    """

    name: str
    needs: tuple[str, ...]
    fn: CheckFn
    doc: str
    params: Mapping[str, str] = field(default_factory=dict)  # parameter -> what it means
    describe: Mapping[str, str] = field(default_factory=dict)  # lang -> one human sentence

    def description(self, lang: str) -> str:
        """The human sentence in `lang` (English when that language is missing)."""
        return self.describe.get(lang) or self.describe.get("en", "")


def spec(
    fn: CheckFn,
    needs: tuple[str, ...],
    params: Mapping[str, str] | None = None,
    *,
    describe: Mapping[str, str],
) -> CheckSpec:
    """Register `fn` under its own name, documented by its docstring and described by `describe`."""
    return CheckSpec(fn.__name__, needs, fn, inspect.getdoc(fn) or "", dict(params or {}), dict(describe))


def confirmed(reason: Msg, *evidence: Evidence) -> Verdict:
    """The cause is present."""
    return Verdict(pitfall="", verdict="confirmed", reason=reason, evidence=evidence)


def ruled_out(reason: Msg, *evidence: Evidence) -> Verdict:
    """The facts were read and the cause is absent."""
    return Verdict(pitfall="", verdict="ruled_out", reason=reason, evidence=evidence)


def inconclusive(reason: Msg, *evidence: Evidence) -> Verdict:
    """The facts could not be read or do not decide."""
    return Verdict(pitfall="", verdict="inconclusive", reason=reason, evidence=evidence)


def by_outcome(outcome: str, reason: Msg, *evidence: Evidence) -> Verdict:
    """A verdict named by a parameter ("confirmed" | "ruled_out" | "inconclusive")."""
    makers = {"confirmed": confirmed, "ruled_out": ruled_out, "inconclusive": inconclusive}
    return makers.get(outcome, inconclusive)(reason, *evidence)


def entry_text(value: Any, default: Msg) -> Msg:
    """A parameter that words a finding in the entry itself (`found`, `label`): `{en, zh}` from the
    YAML (a plain string stands for both languages), or `default` when the entry gives none."""
    if not value:
        return default
    text = {str(k): str(v) for k, v in value.items()} if isinstance(value, Mapping) else {"en": str(value)}
    return msg("reasons.entry_text", text=text)


def as_list(value: Any) -> list[Any]:
    """A parameter that may be one value or a list."""
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple | set) else [value]


def utc(value: datetime | None) -> datetime | None:
    """Treat naive datetimes as UTC."""
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Window:
    """The time span a log check looks at; `since` None means the whole current boot."""

    since: datetime | None
    now: datetime | None
    until: datetime | None = None  # a job's end: later lines are not about it
    latest: datetime | None = field(init=False, repr=False, compare=False)  # the end, 5 minutes late

    def __post_init__(self) -> None:
        end = self.until or self.now
        object.__setattr__(self, "latest", None if end is None else end + timedelta(minutes=5))

    def contains(self, when: datetime | None) -> bool:
        """Untimed lines count: the catalog's commands read the current boot only."""
        if when is None:
            return True
        if self.since is not None and when < self.since:
            return False
        return self.latest is None or when <= self.latest

    def describe(self) -> Msg:
        """ "since boot", "since 2026-01-02 03:04 UTC" or "from ... to ... UTC" (a job's span)."""
        if self.since is None:
            return msg("reasons.window.boot")
        if self.until is not None:
            return msg(
                "reasons.window.span",
                since=f"{self.since:%Y-%m-%d %H:%M}",
                until=f"{self.until:%Y-%m-%d %H:%M}",
            )
        return msg("reasons.window.since", since=f"{self.since:%Y-%m-%d %H:%M}")


def window(ctx: CheckContext, hours: float | None = None) -> Window:
    """The context's window; `hours` gives a default look-back when the context has no `since`."""
    now = utc(ctx.now)
    since = utc(ctx.since)
    if since is None and hours is not None:
        since = (now or datetime.now(UTC)) - timedelta(hours=hours)
    return Window(since=since, now=now, until=utc(ctx.until))


def smi_errors(facts: Facts) -> list[tuple[str, SmiError]]:
    """The nvidia-smi error texts read, each with its collector (the table's, then the probe's)."""
    table, probe = facts.get("nvidia_smi"), facts.get("nvml_probe")
    found = (
        ("nvidia_smi", table.error if table else None),
        ("nvml_probe", probe.smi_error if probe else None),
    )
    return [(collector, error) for collector, error in found if error is not None]


def gpus_or_reason(facts: Facts) -> tuple[str, tuple[Gpu, ...]] | Verdict:
    """GPU records and their collector, or an inconclusive verdict saying why there are none."""
    collector, gpus = facts.gpus()
    if collector is not None and gpus is not None:  # the two are None together
        return collector, gpus
    probe = facts.get("nvml_probe")
    reasons: list[Msg] = []
    if probe is not None:
        if probe.smi_error is not None:
            reasons.append(msg("reasons.gpu.smi_said", error=probe.smi_error.line))
        if probe.message:
            reasons.append(msg("reasons.gpu.probe_said", error=probe.message))
        if probe.smi_missing:
            reasons.append(msg("reasons.read.not_installed", tool="nvidia-smi"))
    reason = (
        msg("reasons.all", reasons=tuple(reasons))
        if reasons
        else facts.why_missing("nvml_probe", "nvidia_smi_q")
    )
    return inconclusive(msg("reasons.gpu.no_facts", why=reason))


def per_gpu(
    facts: Facts, test: Callable[[Gpu], bool | None], fields: Iterable[str], found: Msg, absent: Msg
) -> Verdict:
    """Confirmed when `test` is True on some GPU, ruled out when False on all, else inconclusive.

    `found` and `absent` name the condition ("temperature at or above 85 C", "every GPU below
    85 C"); the verdict adds the GPUs (`reasons.gpu.found_on`) or the count read (`reasons.gpu.absent`).
    """
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    fields = tuple(fields)
    hits = [g for g in gpus if test(g) is True]
    unknown = [g for g in gpus if test(g) is None]
    if hits:
        lines = [
            f"GPU {g.label} ({g.name or 'unknown model'}): {g.line(f)}"
            for g in hits
            for f in fields
            if f in g.lines or g.value(f) is not None
        ]
        return confirmed(
            msg("reasons.gpu.found_on", what=found, gpus=", ".join(g.label for g in hits)),
            facts.evidence(collector, lines),
        )
    if unknown:
        why = tuple(
            msg("reasons.gpu.error_on", gpu=g.label, error=g.error)
            if g.error
            else msg("reasons.gpu.unreadable_on", gpu=g.label)
            for g in unknown
        )
        return inconclusive(msg("reasons.gpu.cannot_tell", why=why))
    lines = [
        f"GPU {g.label}: {g.line(f)}" for g in gpus for f in fields if f in g.lines or g.value(f) is not None
    ]
    return ruled_out(
        msg("reasons.gpu.absent", what=absent, n=len(gpus)), facts.evidence(collector, lines[:8])
    )

"""Diagnose: candidate causes for a paste (or every checkable cause), collectors on hosts, verdicts.

The caller has already authorized the request (pitstop.authz). Hosts come only from the
inventory; only the collectors the candidates' checks need are run; every command is audited.
A host that fails never hides the others, and each host's run is bounded in time.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pitstop.app.authz import Policy
from pitstop.app.checking import Checker, leaned
from pitstop.collectors import catalog, compare, jobs, runner
from pitstop.collectors.audit import AuditLog
from pitstop.collectors.catalog import display
from pitstop.collectors.checks import fleet
from pitstop.collectors.checks.registry import CHECKS, evaluate
from pitstop.collectors.facts import ReadState, reading
from pitstop.collectors.hostlist import compress
from pitstop.collectors.inventory import DEFAULT_MAX_HOSTS, Host, Inventory
from pitstop.collectors.jobs import JobInfo
from pitstop.collectors.model import CheckContext, CommandResult, HostStatus, Verdict
from pitstop.collectors.transport import framing
from pitstop.collectors.transport.ssh import Connector
from pitstop.core.clock import parse_since, stamp
from pitstop.core.errors import NotAllowed, NotFound, UsageError
from pitstop.core.i18n import Msg, msg, render, t
from pitstop.core.jsondoc import dumps
from pitstop.core.redact import redact

if TYPE_CHECKING:
    import sqlite_utils

    from pitstop.kb.schema import Pitfall
    from pitstop.kb.service import KnowledgeBase

CANDIDATES = 5
KEEP_OUTPUTS_HOSTS = 16  # above this many hosts a command's output is released once it is checked
# (and a sweep keeps evidence only for what it shows: its confirmed verdicts)
CHECK_BACKLOG = 64  # hosts whose outputs wait for the check worker, beyond those being collected:
# when checks fall behind, no new host starts, so memory stays bounded by outputs in flight
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiagnoseRequest:
    """An already-authorized request: which hosts, the pasted error (None = full sweep), the window."""

    hosts: str
    error_text: str | None = None
    since: str | datetime | None = None
    requester: str = "cli"
    origin: str = "cli"
    max_hosts: int = DEFAULT_MAX_HOSTS
    selected: tuple[Host, ...] = ()  # `hosts` already expanded (by `authorized_hosts`); else expanded here
    until: datetime | None = None  # the window's end (a job's end time)
    job: JobInfo | None = None  # the job whose nodes these are (`job_request`)


def authorized_hosts(
    inventory: Inventory,
    policy: Policy,
    target: str,
    *,
    user: str,
    channel: str | None,
    origin: str,
    max_hosts: int = DEFAULT_MAX_HOSTS,
) -> tuple[Host, ...]:
    """The one expansion of a host expression: the inventory hosts `target` names, if `policy` lets
    `user` check them (UsageError for an empty or bad expression, NotFound for an unknown host,
    NotAllowed when refused). Slack, the console and the CLI all ask here before diagnosing."""
    if not target.strip():
        raise UsageError(msg("errors.diagnose.no_hosts"))
    hosts = inventory.select(target, max_hosts=max_hosts)
    authorize_hosts(policy, hosts, user=user, channel=channel, origin=origin)
    return hosts


def authorize_hosts(
    policy: Policy, hosts: Sequence[Host], *, user: str, channel: str | None, origin: str
) -> None:
    """NotAllowed unless `policy` lets `user` run collectors on every one of `hosts`."""
    decision = policy.authorize(user=user, user_groups=(), channel=channel, hosts=list(hosts), origin=origin)
    if not decision.allowed:
        raise NotAllowed(decision.reason)


@dataclass(frozen=True)
class HostReport:
    """The outcome on one host."""

    host: str
    status: HostStatus
    error: str | Msg = ""  # why the host could not be used, rendered in the reader's language
    verdicts: tuple[Verdict, ...] = ()
    commands: tuple[CommandResult, ...] = ()
    duration_s: float = 0.0
    sweep: bool = False

    @property
    def confirmed(self) -> tuple[Verdict, ...]:
        """Confirmed, non-benign verdicts."""
        return tuple(v for v in self.verdicts if v.verdict == "confirmed" and not v.benign)

    @property
    def benign(self) -> tuple[Verdict, ...]:
        """Confirmed benign verdicts (worth knowing, not a fault)."""
        return tuple(v for v in self.verdicts if v.verdict == "confirmed" and v.benign)

    @property
    def shown(self) -> tuple[Verdict, ...]:
        """The verdicts worth reporting and recording: a sweep's confirmed ones, else all."""
        return self.confirmed if self.sweep else self.verdicts

    @property
    def evidence_status(self) -> ReadState:
        """Whether the host's evidence could be read: "checked" | "partial" | "unreadable" | "not_run".

        "unreadable" also when the connection failed, or when every verdict that names commands is
        inconclusive and none of those commands could be read: unknown is not healthy.
        """
        if self.status != "ok":
            return "unreadable"
        state, unread = self._reading
        if state in ("unreadable", "not_run"):
            return state
        failed = {display(c.argv) for c in self.commands if c.collector in unread}
        decisive = [v for v in self.verdicts if v.commands]
        if decisive and all(v.verdict == "inconclusive" and set(v.commands) <= failed for v in decisive):
            return "unreadable"
        return state

    @property
    def unread(self) -> dict[str, Msg]:
        """Collector -> why its output could not be read (tools not installed included)."""
        return dict(self._reading[1])

    @functools.cached_property
    def _reading(self) -> tuple[ReadState, dict[str, Msg]]:
        """`reading` of the commands, once (the JSON and the digest ask for both of its parts)."""
        return reading(self.commands)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The host's part of the issue-3 JSON shape, reasons in `lang`."""
        out: dict[str, Any] = {
            "host": self.host,
            "status": self.status,
            "evidence_status": self.evidence_status,
            "unread": {c: redact(render(why, lang)) for c, why in self.unread.items()},
            "error": redact(render(self.error, lang)) or None,
            "verdicts": [v.to_json(lang) for v in self.shown],
            "commands": [command_json(c, lang) for c in self.commands],
            "duration_s": self.duration_s,
        }
        if self.sweep:
            out["benign"] = [v.to_json(lang) for v in self.benign]
            out["summary"] = {
                k: sum(v.verdict == k for v in self.verdicts)
                for k in ("confirmed", "ruled_out", "inconclusive")
            }
        return out


def command_json(c: CommandResult, lang: str = "en") -> dict[str, Any]:
    """One command as JSON, its message in `lang`."""
    return {
        "collector": c.collector,
        "argv": list(c.argv),
        "outcome": c.outcome,
        "exit": c.exit,
        "duration_s": c.duration_s,
        "truncated": c.truncated,
        "message": redact(render(c.message, lang)) if c.message else "",
    }


@dataclass(frozen=True)
class DiagnoseReport:
    """Every host's report, and what was considered."""

    hosts: tuple[HostReport, ...]
    candidates: tuple[dict[str, Any], ...] = ()
    sweep: bool = False
    since: datetime | None = None
    collectors: tuple[str, ...] = ()
    lang: str = "en"
    notes: tuple[str, ...] = field(default_factory=tuple)
    outliers: tuple[compare.Outlier, ...] = ()
    job: JobInfo | None = None
    until: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        """`{"hosts", "outliers", "job", ...}` (docs/ARCHITECTURE.md, "Diagnose report")."""
        return {
            "hosts": [h.to_json(self.lang) for h in self.hosts],
            "outliers": [o.to_json() for o in self.outliers],
            "job": self.job.to_json() if self.job else None,
            "until": stamp(self.until) if self.until else None,
            "mode": "sweep" if self.sweep else "error",
            "candidates": list(self.candidates),
            "since": stamp(self.since) if self.since else None,
            "collectors": list(self.collectors),
            "lang": self.lang,
            "notes": list(self.notes),
        }


def report_json(report: DiagnoseReport) -> str:
    """The report as its `pitstop.diagnose/1` document (docs/JSON.md), evidence redacted: the one
    serialization of a report, printed by `pitstop diagnose --json` and attached to the Slack thread."""
    return dumps("diagnose", report.to_json())


Progress = Callable[[HostReport, int, int], Awaitable[None] | None]


def needed_collectors(pitfalls: Sequence[Any]) -> tuple[str, ...]:
    """The catalog collectors the pitfalls' checks need, in catalog order."""
    wanted = {
        name for p in pitfalls for ref in p.checks if ref.check in CHECKS for name in CHECKS[ref.check].needs
    }
    return tuple(c.name for c in catalog.CATALOG if c.name in wanted)


def host_bound(lanes: int, collectors: Sequence[str], connect_timeout: float) -> float:
    """Seconds one host may take: connect, then per phase its fullest lane with every command hanging
    to its deadline and every channel start slow, doubled (an upper bound on the runner's deadlines)."""
    first, second = runner.plan(collectors)

    def phase(cs: Sequence[catalog.Collector], n: int) -> float:
        cmds = [
            catalog.Command(c.name, c.argv, c.timeout_s, c.output_cap, b"" if c.stdin_probe else None)
            for c in cs
            for _ in range(c.param.limit if c.param else 1)
        ]
        if not cmds:
            return 0.0
        worst = max(
            sum(x.timeout_s + framing.KILL_AFTER_S + runner.SLACK_S for x in lane)
            for lane in runner.split_lanes(cmds, n)
        )
        return 2 * (runner.OPEN_S + worst)

    later = phase(second, runner.SECOND_PHASE_LANES)
    return connect_timeout + 1 + phase(first, lanes) + later + runner.SLACK_S


def _released(commands: tuple[CommandResult, ...]) -> tuple[CommandResult, ...]:
    """The commands without their output (kept: sizes, exit codes, messages)."""
    return tuple(replace(c, stdout="", stderr="") for c in commands)


async def _run(
    host: Host, collectors: Sequence[str], lanes: int, connector: Connector, bound: float
) -> runner.HostRun:
    if not collectors:
        return runner.HostRun(host.name, "ok")
    try:
        work = runner.run_host(host, collectors, connector=connector, lanes=lanes)
        return await asyncio.wait_for(work, bound)
    except TimeoutError:
        why = msg("errors.runner.no_result", host=host.name, seconds=f"{bound:.0f}")
        return runner.HostRun(host.name, "error", why, duration_s=round(bound, 3))
    except Exception as exc:  # noqa: BLE001 - errors are values at the fan-out boundary
        log.exception("diagnose failed on %s", host.name)
        why = msg("errors.runner.internal", host=host.name, kind=type(exc).__name__, error=str(exc))
        return runner.HostRun(host.name, "error", why)


def _candidates(
    kb: KnowledgeBase, error_text: str | None
) -> tuple[list[Pitfall], tuple[dict[str, Any], ...], str]:
    """The causes to check, as shown candidates, and the paste's language: every curated cause that
    has a check for a sweep (no error text), else the KB's best matches for the paste."""
    if not (error_text and error_text.strip()):
        return [p for p in kb.all(("curated",)) if p.checks], (), "en"
    answer = kb.ask(error_text, top=CANDIDATES)
    candidates = tuple(
        {"id": m.id, "title": m.title, "score": m.score, "confidence": m.confidence} for m in answer.results
    )
    return [kb.get(m.id) for m in answer.results], candidates, answer.lang


async def diagnose(
    request: DiagnoseRequest,
    *,
    inventory: Inventory,
    kb: KnowledgeBase,
    progress: Progress | None = None,
    db: sqlite_utils.Database | None = None,
    connector: Connector | None = None,
    concurrency: int = 256,
) -> DiagnoseReport:
    """Run the request and return a report; raises PitstopError only for a bad request (unknown host...)."""
    hosts = request.selected or inventory.select(request.hosts, max_hosts=request.max_hosts)
    now = datetime.now(UTC)
    since = parse_since(request.since, now)
    sweep = not (request.error_text and request.error_text.strip())
    # The KB is synchronous (SQLite, the embedding model): it runs in a thread, not on the event loop.
    pitfalls, candidates, lang = await asyncio.to_thread(_candidates, kb, request.error_text)
    collectors = needed_collectors(pitfalls)
    notes = []
    unknown = sorted({ref.check for p in pitfalls for ref in p.checks if ref.check not in CHECKS})
    if unknown:
        notes.append(f"unknown check(s) named by the KB: {', '.join(unknown)}")
    connector = connector or Connector(inventory)
    lanes = runner.lanes_for(len(hosts))
    bound = host_bound(lanes, collectors, connector.timeout)
    audit = AuditLog(db) if db is not None else None
    slots = runner.host_slots(max(1, concurrency))
    gate = asyncio.Semaphore(slots)
    backlog = asyncio.Semaphore(slots + CHECK_BACKLOG)  # started and not yet checked
    keep_outputs = len(hosts) <= KEEP_OUTPUTS_HOSTS
    lean = sweep and not keep_outputs
    check = Checker(pitfalls, len(hosts), lean) if collectors else None
    reports: dict[str, HostReport] = {}
    profiles: dict[str, compare.Profile] = {}

    async def task(host: Host) -> None:
        ctx = CheckContext(
            host=host.name, expectations=dict(host.expect), since=since, now=now, until=request.until
        )
        async with backlog:
            async with gate:
                run = await _run(host, collectors, lanes, connector, bound)
            if audit is not None and run.commands:
                audit.record(request.requester, request.origin, host.name, run.commands)
            verdicts: tuple[Verdict, ...] = ()
            if check is not None and (run.status == "ok" or run.results):
                verdicts, profile = await check(run.results, ctx, host.name)
                if profile is not None:
                    profiles[host.name] = profile
            elif not collectors:
                verdicts = tuple(evaluate(p, run.results, ctx) for p in pitfalls)
                verdicts = leaned(verdicts) if lean else verdicts
            commands = run.commands if keep_outputs else _released(run.commands)
            report = HostReport(host.name, run.status, run.error, verdicts, commands, run.duration_s, sweep)
            del run  # its outputs are gone before another host may start
        reports[host.name] = report
        if progress is not None:
            try:
                maybe = progress(report, len(reports), len(hosts))
                if inspect.isawaitable(maybe):
                    await maybe
            except Exception:  # a failing progress display must not cost the other hosts their results
                log.warning("diagnose progress callback failed for %s", host.name, exc_info=True)

    try:
        await asyncio.gather(*(task(h) for h in hosts))
    finally:
        await connector.close()
        if check is not None:
            check.close()
    if not collectors:
        notes.append("no candidate cause has a read-only check; nothing was run on the hosts")
    if collectors and not keep_outputs:
        notes.append(t("sweep.outputs_released", "en", n=len(hosts), keep=KEEP_OUTPUTS_HOSTS))
    outside = [n for n in request.job.nodes if n not in inventory.hosts] if request.job else []
    if outside:
        notes.append(t("fleet.job.outside_inventory", "en", n=len(outside), hosts=compress(outside)))
    ordered = [profiles[h.name] for h in hosts if h.name in profiles]
    together = request.job is not None or not sweep  # one job, or hosts named for one failure
    final = tuple(reports[h.name] for h in hosts)
    if together:
        final = _across_hosts(final, pitfalls, ordered)
    return DiagnoseReport(
        final,
        candidates,
        sweep,
        since,
        collectors,
        lang,
        tuple(notes),
        compare.outliers(ordered),
        request.job,
        request.until,
    )


async def resolve_job(
    kind: str,
    job_id: str,
    *,
    inventory: Inventory,
    connector: Connector | None = None,
    db: Any = None,
    requester: str = "cli",
    origin: str = "cli",
) -> JobInfo:
    """A job's nodes and time span from its scheduler (collectors/jobs), the commands audited. The
    caller has authorized the scheduler's host (`jobs.resolver(kind).host(inventory)`)."""
    info = await jobs.resolver(kind).resolve(job_id, inventory, connector)
    if db is not None and info.commands:
        AuditLog(db).record(requester, origin, info.source, info.commands)
    return info


def authorized_job_host(
    inventory: Inventory, policy: Policy, job_id: str, *, user: str, channel: str | None, origin: str
) -> Host:
    """The host that answers for Slurm job `job_id` (UsageError for a malformed id), if `policy` lets
    `user` ask it; the job's nodes are authorized once known (`authorized_job_request`)."""
    slurm = jobs.resolver("slurm")
    slurm.validate(job_id)
    host = slurm.host(inventory)
    authorize_hosts(policy, (host,), user=user, channel=channel, origin=origin)
    return host


def authorized_job_request(
    info: JobInfo,
    inventory: Inventory,
    policy: Policy,
    base: DiagnoseRequest,
    *,
    user: str,
    channel: str | None,
    origin: str,
    max_hosts: int = DEFAULT_MAX_HOSTS,
) -> DiagnoseRequest:
    """`job_request` with the job's nodes selected, if `policy` lets `user` check them (Slack, the
    console and `pitstop diagnose --job` all come here)."""
    request = job_request(info, inventory, base)
    nodes = authorized_hosts(
        inventory, policy, request.hosts, user=user, channel=channel, origin=origin, max_hosts=max_hosts
    )
    return replace(request, selected=nodes)


def job_request(info: JobInfo, inventory: Inventory, base: DiagnoseRequest) -> DiagnoseRequest:
    """The request that diagnoses a job's nodes over the job's time span; nodes outside the inventory
    are left out with a note in the report. UsageError when the job has no node to check."""
    known = [n for n in info.nodes if n in inventory.hosts]
    if not known:
        if not info.nodes:
            raise UsageError(msg("fleet.job.no_nodes", job=info.job_id, state=info.state or "?"))
        raise NotFound(msg("fleet.job.outside_inventory", n=len(info.nodes), hosts=info.hostlist))
    return replace(base, hosts=compress(known), since=info.start, until=info.end, job=info)


def _across_hosts(
    reports: tuple[HostReport, ...], pitfalls: Sequence[Any], profiles: Sequence[compare.Profile]
) -> tuple[HostReport, ...]:
    """Replace the per-host placeholder verdicts of causes decided by comparing hosts."""
    decided: dict[str, dict[str, Verdict]] = {}
    for p in pitfalls:
        for ref in p.checks:
            if ref.check == fleet.versions_agree_across_hosts.__name__:
                names = ref.params.get("facts") or fleet.DEFAULT_FACTS
                decided[p.id] = compare.cross_host_verdicts(p.id, tuple(names), profiles)
    if not decided:
        return reports
    out = []
    for r in reports:
        verdicts = tuple(
            replace(
                decided[v.pitfall][r.host],
                commands=v.commands,
                benign=v.benign and decided[v.pitfall][r.host].verdict == "confirmed",
            )
            if v.pitfall in decided and r.host in decided[v.pitfall]
            else v
            for v in r.verdicts
        )
        out.append(replace(r, verdicts=verdicts))
    return tuple(out)

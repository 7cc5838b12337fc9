"""The one engine that runs catalog commands on a host and turns what happened into CommandResults.

Commands are packed into a few framing scripts ("lanes", transport/framing.py), each on its own
channel of one connection (one lane per host in a fleet sweep, plus one for the commands that
depend on its output), so a host costs one shell per lane plus one process per command under bash
(the remote timeout is a shell function there; bench/bench_fanout.py counts them).
Every script passes the read-only policy before it leaves the process. Each command has a remote
`timeout -k` and a local deadline; a lane whose command outlives both is abandoned and its
remaining commands move to a fresh channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pitstop.collectors import catalog, policy
from pitstop.collectors.catalog import Collector, Command
from pitstop.collectors.inventory import Host
from pitstop.collectors.model import CommandResult, HostStatus, Outcome
from pitstop.collectors.transport import framing, local
from pitstop.collectors.transport.base import HostUnavailable, Session
from pitstop.collectors.transport.ssh import Connector
from pitstop.core.i18n import Msg, msg
from pitstop.core.redact import redact

SLACK_S = 3.0  # local grace beyond a command's remote timeout and kill delay
OPEN_S = 10.0  # time a channel may take to start its first command (or the next one)
STDERR_CAP = 64 * 1024
SECOND_PHASE_LANES = 1  # a few small commands (ethtool per interface, a fallback): one channel
_MISSING = re.compile(r"command not found|^sh: \d+: \S+: not found", re.M)
_SUDO_REFUSED = re.compile(r"^sudo: (?:a password is required|a terminal is required|sorry,)", re.M)
# A command's message with one of these keys means the connection to its host went away.
LOST = frozenset({"errors.runner.lost", "errors.runner.lost_because", "errors.runner.no_channel"})

FDS_PER_HOST = 2  # the SSH socket, and room for a jump host's or the local transport's pipes
FDS_RESERVED = 64  # the database, logs, the check worker's pipes


@dataclass(frozen=True)
class HostRun:
    """Everything that happened on one host: per-collector results and every command run."""

    host: str
    status: HostStatus
    error: str | Msg = ""  # why the host could not be used (a Msg renders in the reader's language)
    results: Mapping[str, CommandResult] = field(default_factory=dict)
    commands: tuple[CommandResult, ...] = ()
    duration_s: float = 0.0
    channels: int = 0


def plan(names: Iterable[str]) -> tuple[tuple[Collector, ...], tuple[Collector, ...]]:
    """Split the wanted collectors into a first phase and a second one that depends on it.

    A collector's fallback (dmesg for kernel_log) joins the second phase whenever it is wanted.
    """
    first: dict[str, Collector] = {}
    second: dict[str, Collector] = {}
    names = list(names)
    names += [c.name for c in catalog.CATALOG if c.fallback_for in names and c.name not in names]
    for name in names:
        c = catalog.get(name)
        source = c.param.source if c.param else c.fallback_for
        if source:
            first.setdefault(source, catalog.get(source))
            second[name] = c
        else:
            first[name] = c
    return tuple(first.values()), tuple(second.values())


def host_slots(wanted: int) -> int:
    """How many hosts may run at once: `wanted`, lowered to what the open-files limit allows.

    The soft limit is first raised to the hard one (as a server would), so a large fleet is bounded
    by a count the operating system will honour instead of failing with "Too many open files".
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:
        in_use = FDS_RESERVED
    return max(1, min(wanted, (soft - in_use - FDS_RESERVED) // FDS_PER_HOST))


def lanes_for(host_count: int) -> int:
    """Channels per host: many for one host (latency), few for a fleet (the hosts' CPU)."""
    return 8 if host_count <= 2 else 4 if host_count <= 8 else 1


def _classify(cmd: Command, status: int | None, stderr: str, duration: float) -> tuple[Outcome, Msg | None]:
    if status == 0:
        return "ok", None
    if status is None:
        return "error", msg("errors.runner.no_status")
    if status == 124 or (status == 137 and duration >= cmd.timeout_s):
        return "timeout", msg("errors.runner.timed_out", seconds=cmd.timeout_s)
    if status == 127 or _MISSING.search(stderr):
        return "missing", msg("errors.runner.missing", tool=cmd.argv[0])
    if cmd.sudo and _SUDO_REFUSED.search(stderr):
        return "refused", msg("errors.runner.sudo_refused")
    first = next((line.strip() for line in stderr.splitlines() if line.strip()), "")
    if first:
        return "nonzero", msg("errors.runner.exited_said", status=status, stderr=redact(first)[:200])
    return "nonzero", msg("errors.runner.exited", status=status)


def _result(
    cmd: Command,
    outcome: Outcome,
    message: Msg | None,
    status: int | None = None,
    stdout: str = "",
    stderr: str = "",
    duration: float = 0.0,
    truncated: bool = False,
    output_bytes: int | None = None,
) -> CommandResult:
    return CommandResult(
        collector=cmd.collector,
        argv=cmd.argv,
        outcome=outcome,
        exit=status,
        stdout=stdout,
        stderr=stderr,
        duration_s=round(duration, 3),
        truncated=truncated,
        message=message,
        output_bytes=output_bytes,
    )


async def _run_lane(session: Session, cmds: Sequence[Command]) -> list[CommandResult | None]:
    """Run one framing script; None marks a command that never started.

    One timer watches the lane: each marker moves it to the running command's deadline (or, between
    commands, to the next one's start), so a marker costs a timer, not a wake-up of this coroutine.
    """
    nonce = framing.new_nonce()
    script = framing.build_script(cmds)
    policy.check_argv(("sh", "-c", script))
    loop = asyncio.get_running_loop()
    began: dict[int, float] = {}
    ended: dict[int, float] = {}
    running: int | None = None
    last = loop.time()
    hung: int | None = None
    timer: asyncio.TimerHandle

    def deadline() -> float:
        if running is not None:
            return began[running] + cmds[running].timeout_s + framing.KILL_AFTER_S + SLACK_S
        return last + OPEN_S

    def expire() -> None:
        nonlocal hung, timer
        if loop.time() < deadline():
            timer = loop.call_at(deadline(), expire)
        elif not task.done():
            hung = running if running is not None else -1
            task.cancel()

    def on_marker(kind: str, index: int) -> None:
        nonlocal running, last, timer
        now = loop.time()
        if kind == "B":
            began[index], running = now, index
        else:
            ended[index], running, last = now, None, now
        timer.cancel()
        timer = loop.call_at(deadline(), expire)

    out = framing.Demux(nonce, [c.output_cap for c in cmds], on_marker)
    err = framing.Demux(nonce, [STDERR_CAP] * len(cmds))
    stdin = next((c.stdin for c in cmds if c.stdin is not None), None)
    run = session.run(script, framing.stdin_for(nonce, stdin), out.feed, err.feed, eof=stdin is not None)
    task = asyncio.ensure_future(run)
    timer = loop.call_at(deadline(), expire)
    try:
        await asyncio.wait({task})
    finally:
        timer.cancel()
        if not task.done():
            task.cancel()
        with contextlib.suppress(BaseException):
            await task
    failure = None if task.cancelled() or hung is not None else task.exception()
    if failure is not None and not began:
        raise failure  # the channel never ran anything (refused, connection gone)
    out.close()
    err.close()
    results: list[CommandResult | None] = []
    now = loop.time()
    for i, cmd in enumerate(cmds):
        stdout, stderr = out.tails[i], err.tails[i]
        duration = ended.get(i, now) - began.get(i, now)
        text: dict[str, Any] = {  # _result keywords, typed there
            "stdout": stdout.text(),
            "stderr": stderr.text(),
            "truncated": stdout.truncated,
            "output_bytes": stdout.total + stderr.total,
        }
        if i in out.forged or i in err.forged:
            why = msg("errors.runner.forged")
            results.append(
                _result(cmd, "error", why, duration=duration, **{**text, "stdout": "", "stderr": ""})
            )
        elif i in out.status:
            outcome, message = _classify(cmd, out.status[i], text["stderr"], duration)
            if stdout.truncated:
                cut = msg("errors.runner.truncated", kept=len(stdout.data), total=stdout.total)
                message = msg("errors.runner.joined", parts=[message, cut]) if message else cut
            results.append(_result(cmd, outcome, message, out.status[i], duration=duration, **text))
        elif i == hung:
            why = msg("errors.runner.stuck", seconds=f"{duration:.0f}")
            results.append(_result(cmd, "timeout", why, duration=duration, **text))
        elif i in began:
            why = (
                msg("errors.runner.lost_because", error=str(failure))
                if failure
                else msg("errors.runner.lost")
            )
            results.append(_result(cmd, "error", why, duration=duration, **text))
        else:
            results.append(None)
    return results


def _weight(cmd: Command) -> int:
    """A rough cost for balancing lanes: a Python probe costs several plain tools."""
    return 5 if cmd.argv[0] == "python3" else 1


def split_lanes(cmds: Sequence[Command], lanes: int) -> list[list[Command]]:
    """Deal commands over at most `lanes` lanes, heaviest first onto the lightest lane (one stdin each)."""
    n = max(1, min(lanes, len(cmds)), sum(c.stdin is not None for c in cmds))
    groups: list[list[Command]] = [[] for _ in range(n)]
    load = [0] * n
    for cmd in sorted(cmds, key=_weight, reverse=True):
        open_lanes = [i for i in range(n) if cmd.stdin is None or all(c.stdin is None for c in groups[i])]
        i = min(open_lanes, key=lambda k: load[k])
        groups[i].append(cmd)
        load[i] += _weight(cmd)
    return [sorted(g, key=lambda c: c.stdin is None) for g in groups if g]  # stdin first (framing)


async def _run_commands(
    session: Session, cmds: Sequence[Command], lanes: int
) -> tuple[list[CommandResult], int]:
    """Run commands over up to `lanes` channels; an abandoned lane's rest goes to a fresh channel."""
    if not cmds:
        return [], 0
    groups = split_lanes(cmds, lanes)
    outcomes = await asyncio.gather(*(_run_lane(session, g) for g in groups), return_exceptions=True)
    done: dict[int, CommandResult] = {}
    retry: list[Command] = []
    channels = len(groups)
    for group, outcome in zip(groups, outcomes, strict=True):
        if isinstance(outcome, policy.PolicyViolation):
            for c in group:
                done[id(c)] = _result(c, "refused", outcome.message)
            continue
        if isinstance(outcome, BaseException):
            for c in group:
                done[id(c)] = _result(c, "error", msg("errors.runner.no_channel", error=str(outcome)))
            continue
        for c, r in zip(group, outcome, strict=True):
            if r is None:
                retry.append(c)
            else:
                done[id(c)] = r
    while retry:  # each round settles at least one command, or gives up
        channels += 1
        try:
            again = await _run_lane(session, retry)
        except Exception as exc:  # noqa: BLE001 - a dead connection is a per-command error
            again = [_result(c, "error", msg("errors.runner.no_channel", error=str(exc))) for c in retry]
        stalled = all(r is None for r in again)
        for c, r in zip(retry, again, strict=True):
            if r is not None or stalled:
                done[id(c)] = r or _result(c, "error", msg("errors.runner.channel_late"))
        retry = [c for c, r in zip(retry, again, strict=True) if r is None and not stalled]
    return [done[id(c)] for c in cmds], channels


def _render_all(
    collectors: Iterable[Collector], sudo: frozenset[str], params: Mapping[str, str] | None = None
) -> tuple[list[Command], list[CommandResult]]:
    """Render the first phase; a request parameter (a job id) comes from `params`, checked by render."""
    cmds, failed = [], []
    for c in collectors:
        try:
            cmds.append(catalog.render(c, (params or {}).get(c.name), sudo=c.name in sudo))
        except (catalog.ProbeMissing, ValueError) as exc:
            failed.append(
                CommandResult(
                    c.name, c.argv, "error", message=msg("errors.runner.not_rendered", error=str(exc))
                )
            )
    return cmds, failed


def _second_phase(
    collectors: Iterable[Collector], first: Mapping[str, CommandResult], sudo: frozenset[str]
) -> tuple[list[Command], list[CommandResult]]:
    cmds: list[Command] = []
    skipped: list[CommandResult] = []
    for c in collectors:
        if c.fallback_for:
            primary = first.get(c.fallback_for)
            denied = primary is None or bool(
                c.fallback_when and c.fallback_when.search(primary.stdout + primary.stderr)
            )
            if primary and primary.outcome == "ok" and not denied:
                continue
            cmds.extend(_render_all([c], sudo)[0])
        elif c.param:
            source = first.get(c.param.source)  # type: ignore[arg-type]
            values = catalog.param_values(c, source.stdout) if source and source.outcome == "ok" else ()
            if not values:
                skipped.append(
                    CommandResult(
                        c.name, c.argv, "error", message=msg("errors.runner.no_value", source=c.param.source)
                    )
                )
            cmds.extend(catalog.render(c, v, sudo=c.name in sudo) for v in values)
    return cmds, skipped


def merge(name: str, results: Sequence[CommandResult]) -> CommandResult:
    """One result per collector: parameterised runs are joined, each block headed `interface: NAME`."""
    if len(results) == 1:
        return results[0]
    blocks = [f"interface: {r.argv[-1]}\n{r.stdout.rstrip()}\n" for r in results]
    best = next((r for r in results if r.outcome == "ok"), results[0])
    return replace(
        best,
        collector=name,
        stdout="\n".join(blocks),
        duration_s=round(sum(r.duration_s for r in results), 3),
        truncated=any(r.truncated for r in results),
        message=msg(
            "errors.runner.joined",
            parts=[
                msg("errors.runner.of_item", item=r.argv[-1], message=r.message) for r in results if r.message
            ],
        )
        if any(r.message for r in results)
        else None,
    )


async def run_host(
    host: Host,
    collectors: Iterable[str],
    *,
    connector: Connector | None = None,
    lanes: int = 4,
    params: Mapping[str, str] | None = None,
) -> HostRun:
    """Run the named collectors on `host` and report per collector; never raises for host trouble.

    `params` gives the request parameter of collectors that take one (collector -> a Slurm job id).
    """
    start = time.monotonic()
    first, second = plan(collectors)
    try:
        if host.is_local:
            session: Session = await local.connect()
        elif connector is None:
            raise HostUnavailable("error", msg("errors.runner.no_connector", host=host.name))
        else:
            session = await connector.connect(host)
    except HostUnavailable as exc:
        return HostRun(host.name, exc.status, exc.message, duration_s=round(time.monotonic() - start, 3))
    try:
        cmds, rendered_failures = _render_all(first, host.sudo, params)
        ran, channels = await _run_commands(session, cmds, lanes)
        by_name = {r.collector: r for r in ran + rendered_failures}
        cmds2, skipped = _second_phase(second, by_name, host.sudo)
        ran2, channels2 = await _run_commands(session, cmds2, SECOND_PHASE_LANES)
    finally:
        with contextlib.suppress(Exception):
            await session.close()
    every = ran + rendered_failures + ran2 + skipped
    grouped: dict[str, list[CommandResult]] = {}
    for r in every:
        grouped.setdefault(r.collector, []).append(r)
    lost = [r.message for r in every if r.message is not None and r.message.key in LOST]
    status: HostStatus = "error" if lost else "ok"
    return HostRun(
        host=host.name,
        status=status,
        error=msg("errors.runner.lost_kept", error=lost[0]) if lost else "",
        results={name: merge(name, rs) for name, rs in grouped.items()},
        commands=tuple(ran + ran2),
        duration_s=round(time.monotonic() - start, 3),
        channels=channels + channels2,
    )

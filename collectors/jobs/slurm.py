"""Slurm jobs: `scontrol show job -o ID` and `sacct -j ID ...` on the inventory's `slurm.controller`.

scontrol knows pending and running jobs (and ended ones for MinJobAge, 300 s by default); sacct
knows every job the accounting database kept, ended ones included. Both run; scontrol's record wins
for the node list while the job is known to it, sacct's otherwise. An array job's bare id covers all
its tasks (their nodes joined, the earliest start, the latest end); `123_4` is one task, `123.0` one
step (scontrol is asked for its job, sacct for the step itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from pitstop.collectors import catalog, runner
from pitstop.collectors.hostlist import expand
from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.jobs import JobInfo, Resolver
from pitstop.collectors.parsers.slurm import SlurmJob, parse_sacct, parse_scontrol
from pitstop.collectors.transport.ssh import Connector
from pitstop.core.errors import NotFound, PitstopError, UsageError
from pitstop.core.i18n import msg

KIND = "slurm"
COLLECTORS = ("slurm_job", "slurm_acct")
MAX_NODES = 100_000


def validate(job_id: str) -> str:
    """The job id as given, when it is digits with an optional `_TASK` and `.STEP`; else UsageError."""
    job_id = job_id.strip()
    if not catalog.JOB_ID_PATTERN.match(job_id):
        raise UsageError(msg("fleet.job.bad_id", job=job_id[:40]))
    return job_id


def controller(inventory: Inventory) -> Host:
    """The inventory's Slurm controller or login host."""
    if inventory.slurm is None:
        raise UsageError(msg("fleet.job.no_controller"))
    return inventory.get(inventory.slurm.controller)


def _when(text: str | None, zone: ZoneInfo) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text).replace(tzinfo=zone).astimezone(UTC)
    except ValueError:
        return None


def _wanted(records: Sequence[SlurmJob], job_id: str) -> list[SlurmJob]:
    """The records that are the job asked for: itself, or an array's tasks for its bare id."""
    exact = [r for r in records if r.job_id == job_id]
    if exact:
        return exact
    base, _, step = job_id.partition(".")
    job, _, task = base.partition("_")
    if task:
        hits = [
            r for r in records if r.array_job_id == job and r.array_task_id == task and "." not in r.job_id
        ]
    else:
        hits = [r for r in records if (r.array_job_id == job or r.job_id == job) and "." not in r.job_id]
    return hits if not step else []


def _nodes(records: Sequence[SlurmJob]) -> tuple[str, ...]:
    names: dict[str, None] = {}
    for r in records:
        if r.nodelist:
            names.update(dict.fromkeys(expand(r.nodelist, max_hosts=MAX_NODES)))
    return tuple(names)


async def resolve(job_id: str, inventory: Inventory, connector: Connector | None = None) -> JobInfo:
    """Ask the controller about `job_id`; NotFound when neither command knows it, PitstopError when the
    controller cannot be asked."""
    job_id = validate(job_id)
    host = controller(inventory)
    params = {"slurm_job": job_id.partition(".")[0], "slurm_acct": job_id}
    own = connector is None
    connector = connector or Connector(inventory)
    try:
        run = await runner.run_host(host, COLLECTORS, connector=connector, lanes=2, params=params)
    finally:
        if own:
            await connector.close()
    if run.status != "ok" and not run.results:
        raise PitstopError(msg("fleet.job.unreachable", host=host.name, error=run.error))
    zone = ZoneInfo(inventory.slurm.timezone if inventory.slurm else "UTC")
    scontrol = run.results.get("slurm_job")
    sacct = run.results.get("slurm_acct")
    live = _wanted(parse_scontrol(scontrol.stdout).jobs, job_id) if scontrol and scontrol.stdout else []
    acct = _wanted(parse_sacct(sacct.stdout).jobs, job_id) if sacct and sacct.outcome == "ok" else []
    records = [r for r in live if r.nodelist] or [r for r in acct if r.nodelist] or live or acct
    if not records:
        said = [
            msg("errors.runner.tool_said", text=r.stderr.strip().splitlines()[0][:300])
            if r.stderr.strip()
            else r.message or msg("errors.runner.no_record")
            for r in (scontrol, sacct)
            if r
        ]
        parts = list(dict.fromkeys(said)) or [msg("errors.runner.no_record")]
        raise NotFound(msg("fleet.job.not_found", job=job_id, host=host.name, said=parts))

    starts = [t for r in records if (t := _when(r.start, zone))]
    ends = [_when(r.end, zone) for r in records]
    states = list(dict.fromkeys(r.state for r in records if r.state))
    return JobInfo(
        kind=KIND,
        job_id=job_id,
        nodes=_nodes(records),
        state=",".join(states) or None,
        name=next((r.name for r in records if r.name), None),
        start=min(starts) if starts else None,
        end=None if not ends or None in ends else max(e for e in ends if e),
        source=host.name,
        commands=run.commands,
        lines=tuple(r.line for r in records)[:20],
    )


RESOLVER = Resolver(kind=KIND, validate=validate, host=controller, resolve=resolve)

"""Slurm job records: `scontrol show job -o ID` (one `Key=Value ...` line per job, or the multi-line form)
and `sacct -j ID -n -P -o JobID,JobName,State,Start,End,NodeList` (`|`-separated rows, one per job or step);
a node's record: `scontrol show node -o NAME` (its GRES, state and drain reason).

Times are the controller's local time without a zone, as Slurm prints them; `Unknown`, `None` and
`N/A` mean not set. A node list `(null)` or `None assigned` means no nodes yet (a pending job).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

SACCT_FIELDS = ("JobID", "JobName", "State", "Start", "End", "NodeList")
_PAIR = re.compile(r"(?:(?<=\s)|^)([A-Za-z][A-Za-z0-9_/:]*)=(\S*)")
_UNSET = frozenset({"", "Unknown", "None", "N/A", "(null)", "None assigned"})


@dataclass(frozen=True)
class SlurmJob:
    """One job (or array task, or step) as Slurm reports it; `None` for what it did not say."""

    job_id: str
    name: str | None = None
    state: str | None = None
    start: str | None = None  # ISO local time, as printed
    end: str | None = None
    nodelist: str | None = None  # a Slurm host-list expression
    array_job_id: str | None = None
    array_task_id: str | None = None
    line: str = ""


@dataclass(frozen=True)
class SlurmJobs:
    """Every record the command printed, and the error it printed instead (`Invalid job id specified`)."""

    jobs: tuple[SlurmJob, ...] = ()
    error: str | None = None


def _set(value: str | None) -> str | None:
    return None if value is None or value.strip() in _UNSET else value.strip()


def _records(lines: list[str], first: str = "JobId=") -> list[list[str]]:
    """`-o` prints one line per record; the plain form starts each with a `JobId=` (`NodeName=`) line."""
    records: list[list[str]] = []
    for line in lines:
        if line.lstrip().startswith(first) or not records:
            records.append([line])
        else:
            records[-1].append(line)
    return records


@dataclass(frozen=True)
class SlurmNode:
    """One node's record: its GRES as configured, the GPUs they add up to, its state and drain reason."""

    name: str
    gres: str | None = None  # "gpu:a100:8(S:0-1)", as printed
    # configured GPUs (CfgTRES gres/gpu=N, else the Gres gpu counts); None: no GPU GRES
    gpus: int | None = None
    state: str | None = None  # "IDLE+DRAIN"
    reason: str | None = None  # "gres/gpu count reported lower than configured (0 < 8) [slurm@...]"
    # GPU GRES counted in slices, not boards: a MIG profile type (gpu:a100_3g.20gb) or CfgTRES typed
    # counts that do not add up to its gres/gpu total; then `gpus` need not equal the boards NVML lists
    sliced: bool = False


@dataclass(frozen=True)
class SlurmNodes:
    """Every node record printed, and the error printed instead (`Node gpu01 not found`)."""

    nodes: tuple[SlurmNode, ...] = ()
    error: str | None = None


_GRES_GPUS = re.compile(r"(?:^|,)gpu(?::[^:,(]+)*?:(\d+)(?=\(|,|$)")
_TRES_GPUS = re.compile(r"(?:^|,)gres/gpu=(\d+)")
_REASON = re.compile(r"(?:^|\s)Reason=(.+)$")
_MIG_TYPE = re.compile(r"\d+g\.\d+gb", re.IGNORECASE)
_TYPED_TRES_GPUS = re.compile(r"(?:^|,)gres/gpu:[^=,]+=(\d+)")


def _gpu_count(gres: str | None, tres: str | None) -> int | None:
    """GPUs a node is configured with: CfgTRES's gres/gpu=N, else the sum of the Gres gpu entries."""
    if tres and (m := _TRES_GPUS.search(tres)):
        return int(m.group(1))
    counts = [int(n) for n in _GRES_GPUS.findall(gres or "")]
    return sum(counts) if counts else None


def _sliced(gres: str | None, tres: str | None) -> bool:
    """Whether the GPU GRES count slices (MIG instances) rather than boards (see `SlurmNode.sliced`)."""
    if _MIG_TYPE.search(f"{gres or ''},{tres or ''}"):
        return True
    typed = [int(n) for n in _TYPED_TRES_GPUS.findall(tres or "")]
    total = _TRES_GPUS.search(tres or "")
    return bool(typed and total and sum(typed) != int(total.group(1)))


def parse_node(text: str) -> SlurmNodes:
    """`scontrol show node [-o] NAME` output -> its node records (Reason runs to the end of its line)."""
    lines = [line for line in clean_lines(text) if line.strip()]
    error = next((line.strip() for line in lines if "=" not in line and "not found" in line.lower()), None)
    nodes = []
    for record in _records([line for line in lines if "=" in line], first="NodeName="):
        fields = {k: v for line in record for k, v in _PAIR.findall(line)}
        if "NodeName" not in fields:
            continue
        reason = next((m.group(1).strip() for line in record if (m := _REASON.search(line))), None)
        gres = _set(fields.get("Gres"))
        nodes.append(
            SlurmNode(
                name=fields["NodeName"],
                gres=gres,
                gpus=_gpu_count(gres, fields.get("CfgTRES")),
                state=_set(fields.get("State")),
                reason=_set(reason),
                sliced=_sliced(gres, fields.get("CfgTRES")),
            )
        )
    return SlurmNodes(tuple(nodes), None if nodes else error)


def parse_scontrol(text: str) -> SlurmJobs:
    """`scontrol show job [-o] ID` output -> its job records."""
    lines = [line for line in clean_lines(text) if line.strip()]
    error = next((line.strip() for line in lines if "error" in line.lower() and "=" not in line), None)
    jobs = []
    for record in _records([line for line in lines if "=" in line]):
        fields = {k: v for line in record for k, v in _PAIR.findall(line)}
        if "JobId" not in fields:
            continue
        jobs.append(
            SlurmJob(
                job_id=fields["JobId"],
                name=_set(fields.get("JobName")),
                state=_set(fields.get("JobState")),
                start=_set(fields.get("StartTime")),
                end=_set(fields.get("EndTime")),
                nodelist=_set(fields.get("NodeList")),
                array_job_id=_set(fields.get("ArrayJobId")),
                array_task_id=_set(fields.get("ArrayTaskId")),
                line=record[0].strip()[:300],
            )
        )
    return SlurmJobs(tuple(jobs), None if jobs else error)


def parse_sacct(text: str) -> SlurmJobs:
    """`sacct -j ID -n -P -o JobID,JobName,State,Start,End,NodeList` rows -> job and step records."""
    jobs = []
    error = None
    for line in clean_lines(text):
        parts = line.strip().split("|")
        if len(parts) != len(SACCT_FIELDS):
            if line.strip() and error is None and "|" not in line:
                error = line.strip()
            continue
        row = dict(zip(SACCT_FIELDS, parts, strict=True))
        array = re.match(r"^(\d+)_(\d+)", row["JobID"])
        jobs.append(
            SlurmJob(
                job_id=row["JobID"],
                name=_set(row["JobName"]),
                state=_set(row["State"].split()[0] if row["State"].strip() else None),  # "CANCELLED by 0"
                start=_set(row["Start"]),
                end=_set(row["End"]),
                nodelist=_set(row["NodeList"]),
                array_job_id=array.group(1) if array else None,
                array_task_id=array.group(2) if array else None,
                line=line.strip()[:300],
            )
        )
    return SlurmJobs(tuple(jobs), None if jobs else error)

"""Jobs as diagnose targets: a scheduler's job id -> its nodes and time span, read with catalog commands.

A kind of job is one module exposing a `Resolver` (see `slurm.py`); `RESOLVERS` names them. A second
kind (a Kubernetes job's node list, say) is one more module that declares its read-only commands in
the catalog and a `Resolver` here. Resolving runs only catalog commands, on the host the inventory
names for that scheduler, with the job id as a validated parameter (never free text).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pitstop.collectors.hostlist import compress
from pitstop.collectors.inventory import Host, Inventory
from pitstop.collectors.model import CommandResult
from pitstop.collectors.transport.ssh import Connector
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg


@dataclass(frozen=True)
class JobInfo:
    """A resolved job: its nodes, state and time span (UTC), and what was run to learn them."""

    kind: str
    job_id: str
    nodes: tuple[str, ...]
    state: str | None = None
    name: str | None = None
    start: datetime | None = None
    end: datetime | None = None  # None while it runs
    source: str = ""  # the host that answered
    commands: tuple[CommandResult, ...] = ()
    lines: tuple[str, ...] = ()  # the records the answer was read from

    @property
    def hostlist(self) -> str:
        """The nodes as one host-list expression."""
        return compress(self.nodes)

    def to_json(self) -> dict[str, Any]:
        """`{"kind", "id", "name", "state", "nodes", "nodelist", "start", "end", "source"}`."""
        return {
            "kind": self.kind,
            "id": self.job_id,
            "name": self.name,
            "state": self.state,
            "nodes": list(self.nodes),
            "nodelist": self.hostlist,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "source": self.source,
        }


@dataclass(frozen=True)
class Resolver:
    """One kind of job: check an id, name the host that answers, and resolve."""

    kind: str
    validate: Callable[[str], str]  # the id, or UsageError
    host: Callable[[Inventory], Host]  # the controller or API host, or UsageError
    resolve: Callable[[str, Inventory, Connector | None], Awaitable[JobInfo]]


def _resolvers() -> Mapping[str, Resolver]:
    from pitstop.collectors.jobs import slurm

    return {r.kind: r for r in (slurm.RESOLVER,)}


def resolver(kind: str) -> Resolver:
    """The resolver for `kind` ("slurm"), or UsageError naming the known kinds."""
    known = _resolvers()
    if kind not in known:
        raise UsageError(msg("errors.job.unknown_kind", kind=repr(kind), known=", ".join(sorted(known))))
    return known[kind]

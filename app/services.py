"""The domain services the bot and the console use, bundled, plus the pool slow work runs on.

Thread safety has one mechanism: every SQLite user keeps one connection per thread
(`KnowledgeBase` and an `Incidents` opened on a path both do), so any thread may call them.
Slow work (answers, diagnoses, resolutions) goes through the durable outbox (`app/outbox.py`):
Bolt's listener threads store it and acknowledge, `Workers` threads do it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pitstop.app.detect import ChannelModes, Detector
from pitstop.app.outbox import Outbox, Workers
from pitstop.core.config import Settings

if TYPE_CHECKING:
    import sqlite_utils

    from pitstop.app.authz import Policy
    from pitstop.app.diagnose import DiagnoseReport, DiagnoseRequest, Progress
    from pitstop.collectors.inventory import Inventory
    from pitstop.collectors.jobs import JobInfo
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase


DiagnoseFn = Callable[..., Coroutine[Any, Any, "DiagnoseReport"]]


@dataclass(frozen=True)
class Services:
    """Everything the bot's handlers call: the domain services and where slow work runs."""

    kb: KnowledgeBase  # one SQLite connection per calling thread
    incidents: Incidents  # opened on a path: one connection per calling thread
    inventory: Inventory  # immutable
    policy: Policy  # thread-safe (its rate limiter locks)
    jobs: Workers  # drains the outbox; `jobs.outbox` is where listeners put work
    detector: Detector
    channel_modes: ChannelModes
    diagnose: DiagnoseFn
    db_path: Path  # the database: the outbox, and where diagnoses audit their commands
    maintainers: tuple[str, ...] = ()  # Slack user and user-group ids who may review drafts
    pitfalls_dir: Path | None = None  # where approved drafts are written (None: kb/pitfalls/)

    @contextlib.contextmanager
    def _job_db(self) -> Iterator[sqlite_utils.Database]:
        """This job thread's own audit connection (one per thread)."""
        from pitstop.core.db import open_db

        db = open_db(self.db_path)
        try:
            yield db
        finally:
            db.close()

    def run_diagnose(self, request: DiagnoseRequest, progress: Progress) -> DiagnoseReport:
        """Run the async `diagnose` to completion on the calling (job) thread, auditing into `db_path`."""
        with self._job_db() as db:
            return asyncio.run(
                self.diagnose(request, inventory=self.inventory, kb=self.kb, progress=progress, db=db)
            )

    def resolve_job(self, kind: str, job_id: str, *, requester: str, origin: str) -> JobInfo:
        """Resolve a scheduler job's nodes and span on the calling (job) thread, auditing into `db_path`."""
        from pitstop.app.diagnose import resolve_job

        with self._job_db() as db:
            return asyncio.run(
                resolve_job(kind, job_id, inventory=self.inventory, db=db, requester=requester, origin=origin)
            )

    def close(self) -> None:
        """Let the workers finish the rows they hold and stop; what is still pending waits in the outbox."""
        self.jobs.close()


def assemble(
    kb: KnowledgeBase,
    incidents: Incidents,
    *,
    inventory: Inventory,
    policy: Policy,
    diagnose: DiagnoseFn,
    channel_modes: str | None = None,
    db_path: Path,
    workers: int = 4,
    maintainers: tuple[str, ...] = (),
    pitfalls_dir: Path | None = None,
) -> Services:
    """Bundle services around a KB and an incident store that any thread may call."""
    signatures = [s for p in kb.all() for s in p.signatures]
    return Services(
        kb=kb,
        incidents=incidents,
        inventory=inventory,
        policy=policy,
        jobs=Workers(Outbox(db_path), workers),
        detector=Detector.from_signatures(signatures),
        channel_modes=ChannelModes.parse(channel_modes),
        diagnose=diagnose,
        db_path=db_path,
        maintainers=maintainers,
        pitfalls_dir=pitfalls_dir,
    )


def open_services(
    settings: Settings,
    *,
    policy: Policy | None = None,
    inventory: Inventory | None = None,
    channel_modes: str | None = None,
    workers: int = 4,
) -> Services:
    """Open the real domain services named by `settings` (slow: loads the KB and its model)."""
    from pitstop.app.authz import Policy
    from pitstop.app.diagnose import diagnose
    from pitstop.collectors.inventory import load as load_inventory
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(settings.db_path)
    kb.warm()
    return assemble(
        kb,
        Incidents(settings.db_path, kb=kb),
        inventory=inventory if inventory is not None else load_inventory(settings.inventory_path),
        policy=policy if policy is not None else Policy.load(settings.policy_path, audit_db=settings.db_path),
        diagnose=diagnose,
        channel_modes=channel_modes,
        workers=workers,
        db_path=settings.db_path,
        maintainers=settings.maintainers,
    )

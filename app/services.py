"""The domain services the bot and the console use, bundled, plus the two executors they run on.

SQLite objects belong to the thread that opened them, so the KB and the incident store are opened
on one "domain" thread and wrapped in `Confined`, which runs every method call there. Slow work
(answers, diagnoses) runs on `Jobs`, a bounded pool, so Bolt's listener threads only acknowledge.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitstop.app.detect import ChannelModes, Detector
from pitstop.core.config import Settings

log = logging.getLogger(__name__)

DiagnoseFn = Callable[..., Awaitable[Any]]


class Confined:
    """Proxy that runs each method call of `target` on the executor's single thread."""

    def __init__(self, target: Any, executor: ThreadPoolExecutor, owner: int) -> None:
        self._target = target
        self._executor = executor
        self._owner = owner

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self._owner:
                return attr(*args, **kwargs)
            return self._executor.submit(attr, *args, **kwargs).result()

        return call

    def run_with(self, fn: Callable[[Any], Any]) -> Any:
        """Run `fn(target)` on the owner thread (for work that needs the target's own connection)."""
        if threading.get_ident() == self._owner:
            return fn(self._target)
        return self._executor.submit(fn, self._target).result()


class DomainThread:
    """One thread that owns the database connections; `open(factory)` builds an object there."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pitstop-domain")
        self._owner = self._executor.submit(threading.get_ident).result()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` on the domain thread and return its result."""
        return self._executor.submit(fn).result()

    def confine(self, target: Any) -> Confined:
        """Wrap an object built on the domain thread so that every call runs there."""
        return Confined(target, self._executor, self._owner)

    def close(self) -> None:
        """Stop the thread after pending calls."""
        self._executor.shutdown(wait=True)


class Jobs:
    """A bounded background pool: `submit` refuses (returns False) when `capacity` jobs are queued."""

    def __init__(self, workers: int = 4, capacity: int = 256) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pitstop-job")
        self._slots = threading.BoundedSemaphore(capacity)
        self._unfinished = 0
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)

    def submit(self, fn: Callable[..., Any], *args: Any) -> bool:
        """Run `fn(*args)` in the background; False when the queue is full."""
        if not self._slots.acquire(blocking=False):
            return False
        with self._lock:  # counted before it can start, so wait_idle never misses a running job
            self._unfinished += 1
        self._executor.submit(self._run, fn, *args)
        return True

    def _run(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            fn(*args)
        except Exception:  # a job's own error handling failed: log it, keep the pool alive
            log.exception("background job %s failed", getattr(fn, "__name__", fn))
        finally:
            self._slots.release()
            with self._lock:
                self._unfinished -= 1
                self._idle.notify_all()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no job is queued or running; False on timeout."""
        with self._lock:
            return self._idle.wait_for(lambda: self._unfinished == 0, timeout)

    def close(self) -> None:
        """Finish queued jobs and stop the pool."""
        self._executor.shutdown(wait=True)


@dataclass(frozen=True)
class Services:
    """Everything the bot's handlers call: the domain services and where slow work runs."""

    kb: Any  # kb.service.KnowledgeBase, confined to the domain thread
    incidents: Any  # kb.incidents.Incidents, confined to the domain thread
    inventory: Any  # collectors.inventory.Inventory (immutable)
    policy: Any  # pitstop.authz.Policy
    jobs: Jobs
    detector: Detector
    channel_modes: ChannelModes
    diagnose: DiagnoseFn
    domain: DomainThread | None = None
    db_path: Path | None = None  # where diagnoses audit their commands
    maintainers: tuple[str, ...] = ()  # Slack user and user-group ids who may review drafts
    pitfalls_dir: Path | None = None  # where approved drafts are written (None: kb/pitfalls/)

    @contextlib.contextmanager
    def _job_db(self) -> Iterator[Any]:
        """This job thread's own audit connection (one per thread), or None without a database."""
        if self.db_path is None:
            yield None
            return
        from pitstop.core.db import open_db

        db = open_db(self.db_path)
        try:
            yield db
        finally:
            db.close()

    def run_diagnose(self, request: Any, progress: Callable[..., None]) -> Any:
        """Run the async `diagnose` to completion on the calling (job) thread, auditing into `db_path`."""
        with self._job_db() as db:
            return asyncio.run(
                self.diagnose(request, inventory=self.inventory, kb=self.kb, progress=progress, db=db)
            )

    def resolve_job(self, kind: str, job_id: str, *, requester: str, origin: str) -> Any:
        """Resolve a scheduler job's nodes and span on the calling (job) thread, auditing into `db_path`."""
        from pitstop.app.diagnose import resolve_job

        with self._job_db() as db:
            return asyncio.run(
                resolve_job(kind, job_id, inventory=self.inventory, db=db, requester=requester, origin=origin)
            )

    def close(self) -> None:
        """Stop the executors (jobs first: they call into the domain thread)."""
        self.jobs.close()
        if self.domain is not None:
            self.domain.close()


def assemble(
    open_domain: Callable[[], tuple[Any, Any]],
    *,
    inventory: Any,
    policy: Any,
    diagnose: DiagnoseFn,
    channel_modes: str | None = None,
    workers: int = 4,
    db_path: Path | None = None,
    maintainers: tuple[str, ...] = (),
    pitfalls_dir: Path | None = None,
) -> Services:
    """Bundle services; `open_domain` builds (kb, incidents) on the domain thread that will own them."""
    domain = DomainThread()
    kb_raw, incidents_raw = domain.call(open_domain)
    kb, incidents = domain.confine(kb_raw), domain.confine(incidents_raw)
    signatures = [s for p in kb.all() for s in p.signatures]
    return Services(
        kb=kb,
        incidents=incidents,
        inventory=inventory,
        policy=policy,
        jobs=Jobs(workers=workers),
        detector=Detector.from_signatures(signatures),
        channel_modes=ChannelModes.parse(channel_modes),
        diagnose=diagnose,
        domain=domain,
        db_path=db_path,
        maintainers=maintainers,
        pitfalls_dir=pitfalls_dir,
    )


def open_services(
    settings: Settings,
    *,
    policy: Any = None,
    inventory: Any = None,
    channel_modes: str | None = None,
    workers: int = 4,
) -> Services:
    """Open the real domain services named by `settings` (slow: loads the KB and its model)."""
    from pitstop.app.authz import Policy
    from pitstop.app.diagnose import diagnose
    from pitstop.collectors.inventory import load as load_inventory
    from pitstop.core.db import open_db
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase

    def open_domain() -> tuple[Any, Any]:
        kb = KnowledgeBase.open(settings.db_path)
        kb.warm()
        return kb, Incidents(open_db(settings.db_path), kb=kb)

    return assemble(
        open_domain,
        inventory=inventory if inventory is not None else load_inventory(settings.inventory_path),
        policy=policy if policy is not None else Policy.load(settings.policy_path, audit_db=settings.db_path),
        diagnose=diagnose,
        channel_modes=channel_modes,
        workers=workers,
        db_path=settings.db_path,
        maintainers=settings.maintainers,
    )

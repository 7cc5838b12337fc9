"""Checking one host's collected results: every cause's verdict and the host's comparable profile,
inline or in one worker process on the second core.

Apart from app/diagnose.py so that the worker imports only what checking needs (the checks, the
comparison, the models): 0.6 s of CPU to start it (313 modules), against 1.1 s (616) with the imports (SSH,
SQLite, the inventory) that it never uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

from pitstop.collectors import compare
from pitstop.collectors.checks.registry import evaluate, facts_for
from pitstop.collectors.model import CheckContext, CommandResult, Verdict

WORKER_FROM_HOSTS = 64  # from this many hosts the checks run in a worker process (the second core):
# starting it costs about as much CPU as checking 60 hosts inline
# A sweep allocates many short-lived objects per host (parse trees, results): with the first generation
# collected every 20,000 allocations instead of 700, most are freed before a collection looks at them.
SWEEP_GC_THRESHOLD = (20_000, 10, 10)
log = logging.getLogger(__name__)

_PITFALLS: Sequence[Any] = ()


def _init(pitfalls: Sequence[Any]) -> None:
    global _PITFALLS
    _PITFALLS = pitfalls
    gc.freeze()  # the worker's modules and entries live until it exits: collections need not walk them
    gc.set_threshold(*SWEEP_GC_THRESHOLD)


@contextlib.contextmanager
def sweep_gc() -> Iterator[None]:
    """The garbage collector set for a sweep in a one-shot process (the CLI), put back afterwards:
    what is loaded so far frozen (collections stop walking it) and `SWEEP_GC_THRESHOLD`."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*SWEEP_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def check(
    pitfalls: Sequence[Any] | None,
    results: Mapping[str, CommandResult],
    ctx: CheckContext,
    host: str,
    lean: bool = False,
) -> tuple[tuple[Verdict, ...], compare.Profile | None]:
    """Verdicts (`lean`: as a large sweep keeps them, `leaned`) and the comparable profile of one host's
    results (in the worker: its pitfalls; leaned there, the verdicts come back a third of the size)."""
    pitfalls = _PITFALLS if pitfalls is None else pitfalls
    # `evaluate` owns the "no check exists" verdict and turns a broken check into an inconclusive one.
    verdicts = tuple(evaluate(p, results, ctx) for p in pitfalls)
    profile = compare.profile(host, facts_for(results, ctx.now)) if results else None
    return (leaned(verdicts) if lean else verdicts), profile


class Checker:
    """Runs `check` inline for a few hosts, else in one worker process so parsing a large kernel log
    never stalls the event loop that keeps every other host's connection moving."""

    def __init__(self, pitfalls: Sequence[Any], hosts: int, lean: bool) -> None:
        self._pitfalls = pitfalls
        self._lean = lean
        self._pool: ProcessPoolExecutor | None = None
        self._started = False  # the worker is running: a submission no longer blocks
        if hosts >= WORKER_FROM_HOSTS:
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init,
                initargs=(pitfalls,),
            )

    async def __call__(
        self, results: Mapping[str, CommandResult], ctx: CheckContext, host: str
    ) -> tuple[tuple[Verdict, ...], compare.Profile | None]:
        if self._pool is None:
            return check(self._pitfalls, results, ctx, host, self._lean)
        try:
            if self._started:
                future = self._pool.submit(check, None, results, ctx, host, self._lean)
            else:
                # the first submissions from a thread: they start the worker, which blocks until the
                # new interpreter has read its start-up data (1.5 s on a loaded machine)
                future = await asyncio.to_thread(
                    self._pool.submit, check, None, results, ctx, host, self._lean
                )
                self._started = True
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            log.warning("the check worker died; checking %s in this process", host)
            return check(self._pitfalls, results, ctx, host, self._lean)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def leaned(verdicts: tuple[Verdict, ...]) -> tuple[Verdict, ...]:
    """A large sweep's verdicts as kept: evidence only on confirmed ones, the only ones a sweep shows
    (about 200 KiB per host otherwise); the rest keep their verdict, reason and commands (counts,
    evidence status)."""
    return tuple(
        v if v.verdict == "confirmed" or not v.evidence else replace(v, evidence=()) for v in verdicts
    )

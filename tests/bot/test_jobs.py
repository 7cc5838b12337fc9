"""The bot's bounded background pool."""

from __future__ import annotations

import threading

from pitstop.app.services import Jobs


def test_wait_idle_sees_a_job_that_already_started() -> None:
    jobs = Jobs(workers=1, capacity=2)
    started, release = threading.Event(), threading.Event()

    def job() -> None:
        started.set()
        release.wait(10)

    assert jobs.submit(job)
    assert started.wait(10)
    assert not jobs.wait_idle(0.1)  # the running job counts, however early it started
    release.set()
    assert jobs.wait_idle(10)
    jobs.close()


def test_a_full_queue_refuses_and_a_failing_job_frees_its_slot() -> None:
    jobs = Jobs(workers=1, capacity=1)
    release = threading.Event()
    assert jobs.submit(release.wait, 10)
    assert not jobs.submit(print)
    release.set()
    assert jobs.wait_idle(10)
    assert jobs.submit(lambda: 1 / 0)  # its error is logged, the pool stays usable
    assert jobs.wait_idle(10)
    assert jobs.submit(print)
    assert jobs.wait_idle(10)
    jobs.close()

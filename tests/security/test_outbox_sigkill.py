"""Nothing acknowledged is lost, nothing is answered twice: a real `pitstop serve --http` SIGKILLed during
a burst of 150 signed events and again mid-work, restarted each time (tests/security/burst.py)."""

from __future__ import annotations

import os
import random

import pytest

from tests.bot.conftest import copy_kb, serve_env
from tests.security import burst


@pytest.mark.slow
@pytest.mark.xdist_group("sigkill")  # never beside test_durability.py: one worker runs both
@pytest.mark.timeout(900)  # three bot starts, each loading the embedding model
def test_sigkill_during_a_burst_and_mid_work_loses_and_doubles_nothing(kb_path, tmp_path, recorder, capsys):
    seed = int(os.environ.get("PITSTOP_SEED") or random.randrange(1_000_000))
    env = serve_env(copy_kb(kb_path, tmp_path / "burst.db"), tmp_path, recorder.url)
    out = burst.run(env, recorder, seed=seed)
    with capsys.disabled():
        print(
            f"\nseed {seed}: {len(out.acked)} acked ({out.first_acked} before the first SIGKILL, "
            f"{out.undispatched} of them not yet dispatched), "
            f"{len(out.lost)} lost, {len(out.doubled)} doubled; kills: {'; '.join(out.kills)}; "
            f"{out.looked} retried rows looked first, {out.not_reposted} found their answer posted; "
            f"{out.seconds:.0f} s"
        )
    assert 0 < out.first_acked < out.events, "the first SIGKILL fell inside the burst"
    assert len(out.acked) == out.events  # Slack's retries of the unacknowledged ones were acknowledged too
    assert out.lost == [] and out.doubled == []
    assert out.unfinished == 0

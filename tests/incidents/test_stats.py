"""Stats: top causes, busiest hosts, time to resolution and causes per layer over a period."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.core.clock import parse_since
from pitstop.core.db import open_db
from pitstop.core.errors import UsageError
from pitstop.incidents.stats import compute
from pitstop.incidents.store import Incidents
from tests.incidents.learning_support import Clock


class Answer:
    """The two fields `record_answer` reads from `kb.ask`'s answer."""

    lang = "en"
    results = ()


@pytest.fixture
def db(tmp_path: Path):
    db = open_db(tmp_path / "stats.db")
    now = "2026-11-01T00:00:00Z"
    for pid, layer in (("xid79-gpu-fell-off-bus", "gpu"), ("mtu-mismatch", "network")):
        db.execute(
            "INSERT INTO pitfalls (id, title, layer, severity, body_json, content_hash, created_at,"
            " updated_at) VALUES (?, ?, ?, 'high', '{}', 'h', ?, ?)",
            [pid, pid.upper(), layer, now, now],
        )
    return db


def resolve(store: Incidents, clock: Clock, thread: str, host: str, cause: str, minutes: float) -> None:
    iid = store.record_diagnosis(channel="C1", thread_ts=thread, user="U1", hosts=[host], verdicts=())
    clock.advance(minutes=minutes)
    store.resolve(iid, user="U2", cause_id=cause)


def test_figures_over_all_time_and_since(db):
    clock = Clock(datetime(2026, 11, 1, 8, 0, tzinfo=UTC))
    store = Incidents(db, clock=clock)  # no KB: the resolutions are recorded, learning stays pending
    resolve(store, clock, "1", "gpu-1", "xid79-gpu-fell-off-bus", 10)
    resolve(store, clock, "2", "gpu-1", "xid79-gpu-fell-off-bus", 30)
    clock.advance(days=7)
    start_of_week = clock()
    resolve(store, clock, "3", "gpu-2", "mtu-mismatch", 60)
    store.record_answer(
        channel="C1", thread_ts="4", user="U1", text="still open", answer=Answer(), hosts=["gpu-2"]
    )

    everything = compute(db, since=None, now=clock())
    assert (everything.incidents, everything.open, everything.resolved) == (4, 1, 3)
    assert [(c.key, c.label, c.count) for c in everything.top_causes] == [
        ("xid79-gpu-fell-off-bus", "XID79-GPU-FELL-OFF-BUS", 2),
        ("mtu-mismatch", "MTU-MISMATCH", 1),
    ]
    assert [(h.key, h.count) for h in everything.top_hosts] == [("gpu-1", 2), ("gpu-2", 2)]
    assert [(layer.key, layer.count) for layer in everything.layers] == [("gpu", 2), ("network", 1)]
    assert everything.resolution_median_s == pytest.approx(30 * 60, abs=1)
    assert everything.resolution_p90_s == pytest.approx(60 * 60, abs=1)

    week = compute(db, since=start_of_week, now=clock())
    assert (week.incidents, week.resolved, [c.key for c in week.top_causes]) == (2, 1, ["mtu-mismatch"])
    assert week.to_json()["top_hosts"] == [{"key": "gpu-2", "label": "gpu-2", "count": 2}]


def test_empty_database_gives_zeros_not_errors(db):
    figures = compute(db, since=None, now=datetime(2026, 11, 1, tzinfo=UTC))
    assert (figures.incidents, figures.top_causes, figures.resolution_median_s) == (0, (), None)


def test_parse_since():
    now = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)
    assert parse_since("7d", now) == datetime(2026, 11, 3, 12, 0, tzinfo=UTC)
    assert parse_since("90m", now) == datetime(2026, 11, 10, 10, 30, tzinfo=UTC)
    assert parse_since("2026-11-01", now) == datetime(2026, 11, 1, tzinfo=UTC)
    with pytest.raises(UsageError, match="duration like 7d"):
        parse_since("last tuesday", now)


def test_cli_stats_json_and_text(db, tmp_path, capsys):
    clock = Clock()
    resolve(Incidents(db, clock=clock), clock, "1", "gpu-9", "mtu-mismatch", 5)
    assert main(["stats", "--json", "--db", str(tmp_path / "stats.db")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["resolved"] == 1 and data["top_hosts"][0]["key"] == "gpu-9"
    assert main(["stats", "--since", "36500d", "--db", str(tmp_path / "stats.db")]) == 0
    text = capsys.readouterr().out
    assert "median 5 min" in text and "gpu-9" in text
    assert main(["stats", "--since", "soon", "--db", str(tmp_path / "stats.db")]) == 2

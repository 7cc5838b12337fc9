"""Incidents close as resolved, as no action needed, or by expiry; stats count each state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.core.db import open_db
from pitstop.core.errors import UsageError
from pitstop.incidents.stats import compute
from pitstop.incidents.store import Incidents
from pitstop.migrations import migrations
from tests.incidents.learning_support import Clock
from tests.incidents.test_stats import Answer, db  # noqa: F401  (the fixture)


def test_the_rebuild_keeps_every_incident_and_what_points_at_it(tmp_path: Path) -> None:
    old = open_db(tmp_path / "old.db", migrate=False)
    migrations.apply(old, stop_before="m006_incident_lifecycle")
    old.execute(
        "INSERT INTO incidents (id, channel, thread_ts, created_at, updated_at, status)"
        " VALUES (7, 'C', '1.0', '2026-11-01T00:00:00Z', '2026-11-01T00:10:00Z', 'resolved')"
    )
    old.execute(
        "INSERT INTO incident_candidates VALUES"
        " (7, 'mtu-mismatch', 1, 0.5, 'high', 0, '2026-11-01T00:00:00Z')"
    )
    old.execute(
        "INSERT INTO resolutions (incident_id, resolved_by, kind, cause_id, resolved_at)"
        " VALUES (7, 'U2', 'existing', 'mtu-mismatch', '2026-11-01T00:10:00Z')"
    )
    old.conn.close()
    new = open_db(tmp_path / "old.db")
    row = new.execute("SELECT status, closed_at, closed_by FROM incidents WHERE id = 7").fetchone()
    assert tuple(row) == ("resolved", "2026-11-01T00:10:00Z", "U2")
    assert new.execute("SELECT count(*) FROM incident_candidates WHERE incident_id = 7").fetchone()[0] == 1
    assert new.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    new.execute("DELETE FROM incidents WHERE id = 7")  # the cascade still works after the rebuild
    assert new.execute("SELECT count(*) FROM incident_candidates").fetchone()[0] == 0


def test_close_as_no_action_then_a_new_paste_reopens(db) -> None:  # noqa: F811
    clock = Clock(datetime(2026, 11, 1, 8, 0, tzinfo=UTC))
    store = Incidents(db, clock=clock)
    iid = store.record_answer(channel="C1", thread_ts="1", user="U1", text="Xid 79", answer=Answer())
    closed = store.close(iid, user="U1")
    assert (closed.status, closed.closed_by) == ("no_action", "U1") and closed.closed_at
    with pytest.raises(UsageError, match="already closed"):
        store.close(iid, user="U1")
    again = store.record_answer(channel="C1", thread_ts="1", user="U1", text="Xid 79 again", answer=Answer())
    assert again == iid and store.get(iid).status == "open" and store.get(iid).closed_at is None


def test_quiet_incidents_expire_and_stats_say_what_they_count(db) -> None:  # noqa: F811
    clock = Clock(datetime(2026, 11, 1, 8, 0, tzinfo=UTC))
    store = Incidents(db, clock=clock)
    quiet = store.record_answer(channel="C1", thread_ts="1", user="U1", text="a", answer=Answer())
    clock.advance(days=6)
    busy = store.record_answer(channel="C1", thread_ts="2", user="U1", text="b", answer=Answer())
    done = store.record_answer(channel="C1", thread_ts="3", user="U1", text="c", answer=Answer())
    store.close(done, user="U1")
    clock.advance(days=2)
    figures = compute(db, since=None, now=clock(), quiet_days=7)
    assert (figures.incidents, figures.open, figures.expired, figures.no_action, figures.resolved) == (
        3,
        1,
        1,
        1,
        0,
    )  # counted as expired before anything closed it
    assert store.expire(timedelta(days=7)) == 1
    assert store.get(quiet).status == "expired" and store.get(busy).status == "open"
    assert compute(db, since=None, now=clock(), quiet_days=7).expired == 1
    assert "resolved incidents only" in figures.to_json()["counted"]["resolution_median_s"]


def test_cli_close_and_expire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cli.db"
    store = Incidents(open_db(path))
    iid = store.record_answer(channel="C1", thread_ts="1", user="U1", text="x", answer=Answer())
    assert main(["incidents", "close", str(iid), "--db", str(path), "--lang", "zh"]) == 0
    assert capsys.readouterr().out.strip() == f"事件 #{iid} 已关闭：无需处理"
    assert main(["incidents", "expire", "--quiet-days", "1", "--db", str(path)]) == 0
    assert "0 open incident(s)" in capsys.readouterr().out
    assert main(["incidents", "list", "--status", "no_action", "--db", str(path)]) == 0


def test_stats_do_not_claim_the_quiet_period_an_expiry_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`incidents expire --quiet-days 1` closed it: the stats line must not say "after 7 quiet days"."""
    monkeypatch.delenv("PITSTOP_INCIDENT_QUIET_DAYS", raising=False)
    path = tmp_path / "cli.db"
    clock = Clock(datetime.now(UTC) - timedelta(days=2))
    Incidents(open_db(path), clock=clock).record_answer(
        channel="C1", thread_ts="1", user="U1", text="x", answer=Answer()
    )
    assert main(["incidents", "expire", "--quiet-days", "1", "--db", str(path)]) == 0
    capsys.readouterr()
    expected = {
        "en": "incidents opened since the beginning: 1 (0 open, 0 resolved, 0 closed as no action needed,"
        " 1 expired: closed for want of activity, or open and quiet for over 7 days)",
        "zh": "最开始以来新开的事件：1 个（0 个未关闭，0 个已解决，0 个无需处理，1 个已过期：因无动静被关闭，"
        "或仍未关闭但超过 7 天无动静）",
    }
    for lang, line in expected.items():
        assert main(["stats", "--db", str(path), "--lang", lang]) == 0
        assert capsys.readouterr().out.splitlines()[0] == line

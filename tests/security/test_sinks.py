"""Every secret shape of the corpus (tests/security/secrets.yaml) is redacted in every place Pitstop
writes text: all database tables (FTS included), drafts and their ids, Slack replies and uploaded files
(through the local Web API stand-in), console and CLI text (`ask`, `diagnose`), and logs."""

from __future__ import annotations

import io
import json
import logging
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pitstop.core.config import local_user
from pitstop.core.redact import redact
from tests.bot.conftest import copy_kb, payload
from tests.bot.recorder import BOT_USER
from tests.security.secrets import load_corpus

CORPUS = load_corpus()
SECRETS = [item["secret"] for item in CORPUS]
PASTE = "NCCL WARN Cuda failure 'unknown error' on gpu-node-3\n" + "\n".join(i["text"] for i in CORPUS)


def leaks(text: str) -> list[str]:
    """The corpus secrets present in `text`."""
    return [s for s in SECRETS if s in text]


def test_the_joined_paste_is_clean_when_redacted() -> None:
    assert leaks(PASTE) == SECRETS and leaks(redact(PASTE)) == []


def _dump_database(path: Path) -> str:
    """Every row of every table (virtual FTS tables and their shadow tables too), as text."""
    out = []
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert {"incidents", "drafts", "pitfalls", "examples", "docs_fts", "words_fts", "outbox"} <= set(
            tables
        )
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                out += [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in row]
    return "\n".join(out)


def _new_cause() -> Any:
    from pitstop.incidents.model import NewCause

    return NewCause(
        title="WANDB_KEY=0123456789abcdef0123456789abcdef01234567 breaks the launcher",
        what="docker login -u ops -p Fak3D0ckerPw registry.example.com in the job prolog",
        fix="moved DB_PASS=Fak3DbPass!42 into a secret store",
        symptoms=tuple(i["text"] for i in CORPUS[:40]),
    )


def test_slack_replies_uploads_database_drafts_and_logs(serve_app, shared_dir, caplog) -> None:
    from pitstop.bot.slack_io import upload_text

    bot = serve_app()
    with caplog.at_level(logging.DEBUG):
        body = payload(shared_dir, "bolt-app-mention.json")
        body["event"].update(text=f"<@{BOT_USER}> {PASTE}", channel="C111")
        assert bot.send(json.dumps(body))[0] == 200
        bot.recorder.wait_for("chat.postMessage")
        bot.idle()
        incident = bot.services.incidents.list()[0]
        bot.services.incidents.resolve(
            incident.id, user="U1", new_cause=_new_cause(), notes="notes: " + PASTE[-2_000:]
        )
        upload_text(bot.app.client, "C111", incident.thread_ts, PASTE, "outputs.txt", "outputs")
        logging.getLogger("pitstop.test").warning("a library quoting the paste: %s", PASTE)
    drafts = [p for p in bot.services.kb.all() if p.status == "draft"]
    assert drafts, "the new cause became a draft"
    calls = json.dumps([c.body for c in bot.recorder.calls]) + "".join(
        c.raw.decode("utf-8", "replace") for c in bot.recorder.calls if getattr(c, "raw", None)
    )
    assert "outputs.txt" in calls or bot.recorder.of("upload")
    assert leaks(calls) == [], "Slack messages and uploaded files"
    assert leaks(" ".join(d.id for d in drafts)) == [], "draft ids"
    assert leaks(_dump_database(bot.services.db_path)) == [], "database"
    assert leaks(caplog.text) == [], "logs"


def test_console_text(kb_path, embedder, tmp_path) -> None:
    from pitstop.bot.console import Console
    from tests.bot.conftest import make_services

    services = make_services(copy_kb(kb_path, tmp_path / "console.db"), embedder)
    out = io.StringIO()
    new = f":resolve-new DB_PASS=Fak3DbPass!42 | {CORPUS[0]['text']} | redis-cli -a r3disCliFake | x"
    script = f"{PASTE}\n\n{new}\n"
    try:
        Console(services, out, user="alice").run(io.StringIO(script + ":drafts\n:quit\n"))
    finally:
        services.close()
    assert "Likely causes" in out.getvalue()
    assert leaks(out.getvalue()) == []
    assert leaks(_dump_database(tmp_path / "console.db")) == []


def _cli(args: list[str], stdin: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pitstop.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **env},
        timeout=300,
    )


def test_cli_ask_text_and_json(kb_path, tmp_path) -> None:
    db = copy_kb(kb_path, tmp_path / "cli.db")
    for extra in ([], ["--json"]):
        done = _cli(["ask", "-", *extra], PASTE, {"PITSTOP_DB": str(db)})
        assert done.returncode == 0, done.stderr
        assert leaks(done.stdout + done.stderr) == []


@pytest.mark.lab
def test_cli_diagnose_text(lab_fleet, kb_path, tmp_path) -> None:
    db = copy_kb(kb_path, tmp_path / "diag.db")
    policy = tmp_path / "policy.yaml"
    policy.write_text(json.dumps({"rules": [{"users": [local_user()], "hosts": ["*"]}]}))
    args = ["diagnose", "h100-sxm5-healthy", "--error", "-", "--inventory", str(lab_fleet.inventory)]
    done = _cli([*args, "--policy", str(policy)], PASTE, {"PITSTOP_DB": str(db)})
    assert done.returncode in (0, 10, 11), done.stderr
    assert "h100-sxm5-healthy" in done.stdout
    assert leaks(done.stdout + done.stderr) == []


def test_database_and_sidecars_are_private(tmp_path, monkeypatch) -> None:
    from pitstop.core.db import open_db

    home = tmp_path / "home"
    monkeypatch.setenv("PITSTOP_HOME", str(home / "pitstop"))
    db = open_db(home / "pitstop" / "p.db")
    db.execute("CREATE TABLE t (a)")
    db.execute("INSERT INTO t VALUES (1)")
    assert stat.S_IMODE((home / "pitstop").stat().st_mode) == 0o700
    for name in ("p.db", "p.db-wal", "p.db-shm"):
        assert stat.S_IMODE((home / "pitstop" / name).stat().st_mode) == 0o600, name


def test_faiss_cache_files_are_private(kb_path, embedder, tmp_path) -> None:
    from pitstop.kb.service import KnowledgeBase

    path = tmp_path / "k.db"
    with sqlite3.connect(kb_path) as src, sqlite3.connect(path) as dst:
        src.backup(dst)  # the database alone: opening it writes the faiss cache
    KnowledgeBase.open(path, embedder=embedder).warm()
    for name in ("k.db.faiss", "k.db.faiss.json"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


def test_a_database_in_a_missing_directory_is_a_clear_error(tmp_path) -> None:
    done = _cli(["kb", "list"], "", {"PITSTOP_DB": str(tmp_path / "nonexistent" / "dir" / "x.db")})
    assert done.returncode == 6 and "does not exist" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "nonexistent").exists()

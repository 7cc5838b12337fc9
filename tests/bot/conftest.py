"""Fixtures for the bot tests: one warm KnowledgeBase per session, copied per test; the local Web API
recorder; the app served over real HTTP on 127.0.0.1; signed requests built from Slack's payloads."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.bot import recorder as rec

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
INVENTORY = {
    "ssh_config": False,
    "groups": {"a100": {}},
    "hosts": {
        "gpu-node-3": {"address": "127.0.0.250", "groups": ["a100"]},
        "gpu-node-4": {"address": "127.0.0.251", "groups": ["a100"]},
    },
}


ALLOW_ALL = {"rules": [{"name": "tests", "users": ["*"], "hosts": ["*"]}], "rate_limit": {"burst": 0}}


def copy_kb(template: Path, dest: Path) -> Path:
    """Copy the template database (SQLite backup) and its faiss cache beside `dest`."""
    with sqlite3.connect(template) as src, sqlite3.connect(dest) as dst:
        src.backup(dst)
    for suffix in (".faiss", ".faiss.json"):
        cached = Path(f"{template}{suffix}")
        if cached.exists():
            Path(f"{dest}{suffix}").write_bytes(cached.read_bytes())
    return dest


def serve_env(db: Path, home: Path, api_url: str, **extra: str) -> dict[str, str]:
    """The environment of a `pitstop serve` process: its database and home, HTTP mode signed with
    SECRET, the Web API at `api_url` (the recorder's base), no Socket Mode token."""
    env = {
        **os.environ,
        "PITSTOP_DB": str(db),
        "PITSTOP_HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "SLACK_BOT_TOKEN": "xoxb-test-token-1234567890",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": api_url + "/api/",
        **extra,
    }
    env.pop("SLACK_APP_TOKEN", None)
    return env


def make_services(
    db_path: Path,
    embedder: Any,
    *,
    policy: dict | None = None,
    inventory: Any = None,
    channel_modes: str | None = None,
    maintainers: tuple[str, ...] = (),
    pitfalls_dir: Path | None = None,
    workers: int = 2,
) -> Any:
    """Real services over a copy of the KB: KnowledgeBase, Incidents, an inventory, a policy; `workers`
    outbox threads (0: nothing stored is ever done)."""
    from pitstop.app.authz import Policy
    from pitstop.app.diagnose import diagnose
    from pitstop.app.services import assemble
    from pitstop.collectors.inventory import Inventory, build
    from pitstop.incidents.store import Incidents
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(db_path, embedder=embedder)
    inv = inventory if isinstance(inventory, Inventory) else build(inventory or INVENTORY)
    return assemble(
        kb,
        Incidents(db_path, kb=kb),
        inventory=inv,
        policy=Policy.from_data(policy or {}),
        diagnose=diagnose,
        channel_modes=channel_modes,
        workers=workers,
        db_path=db_path,
        maintainers=maintainers,
        pitfalls_dir=pitfalls_dir,
    )


@pytest.fixture
def recorder() -> Iterator[rec.Recorder]:
    """The local Web API stand-in; `recorder.url` is its base."""
    state = rec.Recorder()
    server, url = rec.serve(state)
    state.url = url  # type: ignore[attr-defined]
    yield state
    server.shutdown()
    server.server_close()


def settings_for(recorder: rec.Recorder, db_path: Path, **extra: str) -> Any:
    """Settings pointing the bot at the recorder."""
    from pitstop.core.config import load_settings

    env = {
        "SLACK_BOT_TOKEN": "xoxb-test-token-1234567890",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": recorder.url + "/api/",
        "PITSTOP_DB": str(db_path),
        **extra,
    }  # type: ignore[attr-defined]
    return load_settings(env)


@dataclass
class Running:
    """The app served over HTTP on 127.0.0.1, its services and the recorder behind it."""

    url: str
    services: Any
    recorder: rec.Recorder
    app: Any
    db: Path | None = None

    def send(
        self,
        body: str,
        *,
        content_type: str = "application/json",
        secret: str = SECRET,
        timestamp: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        """POST `body` signed like Slack (v0 HMAC-SHA256 over `v0:{ts}:{body}`); returns (status, body)."""
        ts = str(int(time.time()) if timestamp is None else timestamp)
        signature = "v0=" + hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
        request = urllib.request.Request(
            self.url + "/slack/events",
            data=body.encode(),
            method="POST",
            headers={
                "Content-Type": content_type,
                "X-Slack-Request-Timestamp": ts,
                "X-Slack-Signature": signature,
                **(headers or {}),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def idle(self) -> None:
        """Wait until the bot's background jobs are done."""
        assert self.services.jobs.wait_idle(60)


@pytest.fixture
def serve_app(
    kb_path: Path, embedder: Any, tmp_path: Path, recorder: rec.Recorder
) -> Iterator[Callable[..., Running]]:
    """Factory: build services + app (real KB copy, real SQLite) and serve it over HTTP on 127.0.0.1."""
    from pitstop.bot.app import create_app
    from pitstop.bot.http import make_server

    started: list[tuple[Any, Any]] = []

    def start(db: Path | None = None, **options: Any) -> Running:
        """Serve a fresh copy of the KB, or `db` (another app's database: the bot restarted)."""
        db = db or copy_kb(kb_path, tmp_path / f"pitstop{len(started)}.db")
        services = make_services(db, embedder, **options)
        app = create_app(settings_for(recorder, db), services, update_interval_s=0.2)
        server = make_server(app, services.jobs, SECRET, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append((server, services))
        return Running(f"http://127.0.0.1:{server.server_address[1]}", services, recorder, app, db)

    yield start
    for server, services in started:
        server.shutdown()
        server.server_close()
        services.close()


def payload(shared_dir: Path, name: str) -> dict[str, Any]:
    """A Slack payload from ../shared/slack-payloads, parsed."""
    return json.loads((shared_dir / "slack-payloads" / name).read_text(encoding="utf-8"))

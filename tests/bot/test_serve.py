"""`pitstop serve` as a real process, in both modes, against the local Web API recorder."""

from __future__ import annotations

import json
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.conftest import Running, copy_kb, payload, serve_env
from tests.bot.recorder import BOT_USER
from tests.bot.test_socket_mode import SocketServer

NCCL = "NCCL WARN Cuda failure 'unknown error'"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A `pitstop serve` child process whose output lines are collected in the background."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pitstop", "serve", *args],
            env=env,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(
            target=lambda: [self.lines.put(line) for line in self.proc.stdout], daemon=True
        ).start()
        self.seen: list[str] = []

    def wait_line(self, needle: str, timeout: float = 180) -> str:
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no {needle!r} in output:\n{''.join(self.seen)}") from None
            self.seen.append(line)
            if needle in line:
                return line

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=60)


@pytest.fixture
def env(kb_path, tmp_path, recorder) -> Iterator[dict[str, str]]:
    yield serve_env(copy_kb(kb_path, tmp_path / "serve.db"), tmp_path, recorder.url)


def test_serve_http_answers_a_signed_mention(env, recorder, shared_dir):
    port = free_port()
    served = Served(["--http", "--host", "127.0.0.1", "--port", str(port)], env)
    try:
        served.wait_line("Pitstop listening")
        client = Running(f"http://127.0.0.1:{port}", None, recorder, None)
        body = payload(shared_dir, "bolt-app-mention.json")
        body["event"]["text"] = f"<@{BOT_USER}> {NCCL}"
        assert client.send(json.dumps(body))[0] == 200
        assert client.send(json.dumps(body), secret="wrong")[0] == 401
        reply = recorder.wait_for("chat.postMessage", timeout=60)[0].body
        assert reply["thread_ts"] == body["event"]["ts"]
    finally:
        assert served.stop() == 0
    assert "Traceback" not in "".join(served.seen) and "xoxb-test-token" not in "".join(served.seen)


def test_serve_socket_mode_connects_through_the_api_url_and_acks(env, recorder, shared_dir):
    server = SocketServer()
    recorder.socket_url = server.url
    served = Served([], {**env, "SLACK_APP_TOKEN": "xapp-1-A111-111-test"})
    try:
        envelope = payload(shared_dir, "bolt-socket-mode-envelope-events_api-retry.json")
        envelope["payload"]["event"]["text"] = f"<@{BOT_USER}> {NCCL}"
        envelope["retry_attempt"] = 0
        served.wait_line("Socket Mode")
        recorder.wait_for("apps.connections.open", timeout=120)
        assert server.deliver(envelope)["envelope_id"] == envelope["envelope_id"]
        assert (
            recorder.wait_for("chat.postMessage", timeout=60)[0].body["thread_ts"]
            == envelope["payload"]["event"]["ts"]
        )
    finally:
        assert served.stop() == 0
        server.server.shutdown()


def test_serve_without_tokens_says_what_is_missing(env):
    env = {k: v for k, v in env.items() if not k.startswith("SLACK_")}
    done = subprocess.run(
        [sys.executable, "-m", "pitstop", "serve"], env=env, capture_output=True, text=True, timeout=60
    )
    assert (
        done.returncode == 2
        and "SLACK_BOT_TOKEN is not set" in done.stderr
        and "Traceback" not in done.stderr
    )

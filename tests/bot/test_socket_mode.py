"""Socket Mode through a local WebSocket server: envelopes in (including `retry_attempt`), acks out."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.server import ServerConnection, serve

from tests.bot.conftest import payload
from tests.bot.recorder import BOT_USER

NCCL = "NCCL WARN Cuda failure 'unknown error'"


class SocketServer:
    """Plays Slack's Socket Mode endpoint: sends envelopes, collects the app's acks."""

    def __init__(self) -> None:
        self.outbox: queue.Queue[str] = queue.Queue()
        self.acks: queue.Queue[dict[str, Any]] = queue.Queue()
        self.server = serve(self._session, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self.server.socket.getsockname()[1]}/link"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _session(self, ws: ServerConnection) -> None:
        ws.send(json.dumps({"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A111"}}))
        while True:
            try:
                ws.send(self.outbox.get_nowait())
            except queue.Empty:
                pass
            try:
                message = ws.recv(timeout=0.05)
            except TimeoutError:
                continue
            except Exception:  # noqa: BLE001 - the client went away
                return
            self.acks.put(json.loads(message))

    def deliver(self, envelope: dict[str, Any]) -> dict[str, Any]:
        """Send one envelope and return the app's ack for it."""
        self.outbox.put(json.dumps(envelope))
        while True:
            ack = self.acks.get(timeout=20)
            if ack.get("envelope_id") == envelope["envelope_id"]:
                return ack


@pytest.fixture
def socket_bot(serve_app, recorder) -> Iterator[tuple[Any, SocketServer]]:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    running = serve_app()
    server = SocketServer()
    recorder.socket_url = server.url
    handler = SocketModeHandler(running.app, "xapp-1-A111-111-test")
    handler.connect()
    yield running, server
    handler.close()
    server.server.shutdown()


def test_event_envelope_is_acked_answered_once_and_retries_are_dropped(socket_bot, shared_dir):
    running, server = socket_bot
    envelope = payload(shared_dir, "bolt-socket-mode-envelope-events_api-retry.json")
    envelope["retry_attempt"] = 0
    envelope["payload"]["event"]["text"] = f"<@{BOT_USER}> {NCCL}"
    assert server.deliver(envelope)["envelope_id"] == envelope["envelope_id"]
    reply = running.recorder.wait_for("chat.postMessage")[0].body
    assert reply["thread_ts"] == envelope["payload"]["event"]["ts"]
    assert [c.method for c in running.recorder.calls if c.method == "apps.connections.open"]
    retry = payload(shared_dir, "bolt-socket-mode-envelope-events_api-retry.json")  # retry_attempt: 1
    retry["payload"]["event"]["text"] = f"<@{BOT_USER}> {NCCL}"
    retry["envelope_id"] = "retry-1"
    assert server.deliver(retry)["envelope_id"] == "retry-1"
    running.idle()
    assert len(running.recorder.of("chat.postMessage")) == 1


def test_slash_command_envelope_is_acked_with_usage_when_empty(socket_bot, shared_dir):
    _, server = socket_bot
    envelope = payload(shared_dir, "bolt-socket-mode-envelope-slash_commands.json")
    envelope["payload"]["command"] = "/diagnose"
    ack = server.deliver(envelope)
    assert "Usage: `/diagnose HOSTS" in ack["payload"]["text"]

"""A local stand-in for Slack's Web API on 127.0.0.1 that answers like Slack and records every call.

It serves `POST /api/<method>` (form or JSON bodies), the upload URL handed out by
`files.getUploadURLExternal`, and a `response_url` endpoint; `fail_next` makes the next call of a
method answer 429 with `Retry-After`, `lose_next` carries the next call out but answers it 500. It
keeps the bot's messages per channel (with their metadata, and the file shares of completed uploads)
and serves them back through `conversations.history` and `conversations.replies` (GET or POST),
metadata only with `include_all_metadata`, as Slack does.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BOT_USER = "UPITSTOP"
BOT_ID = "BPITSTOP"
TEAM = "T111"


@dataclass(frozen=True)
class Call:
    """One request the recorder received."""

    method: str
    body: dict[str, Any]
    status: int
    raw: bytes = b""
    at: float = field(default_factory=time.monotonic)  # when it arrived (benchmarks measure latency)


@dataclass
class Recorder:
    """The server's state: calls in arrival order and scripted failures."""

    calls: list[Call] = field(default_factory=list)
    failures: dict[str, list[int]] = field(default_factory=dict)  # method -> Retry-After seconds
    socket_url: str = ""
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)  # user group id -> members
    messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # channel -> the bot's messages
    uploads: dict[str, str] = field(default_factory=dict)  # file id -> file name
    lost: list[str] = field(default_factory=list)  # methods whose next response is lost
    lock: threading.Condition = field(default_factory=threading.Condition)
    _ts: itertools.count = field(default_factory=lambda: itertools.count(1))

    def lose_next(self, method: str) -> None:
        """Carry out the next call of `method` but answer it 500, as if the response was lost on the way
        back: the bot cannot know its message was posted."""
        with self.lock:
            self.lost.append(method)

    def fail_next(self, method: str, retry_after: int = 1) -> None:
        """Answer the next call of `method` with 429 and `Retry-After: retry_after`."""
        with self.lock:
            self.failures.setdefault(method, []).append(retry_after)

    def of(self, method: str) -> list[Call]:
        """Successful calls of `method`, in order."""
        with self.lock:
            return [c for c in self.calls if c.method == method and c.status == 200]

    def wait_for(self, method: str, count: int = 1, timeout: float = 30.0) -> list[Call]:
        """Block until `count` successful calls of `method` arrived; AssertionError on timeout."""
        with self.lock:
            ok = self.lock.wait_for(lambda: len(self.of(method)) >= count, timeout)
        calls = self.of(method)
        assert ok, f"expected {count} {method} call(s) within {timeout}s, got {len(calls)}"
        return calls

    def clear(self) -> None:
        """Forget recorded calls."""
        with self.lock:
            self.calls.clear()

    def record(self, call: Call) -> None:
        with self.lock:
            self.calls.append(call)
            self.lock.notify_all()

    def next_ts(self) -> str:
        """A new message ts: the current second and a counter, so ts order is arrival order."""
        return f"{int(time.time())}.{next(self._ts):06d}"

    def keep(self, channel: str, message: dict[str, Any]) -> None:
        """Remember a message the bot posted in `channel`."""
        with self.lock:
            self.messages.setdefault(channel, []).append(message)

    def edit(self, channel: str, ts: str, changes: dict[str, Any]) -> None:
        """chat.update: new text and blocks; metadata kept unless the update carries some."""
        with self.lock:
            for message in self.messages.get(channel, ()):
                if message["ts"] == ts:
                    message.update({k: v for k, v in changes.items() if k in ("text", "blocks", "metadata")})

    def read(self, channel: str, thread_ts: str | None, oldest: str, metadata: bool) -> list[dict[str, Any]]:
        """A thread's messages (oldest first) or the channel's top level (newest first), after `oldest`."""
        with self.lock:
            kept = list(self.messages.get(channel, ()))
        if thread_ts:
            found = [m for m in kept if thread_ts in (m["ts"], m.get("thread_ts"))]
        else:
            found = [m for m in reversed(kept) if m.get("thread_ts") in (None, m["ts"])]
        found = [m for m in found if float(m["ts"]) > float(oldest or 0)]
        return [m if metadata else {k: v for k, v in m.items() if k != "metadata"} for m in found]


def _parse(raw: bytes, content_type: str) -> dict[str, Any]:
    if "json" in content_type:
        return json.loads(raw or b"{}")
    form = {k: v[0] for k, v in urllib.parse.parse_qs(raw.decode("utf-8", "replace")).items()}
    for key in ("blocks", "view", "files", "attachments", "metadata"):
        if isinstance(form.get(key), str) and form[key][:1] in "[{":
            form[key] = json.loads(form[key])
    return form


def _answer(recorder: Recorder, method: str, body: dict[str, Any], base: str) -> dict[str, Any]:
    if method == "auth.test":
        return {
            "ok": True,
            "url": "https://pitstop-test.slack.com/",
            "team": "Pitstop Test",
            "user": "pitstop",
            "team_id": TEAM,
            "user_id": BOT_USER,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }
    if method in ("chat.postMessage", "chat.update"):
        ts = body.get("ts") or recorder.next_ts()
        channel = str(body.get("channel"))
        if method == "chat.update":
            recorder.edit(channel, ts, body)
        else:
            message = {
                "type": "message",
                "ts": ts,
                "bot_id": BOT_ID,
                "user": BOT_USER,
                "text": body.get("text"),
            }
            for key in ("thread_ts", "blocks", "metadata"):
                if body.get(key):
                    message[key] = body[key]
            recorder.keep(channel, message)
        return {
            "ok": True,
            "channel": body.get("channel"),
            "ts": ts,
            "message": {"text": body.get("text"), "ts": ts, "bot_id": BOT_ID},
        }
    if method == "chat.postEphemeral":
        return {"ok": True, "message_ts": recorder.next_ts()}
    if method == "views.open":
        return {"ok": True, "view": {"id": "V1", **(body.get("view") or {})}}
    if method in ("conversations.history", "conversations.replies"):
        thread = body.get("ts") if method == "conversations.replies" else None
        found = recorder.read(
            str(body.get("channel")),
            thread,
            str(body.get("oldest") or "0"),
            body.get("include_all_metadata") in (True, "1", "true"),
        )
        return {"ok": True, "messages": found, "has_more": False, "response_metadata": {"next_cursor": ""}}
    if method == "files.getUploadURLExternal":
        file_id = f"F{len(recorder.of(method)) + 1:04d}"
        recorder.uploads[file_id] = str(body.get("filename"))
        return {"ok": True, "upload_url": f"{base}/upload/{file_id}", "file_id": file_id}
    if method == "files.completeUploadExternal":
        files = body.get("files")
        files = json.loads(files) if isinstance(files, str) else files
        if body.get("channel_id"):
            shared = [
                {"id": f["id"], "name": recorder.uploads.get(f["id"], ""), "title": f.get("title", "")}
                for f in files
            ]
            message = {"type": "message", "ts": recorder.next_ts(), "bot_id": BOT_ID, "files": shared}
            if body.get("thread_ts"):
                message["thread_ts"] = body["thread_ts"]
            recorder.keep(str(body["channel_id"]), message)
        return {"ok": True, "files": [{"id": f["id"], "title": f.get("title", "")} for f in files]}
    if method == "files.info":
        return {"ok": True, "file": {"id": body.get("file"), "name": "outputs.txt"}}
    if method == "usergroups.users.list":
        return {"ok": True, "users": list(recorder.groups.get(str(body.get("usergroup")), ()))}
    if method == "apps.connections.open":
        return {"ok": True, "url": recorder.socket_url}
    return {"ok": True}


def serve(recorder: Recorder) -> tuple[ThreadingHTTPServer, str]:
    """Start the server on 127.0.0.1 (a free port) in a daemon thread; returns it and its base URL."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return

        def do_GET(self) -> None:  # noqa: N802 - the SDK reads conversations with GET and a query string
            path, _, query = self.path.partition("?")
            method = path.removeprefix("/api/")
            body = {k: v[0] for k, v in urllib.parse.parse_qs(query).items()}
            recorder.record(Call(method, body, 200))
            self._reply(200, _answer(recorder, method, body, ""))

        def do_POST(self) -> None:  # noqa: N802
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = self.path.partition("?")[0]
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            if path.startswith("/upload/") or path.startswith("/respond"):
                recorder.record(Call(path.split("/")[1], {"path": path}, 200, raw))
                return self._reply(200, {"ok": True} if path.startswith("/respond") else "OK - 1")
            method = path.removeprefix("/api/")
            body = _parse(raw, self.headers.get("Content-Type", ""))
            with recorder.lock:
                queued = recorder.failures.get(method)
                retry_after = queued.pop(0) if queued else None
            if retry_after is not None:
                recorder.record(Call(method, body, 429))
                return self._reply(
                    429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)}
                )
            recorder.record(Call(method, body, 200))
            answer = _answer(recorder, method, body, base)
            with recorder.lock:
                lost = method in recorder.lost
                if lost:
                    recorder.lost.remove(method)
            if lost:
                return self._reply(500, {"ok": False, "error": "internal_error"})
            self._reply(200, answer)

        def _reply(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain" if isinstance(payload, str) else "application/json")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"

"""HTTP mode: Slack's requests at POST /slack/events on a threading HTTP server; Bolt checks signatures."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from slack_bolt import App
from slack_bolt.request import BoltRequest

EVENTS_PATH = "/slack/events"
MAX_BODY = 1 << 20  # Slack's payloads are far smaller; refuse anything bigger


def make_server(app: App, host: str = "0.0.0.0", port: int = 3000) -> ThreadingHTTPServer:
    """A server (not yet serving) that hands POST /slack/events to `app` and answers GET /health."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            return  # access logs would carry query strings; Bolt logs what matters

        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            if self.path.partition("?")[0] == "/health":
                self._send(200, {"Content-Type": ["text/plain"]}, "ok")
            else:
                self._send(404, {}, "")

        def do_POST(self) -> None:  # noqa: N802
            path, _, query = self.path.partition("?")
            declared = self.headers.get("Content-Length") or "0"
            length = int(declared) if declared.isdigit() else MAX_BODY + 1  # unreadable: refused as too big
            if path != EVENTS_PATH or length > MAX_BODY:
                self._send(404 if path != EVENTS_PATH else 413, {}, "")
                return
            body = self.rfile.read(length).decode("utf-8", errors="replace")
            try:
                response = app.dispatch(
                    BoltRequest(body=body, query=query, headers=dict(self.headers.items()))
                )
            except Exception:  # noqa: BLE001 - a payload Bolt cannot parse is the sender's fault
                response = None
            if response is None or response.status == 500:
                # Bolt answers 500 when its middleware cannot read a signed payload (`"event": null`);
                # Slack would retry that for ever, so say the request is bad (Bolt logged the error).
                self._send(400, {"Content-Type": ["application/json"]}, json.dumps({"error": "bad request"}))
                return
            self._send(response.status, response.headers, response.body)

        def _send(self, status: int, headers: dict, body: str | dict) -> None:
            data = (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
            self.send_response(status)
            for name, values in headers.items():
                if name.lower() != "content-length":
                    for value in values if isinstance(values, (list, tuple)) else [values]:
                        self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return _Server((host, port), Handler)


class _Server(ThreadingHTTPServer):
    """Thread per request; a listen backlog deep enough for Slack's bursts (the stdlib default is 5)."""

    daemon_threads = True
    request_queue_size = 128

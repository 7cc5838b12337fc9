"""HTTP mode: Slack's requests at POST /slack/events, GET /health; signatures are checked here.

The server is aiohttp's on one asyncio loop, so a connection costs a socket, not a thread, until its
request has fully arrived. Then its signature and timestamp are checked on the loop (slack_sdk's
`SignatureVerifier`, the check Bolt would make; the app runs with Bolt's own check off, so a stored
event can be dispatched after a restart): a bad or stale one gets 401 before anything is stored. An
Events API callback is stored as an outbox row and answered 200 once that row is committed, before
Bolt runs (`pitstop.bot.inbox`); anything else (slash commands, interactions, option lists,
url_verification) goes to a worker thread running Bolt's `app.dispatch`, whose answer (a response
body, options) is sent back. Limits:
- a connection must deliver a complete request line and headers within `deadline_s` of opening (or
  of its previous response), and the declared body within `deadline_s` of its headers; else it is
  closed (aiohttp's keep-alive timer covers the headers, `_read_body` the body);
- at most `max_connections` are open at once: one more is answered 503 and closed at accept time;
- a request line or header over `MAX_FIELD` bytes, or more than `MAX_HEADERS` headers, is refused
  (400/431) as soon as it is read;
- the listen backlog is `BACKLOG` (the kernel caps it at net.core.somaxconn), so a burst of new
  connections waits in the kernel instead of having SYNs dropped and retried a second later;
- `/health` is answered on the loop itself, never behind busy workers;
- while a request is being answered, `jobs.hold()` keeps outbox workers from starting new rows, so a
  burst's acknowledgements get the CPU first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from multidict import CIMultiDict
from slack_bolt import App
from slack_bolt.request import BoltRequest
from slack_sdk.signature import SignatureVerifier

from pitstop.app.outbox import QueueFull, Workers
from pitstop.bot import inbox

EVENTS_PATH = "/slack/events"
MAX_BODY = 1 << 20  # Slack's payloads are far smaller; refuse anything bigger
BACKLOG = 1024
DEADLINE_S = 5.0  # headers, and then the body, must each arrive within this
MAX_CONNECTIONS = 512
# Header limits: Slack's requests carry about 15 short headers (a proxy adds a few); these bound what
# one connection's headers can hold at 64 x 4 KiB, so 512 of them at once stay near 128 MiB (aiohttp's
# defaults, 128 x 8 KiB, allowed 512 MiB).
MAX_HEADERS = 64
MAX_FIELD = 4096
WORKERS = 16  # threads running app.dispatch (a listener only queues work and acks)
_LINGER_S = 1.0
_SIGNED_HEADERS = ("X-Slack-Request-Timestamp", "X-Slack-Signature")
_REFUSAL = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
_LOG = logging.getLogger(__name__)


class _MalformedRequests(logging.Filter):
    """aiohttp logs each request its parser refuses with a traceback that quotes the sender's bytes, so
    anyone could flood the log with text of their choosing: such a record becomes one line naming the
    refusal."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            record.msg, record.args = (
                "refused a malformed request (%s, HTTP %s)",
                (type(exc).__name__, exc.code),
            )
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


_LOG.addFilter(_MalformedRequests())


class HttpServer:
    """Bound at construction (so `server_address` is known), served by `serve_forever` on the calling
    thread until `shutdown()` (from another thread) or KeyboardInterrupt; `server_close()` frees the port."""

    def __init__(
        self,
        app: App,
        host: str,
        port: int,
        *,
        signing_secret: str,
        jobs: Workers,
        deadline_s: float = DEADLINE_S,
        max_connections: int = MAX_CONNECTIONS,
        workers: int = WORKERS,
    ) -> None:
        self.app = app
        self._verifier = SignatureVerifier(signing_secret)
        self._jobs = jobs
        self.deadline_s = deadline_s
        self.max_connections = max_connections
        self._workers = workers
        self._sock = socket.create_server((host, port), backlog=BACKLOG)
        self.server_address: tuple[str, int] = self._sock.getsockname()[:2]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._arrived: list[tuple[str, dict[str, Any], asyncio.Future[int | None | QueueFull]]] = []
        self._writing: asyncio.Task[None] | None = None

    def serve_forever(self) -> None:
        """Serve until `shutdown()`."""
        self._stopped.clear()
        try:
            asyncio.run(self._serve())
        finally:
            self._stopped.set()

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop `serve_forever` (called from another thread) and wait for it to return."""
        self._stopping.set()
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                loop.call_soon_threadsafe(stop.set)
            self._stopped.wait(timeout)

    def server_close(self) -> None:
        """Close the listening socket."""
        self._sock.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        if self._stopping.is_set():  # shutdown() came before the loop existed
            return
        pool = ThreadPoolExecutor(self._workers, thread_name_prefix="pitstop-http")
        # One thread commits the stored events: a pool of them would take turns at one transaction
        # each and fight the loop for the GIL, which made a burst's acknowledgements wait.
        writer = ThreadPoolExecutor(1, thread_name_prefix="pitstop-http-store")
        handler = web.Server(
            lambda request: self._handle(request, pool, writer),
            keepalive_timeout=self.deadline_s,  # from accept (aiohttp >= 3.10) and after each response
            access_log=None,  # access logs would carry query strings; Bolt logs what matters
            logger=_LOG,  # its parse errors one line each (_MalformedRequests)
            max_line_size=MAX_FIELD,
            max_field_size=MAX_FIELD,
            max_headers=MAX_HEADERS,
            lingering_time=0,  # a body left unread (refused, or stalled) is not waited for
        )

        def accept() -> asyncio.Protocol:
            if len(handler.connections) >= self.max_connections:
                return _Refuse()
            return handler()

        listener = await self._loop.create_server(accept, sock=self._sock, backlog=BACKLOG)
        try:
            await self._stop.wait()
        finally:
            listener.close()
            await handler.shutdown(2.0)
            pool.shutdown(wait=False, cancel_futures=True)
            writer.shutdown(wait=False, cancel_futures=True)

    async def _handle(
        self, request: web.BaseRequest, pool: ThreadPoolExecutor, writer: ThreadPoolExecutor
    ) -> web.StreamResponse:
        if request.method == "GET" and request.path == "/health":
            return web.Response(text="ok")
        if request.path != EVENTS_PATH:
            return web.Response(status=404)
        if request.method != "POST":
            return web.Response(status=405)
        if request.content_length is None:
            return web.Response(status=411)  # Slack always declares its body's length
        if request.content_length > MAX_BODY:
            return web.Response(status=413)
        body = await self._read_body(request)
        if body is None:
            return web.Response(status=408, headers={"Connection": "close"})
        if not self._signed(body, request):
            _LOG.info("Invalid request signature detected (details withheld)")  # never the body
            return web.json_response({"error": "invalid request"}, status=401)
        loop = asyncio.get_running_loop()
        with self._jobs.hold():
            event = inbox.stored_event(body)
            # A full queue leaves the event to Bolt, whose listener tells the person so.
            if event is not None and await self._store(*event, writer):
                return web.Response(status=200)
            headers: dict[str, str | Sequence[str]] = dict(request.headers.items())
            status, out_headers, payload = await loop.run_in_executor(
                pool, _dispatch, self.app, body, request.query_string, headers
            )
        return web.Response(status=status, headers=CIMultiDict(out_headers), body=payload)

    async def _store(self, key: str, event: dict[str, Any], writer: ThreadPoolExecutor) -> bool:
        """Commit one callback's outbox row (or find its key there); False when the queue is full.
        Callbacks that arrive while a batch is being written are committed together in the next."""
        stored = asyncio.get_running_loop().create_future()
        self._arrived.append((key, event, stored))
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write(writer))
        return not isinstance(await stored, QueueFull)

    async def _write(self, writer: ThreadPoolExecutor) -> None:
        """Commit what has arrived, one transaction per batch, until nothing waits."""
        loop = asyncio.get_running_loop()
        while self._arrived:
            batch, self._arrived = self._arrived, []
            deliveries = [(key, event) for key, event, _ in batch]  # stored even if its client left
            try:
                results = await loop.run_in_executor(
                    writer, partial(self._jobs.put_many, inbox.KIND, deliveries, raw=True)
                )
            except Exception as exc:  # noqa: BLE001 - the database failed: each request gets a 500
                for _, _, stored in batch:
                    if not stored.done():
                        stored.set_exception(exc)
                continue
            for (_, _, stored), result in zip(batch, results, strict=True):
                if not stored.done():  # done: cancelled, its client went away
                    stored.set_result(result)

    def _signed(self, body: str, request: web.BaseRequest) -> bool:
        """Whether Slack signed `body` within the last 5 minutes (v0 HMAC-SHA256 with the signing secret).
        Each header must come once: Bolt (and its replay check) reads the last of a repeated header,
        so a captured request with one more signature or timestamp header would pass as new."""
        if any(len(request.headers.getall(name, ())) != 1 for name in _SIGNED_HEADERS):
            return False
        stamp = request.headers.get("X-Slack-Request-Timestamp", "")
        if not (stamp.isascii() and stamp.isdigit()):  # isdigit() alone takes '²', which int() refuses
            return False
        return self._verifier.is_valid(body, stamp, request.headers.get("X-Slack-Signature", ""))

    async def _read_body(self, request: web.BaseRequest) -> str | None:
        """The declared body, or None when it did not all arrive within the deadline."""
        try:
            data = await asyncio.wait_for(
                request.content.readexactly(request.content_length or 0), self.deadline_s
            )
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            return None
        return data.decode("utf-8", errors="replace")


def _dispatch(
    app: App, body: str, query: str, headers: dict[str, str | Sequence[str]]
) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run Bolt on one request (in a worker thread): (status, header pairs, body) to send back."""
    try:
        response = app.dispatch(BoltRequest(body=body, query=query, headers=headers))
    except Exception:  # noqa: BLE001 - a payload Bolt cannot parse is the sender's fault
        response = None
    if response is None or response.status == 500:
        # Bolt answers 500 when its middleware cannot read a signed payload (`"event": null`);
        # Slack would retry that for ever, so say the request is bad (Bolt logged the error).
        return 400, [("Content-Type", "application/json")], json.dumps({"error": "bad request"}).encode()
    out = [
        (name, str(value))
        for name, values in response.headers.items()
        if name.lower() != "content-length"
        for value in (values if isinstance(values, (list, tuple)) else [values])
    ]
    data: Any = response.body
    return response.status, out, (data if isinstance(data, str) else json.dumps(data)).encode("utf-8")


class _Refuse(asyncio.Protocol):
    """A connection over the limit: answered 503 at once, before anything is read, and closed once the
    client has closed its side or after `_LINGER_S` (closing with unread data would reset the
    connection and could lose the answer)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(_REFUSAL)
        transport.write_eof()
        self._transport = transport
        self._timer = asyncio.get_running_loop().call_later(_LINGER_S, transport.close)

    def data_received(self, data: bytes) -> None:
        return  # the request is not read: discard it

    def eof_received(self) -> bool:
        self._transport.close()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._timer.cancel()


def make_server(
    app: App, jobs: Workers, signing_secret: str, host: str = "0.0.0.0", port: int = 3000
) -> HttpServer:
    """A server (bound, not yet serving) for POST /slack/events signed with `signing_secret` and GET
    /health; Events API callbacks become `jobs` rows that its workers dispatch through `app`."""
    return HttpServer(app, host, port, signing_secret=signing_secret, jobs=jobs)

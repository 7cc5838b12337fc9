"""The HTTP-mode server under hostile connections, over real sockets: stalled requests are dropped at
their deadline and block nobody, connections over the limit are refused at once, the listen backlog
is sized for bursts. A small real Bolt app (signed requests verified) stands behind it."""

from __future__ import annotations

import logging
import socket
import subprocess
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from slack_bolt import Ack, App
from slack_sdk import WebClient

from pitstop.app.outbox import Outbox, Workers
from pitstop.bot.http import BACKLOG, MAX_FIELD, MAX_HEADERS, HttpServer
from tests.bot import recorder as rec
from tests.bot.conftest import SECRET, Running
from tests.bot.interactions import slash_command

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def serve(
    recorder: rec.Recorder, tmp_path: Path
) -> Iterator[Callable[..., tuple[HttpServer, Running, list[str]]]]:
    """Factory: a Bolt app whose /diagnose records its text, served by HttpServer with the given limits."""
    servers: list[HttpServer] = []
    jobs = Workers(Outbox(tmp_path / "outbox.db"))  # where events would go; this app has no event listener

    def start(**limits: float) -> tuple[HttpServer, Running, list[str]]:
        ran: list[str] = []
        client = WebClient(token="xoxb-test-token-1234567890", base_url=recorder.url + "/api/")  # type: ignore[attr-defined]
        app = App(client=client, signing_secret=SECRET)

        @app.command("/diagnose")
        def diagnose(ack: Ack, command: dict) -> None:
            ran.append(command["text"])
            ack()

        server = HttpServer(app, "127.0.0.1", 0, signing_secret=SECRET, jobs=jobs, **limits)  # type: ignore[arg-type]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        url = f"http://127.0.0.1:{server.server_address[1]}"
        return server, Running(url, None, recorder, app), ran

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def connect(server: HttpServer, data: bytes = b"") -> socket.socket:
    sock = socket.create_connection(server.server_address, timeout=30)
    if data:
        sock.sendall(data)
    return sock


def read_to_eof(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the socket timeout bounds the wait)."""
    chunks = []
    while chunk := sock.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks)


def health(url: str) -> str:
    with urllib.request.urlopen(url + "/health", timeout=10) as response:
        return response.read().decode()


STALLED_BODY = (
    b"POST /slack/events HTTP/1.1\r\nHost: pitstop\r\nContent-Type: " + FORM.encode() + b"\r\n"
    b"Content-Length: 4000\r\n\r\ncommand=%2Fdiagnose&text="
)
STALLED_HEADERS = b"POST /slack/events HTTP/1.1\r\nHost: pitstop\r\nX-Slack-Sig"


def test_stalled_connections_block_nothing_and_are_dropped(serve, shared_dir):
    server, bot, ran = serve(deadline_s=1.0)
    stalled = [connect(server, STALLED_BODY if n % 2 else STALLED_HEADERS) for n in range(40)]
    stalled += [connect(server) for _ in range(5)]  # connected, never a byte
    try:
        body = slash_command(shared_dir, "gpu-node-3", response_url=bot.url + "/unused")
        assert bot.send(body, content_type=FORM)[0] == 200
        assert ran == ["gpu-node-3"]
        assert health(bot.url) == "ok"
        for sock in stalled:  # each is closed by the server (a stalled body is told 408 first)
            answer = read_to_eof(sock)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:80]
    finally:
        for sock in stalled:
            sock.close()
    assert ran == ["gpu-node-3"]  # no partial request reached Bolt


def test_connections_over_the_limit_are_refused_at_once(serve):
    server, bot, _ = serve(max_connections=8, deadline_s=60.0)
    held = []
    for _ in range(8):  # keep-alive connections that did one request: all counted as open
        sock = connect(server, b"GET /health HTTP/1.1\r\nHost: pitstop\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        held.append(sock)
    try:
        extra = connect(server)
        assert read_to_eof(extra).startswith(b"HTTP/1.1 503")
        extra.close()
        held.pop().close()
        for _ in range(50):  # the server frees the slot once it has seen the close
            sock = connect(server, b"GET /health HTTP/1.1\r\nHost: pitstop\r\nConnection: close\r\n\r\n")
            answer = read_to_eof(sock)
            sock.close()
            if answer.startswith(b"HTTP/1.1 200"):
                break
            assert answer.startswith(b"HTTP/1.1 503")
        else:
            pytest.fail("a freed slot was never reused")
    finally:
        for sock in held:
            sock.close()


def test_oversized_and_undeclared_bodies_are_refused(serve):
    server, _, ran = serve()
    big = connect(server, b"POST /slack/events HTTP/1.1\r\nHost: p\r\nContent-Length: 2000000\r\n\r\n")
    assert big.recv(4096).startswith(b"HTTP/1.1 413")
    big.close()
    chunked = connect(
        server, b"POST /slack/events HTTP/1.1\r\nHost: p\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    )
    assert chunked.recv(4096).startswith(b"HTTP/1.1 411")
    chunked.close()
    assert ran == []


@pytest.mark.parametrize("stamp", ["\u00b2", "\u2460\u2461", "1\u00b3"])
def test_a_timestamp_of_digits_int_cannot_read_is_refused(serve, caplog, stamp):
    """str.isdigit() accepts superscripts and circled digits that int() rejects: an unsigned request
    with such a timestamp gets 401 like any bad one, not a 500 and a traceback in the log."""
    server, _, ran = serve()
    body = b"command=%2Fdiagnose&text=x"
    head = (
        b"POST /slack/events HTTP/1.1\r\nHost: p\r\nContent-Type: " + FORM.encode() + b"\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n"
        b"X-Slack-Request-Timestamp: " + stamp.encode() + b"\r\n"
        b"X-Slack-Signature: v0=" + b"0" * 64 + b"\r\n\r\n"
    )
    sock = connect(server, head + body)
    try:
        assert read_to_eof(sock).startswith(b"HTTP/1.1 401")
    finally:
        sock.close()
    assert "Traceback" not in caplog.text and ran == []


@pytest.mark.parametrize(
    "head",
    [
        b"POST /slack/events HTTP/1.1\r\nHost: p\r\nX-Chosen: hello\x01planted log text\r\n\r\n",
        b"POST /slack/events HTTP/1.1\r\nHost: p\r\nContent-Length: -5\r\n\r\n",
        b"GET /planted-log-text HTTP/9.9\r\n\r\n",
    ],
    ids=["bad-header-byte", "negative-length", "bad-version"],
)
def test_a_malformed_request_is_logged_as_one_line_without_its_bytes(serve, caplog, head):
    """Anyone can send malformed requests: each is one short log line naming the refusal, never a
    traceback or the sender's bytes (which would let them flood the log with text of their choosing)."""
    server, _, ran = serve()
    caplog.set_level(logging.DEBUG)
    sock = connect(server, head)
    try:
        assert read_to_eof(sock).startswith(b"HTTP/1.")
    finally:
        sock.close()
    assert "Traceback" not in caplog.text and "planted" not in caplog.text and ran == []
    refused = [r for r in caplog.records if r.name == "pitstop.bot.http"]
    assert len(refused) == 1 and refused[0].exc_info is None, caplog.text


@pytest.mark.parametrize(
    ("count", "size", "refused"),
    [(MAX_HEADERS - 4, 100, False), (MAX_HEADERS + 1, 100, True), (1, MAX_FIELD + 1, True)],
    ids=["enough-headers", "too-many-headers", "too-long-a-header"],
)
def test_what_one_connections_headers_may_hold_is_bounded(serve, count, size, refused):
    """512 open connections x their headers is the server's worst-case memory: too many headers, or
    one too long, are refused while the rest of a Slack-sized request goes through."""
    server, _, ran = serve()
    extra = b"".join(b"X-Padding-%d: %s\r\n" % (n, b"a" * size) for n in range(count))
    head = b"GET /health HTTP/1.1\r\nHost: p\r\nConnection: close\r\n" + extra + b"\r\n"
    sock = connect(server, head)
    try:
        status = read_to_eof(sock).split(b"\r\n", 1)[0]
    finally:
        sock.close()
    assert (status.split()[1] in (b"400", b"431")) is refused, status
    assert ran == []


def test_listen_backlog_is_sized_for_bursts(serve):
    server, _, _ = serve()
    port = server.server_address[1]
    listed = subprocess.run(
        ["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True, timeout=10, check=True
    ).stdout.split()
    somaxconn = int(open("/proc/sys/net/core/somaxconn").read())
    assert int(listed[2]) == min(BACKLOG, somaxconn)  # Send-Q of a listening socket is its backlog

"""The warm `pitstop ask` server (cli/ask_server.py), through real `pitstop ask` processes.

A second ask is answered by the server only if it prints exactly what an ask in its own process
prints; the client's imports tell which one answered (an ask in its own process imports the KB)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitstop.cli import ask_server
from pitstop.cli.main import main
from tests.bot.conftest import copy_kb

# One worker for all of them (`--dist loadgroup`): one test touches an entry file's mtime, which makes
# every running server stale, another test's included.
pytestmark = pytest.mark.xdist_group("ask_server")

QUESTION = "Failed to initialize NVML: Driver/library version mismatch"
CHINESE = "训练时报错 NCCL timeout，所有 rank 卡住"


@pytest.fixture
def world(kb_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A KB of this test's own, a private runtime folder for the socket, the server turned on; the
    server this test starts is stopped at the end."""
    db = copy_kb(kb_path, tmp_path / "pitstop.db")
    runtime = Path(tempfile.mkdtemp(prefix="pitstop-test-"))  # short: a socket's path has at most 107 bytes
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "PITSTOP_DB": str(db), "COLUMNS": "100"}
    for name in ("XDG_RUNTIME_DIR", "PITSTOP_DB", "COLUMNS"):
        monkeypatch.setenv(name, env[name])
    yield env
    path = ask_server.socket_path(db)
    assert path is not None
    with open(f"{path}.lock", "a+") as lock:
        deadline = time.monotonic() + 60
        while True:  # until this test's server has gone: it holds the lock until it has removed its socket
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                assert time.monotonic() < deadline, "the ask server did not stop"
            lock.seek(0)
            with contextlib.suppress(ValueError, IndexError, ProcessLookupError):
                os.kill(int(lock.read().split()[0]), signal.SIGTERM)
            time.sleep(0.1)
        shutil.rmtree(runtime)  # with the lock held: a server that starts late finds it taken and leaves


def ask(
    env: dict[str, str], *words: str, server: bool = True
) -> tuple[subprocess.CompletedProcess[str], bool]:
    """One `pitstop ask` process; also whether it answered in its own process (it imported the KB)."""
    command = [sys.executable, "-X", "importtime", "-m", "pitstop", "ask", *words]
    run = subprocess.run(
        command, env={**env, "PITSTOP_ASK_SERVER": "1" if server else "0"}, capture_output=True, text=True
    )
    own = "pitstop.kb.service" in run.stderr
    lines = run.stderr.splitlines()
    run.stderr = "".join(line + "\n" for line in lines if not line.startswith("import time:"))
    return run, own


def wait_listening(db: Path, timeout: float = 60.0) -> None:
    """Until the server of `db` accepts connections."""
    path = ask_server.socket_path(db)
    assert path is not None
    deadline = time.monotonic() + timeout
    while not ask_server.listening(path):
        assert time.monotonic() < deadline, Path(f"{path}.log").read_text(errors="replace")
        time.sleep(0.2)


@pytest.mark.timeout(900)  # a dozen whole `pitstop ask` processes: minutes on a loaded 2-core machine
def test_second_ask_is_answered_by_the_server_with_the_same_output(
    world: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    db = Path(world["PITSTOP_DB"])
    first, own = ask(world, QUESTION)
    assert first.returncode == 0 and own and "nvml-driver-library-mismatch" in first.stdout
    wait_listening(db)
    cases = [
        (QUESTION,),
        ("--json", "--top", "3", QUESTION),
        ("-v", QUESTION),
        (CHINESE,),
        ("--lang", "zh", QUESTION),
        ("   ",),  # nothing to search for: the error line and exit status of an ask in its own process
    ]
    for words in cases:
        status = main(["ask", *words])  # in this process, the server off (conftest): the reference
        alone = capsys.readouterr()
        warm, warm_own = ask(world, *words)
        assert not warm_own, words
        assert (warm.stdout, warm.stderr, warm.returncode) == (alone.out, alone.err, status)
    assert status == 2 and alone.err.strip()
    path = ask_server.socket_path(db)
    assert path is not None
    os.kill(int(Path(f"{path}.lock").read_text().split()[0]), signal.SIGTERM)  # `kill PID` cleans up too
    deadline = time.monotonic() + 30
    while path.exists():
        assert time.monotonic() < deadline
        time.sleep(0.1)


@pytest.mark.timeout(900)
def test_a_changed_database_is_not_answered_from_the_old_one(world: dict[str, str]) -> None:
    db = Path(world["PITSTOP_DB"])
    ask(world, QUESTION)
    wait_listening(db)
    path = ask_server.socket_path(db)
    assert path is not None
    before, own = ask(world, QUESTION)
    assert not own and "nvml-driver-library-mismatch" in before.stdout
    with sqlite3.connect(db) as conn:  # another process commits: what the server loaded may be out of date
        conn.execute("UPDATE pitfalls SET status = 'rejected' WHERE id = 'nvml-driver-library-mismatch'")
    changed, own = ask(world, QUESTION)
    assert own and "nvml-driver-library-mismatch" not in changed.stdout
    wait_listening(db)  # the old server left; the ask started a new one, which sees the change
    again, own = ask(world, QUESTION)
    assert not own and again.stdout == changed.stdout


@pytest.mark.timeout(900)
def test_changed_code_or_entries_are_not_answered_from_the_old_ones(world: dict[str, str]) -> None:
    db = Path(world["PITSTOP_DB"])
    ask(world, QUESTION)
    wait_listening(db)
    assert not ask(world, QUESTION)[1]
    entry = Path(ask_server._roots()[ask_server.LAYERS.index("kb") + 1]) / "pitfalls"
    touched = sorted(entry.glob("*.yaml"))[0]
    before = touched.stat()
    os.utime(touched, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    try:
        assert ask(world, QUESTION)[1]  # answered in its own process: the server saw the change and left
    finally:
        os.utime(touched, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_an_idle_server_exits_and_removes_its_socket(world: dict[str, str]) -> None:
    db = Path(world["PITSTOP_DB"])
    ask({**world, "PITSTOP_ASK_SERVER_IDLE": "1"}, QUESTION)
    wait_listening(db)
    path = ask_server.socket_path(db)
    assert path is not None
    deadline = time.monotonic() + 60
    while path.exists():
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert not ask_server.listening(path)


def test_no_server_when_the_socket_folder_is_not_private_or_too_deep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = Path(tempfile.mkdtemp(prefix="pitstop-test-"))
    try:
        (runtime / "pitstop").mkdir(mode=0o755)
        (runtime / "pitstop").chmod(0o755)
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
        assert ask_server.socket_path(tmp_path / "pitstop.db") is None
        (runtime / "pitstop").chmod(0o700)
        private = ask_server.socket_path(tmp_path / "pitstop.db")
        assert private is not None and private.parent == runtime / "pitstop"
    finally:
        shutil.rmtree(runtime)
    deep = tmp_path / ("d" * 80)
    deep.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(deep))
    assert ask_server.socket_path(tmp_path / "pitstop.db") is None


def test_the_server_can_be_turned_off(world: dict[str, str]) -> None:
    db = Path(world["PITSTOP_DB"])
    ask(world, QUESTION, server=False)
    time.sleep(1)
    path = ask_server.socket_path(db)
    assert path is not None and not path.exists()


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5_000 + b"]" * 5_000,  # deeper than json's recursion (the limit is 1,000)
        b'{"text": ["NCCL"], "lang": null, "top": 5, "mode": "hybrid", "json": false, "verbose": false,'
        b' "width": 100}',
        b'{"text": "NCCL", "lang": 3, "top": "5", "mode": "hybrid", "json": 0, "verbose": false, "width": 1}',
    ],
    ids=["deep", "text-not-a-string", "wrong-types"],
)
def test_a_malformed_request_is_dropped_and_the_server_stays(body: bytes) -> None:
    """Only this user can connect, but whatever a connection sends must not stop the server (a deep
    JSON raised RecursionError, a list as the text an AttributeError): it is dropped unanswered, and
    the client answers in its own process."""
    import socket

    server, client = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with server, client:
        client.sendall(body)
        client.shutdown(socket.SHUT_WR)
        assert ask_server._handle(server, loaded=None) is True  # never reaches what was loaded
        server.close()  # (the serving loop closes each connection after _handle)
        assert client.recv(16) == b""  # nothing was answered

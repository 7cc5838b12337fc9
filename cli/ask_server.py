"""A warm process for `pitstop ask`: the first ask leaves one behind, and the next ones ask it.

A new `pitstop ask` process spends about 0.9 s of CPU before it can answer, nearly all of it loading
Python's libraries (numpy, faiss, onnxruntime: 0.45 s together), the model and the KB
(bench/RESULTS.md, "second ask"). After answering in its own process, `pitstop ask` therefore starts
one background process per KB and installation (`start`), which loads everything once and then
answers on a Unix socket; the next `pitstop ask` sends it the question (`answer`) and prints the
reply, so it only pays for starting Python.

- The answer is the same function either way (`answer_output`), over the same kind of long-lived
  `KnowledgeBase` the console and Slack use.
- Before each answer the server checks that nothing it loaded has changed: the installation's
  source files and bundled entries (path, size, modification time), the database file, and SQLite's
  `data_version` (another process committed). If anything did, it says so and exits, and the client
  answers in its own process (and starts a fresh server).
- The socket lives in a folder only this user can open (`$XDG_RUNTIME_DIR/pitstop`, else
  `/tmp/pitstop-<uid>`); a folder or socket that is not this user's alone is not used, and the
  server answers only processes of its own user (SO_PEERCRED). It is named by a digest of the
  database path, the installation's folders, the interpreter and the cache settings, so two
  checkouts or two databases never share a server.
- It exits after `PITSTOP_ASK_SERVER_IDLE` seconds (default 600) without a question, or when its
  database file is gone; `PITSTOP_ASK_SERVER=0` turns the whole mechanism off. The pid of a running
  server is in `<socket>.lock`, its errors in `<socket>.log`.
- Any commit to the database by another process counts as a change, incidents and Slack's queue
  included: where a running bot writes to the same database, the ask after such a write answers in
  its own process and restarts the server.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import socket
import stat
import struct
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pitstop.kb.service import KnowledgeBase

LAYERS = ("migrations", "core", "kb", "incidents", "collectors", "lab", "app", "bot", "cli")
SOURCE_SUFFIXES = (".py", ".yaml")
MAX_REQUEST = 64 * 1024 * 1024  # a larger paste is answered in its own process
REPLY_TIMEOUT_S = 60.0  # a server still loading answers when it is ready; a hung one is given up on
TICK_S = 5.0  # how often an idle server looks at its database file and the clock
MAX_SOCKET_PATH = 108  # sun_path's size on Linux, its terminating NUL included


@dataclass(frozen=True)
class Request:
    """One `pitstop ask`, as the server needs it: the paste and the options that shape the output."""

    text: str
    lang: str | None  # --lang (None or 'auto': follow the paste)
    top: int
    mode: str
    json: bool
    verbose: bool
    width: int


@dataclass(frozen=True)
class Reply:
    """What `pitstop ask` prints and its exit status."""

    stdout: str
    stderr: str
    status: int


def answer_output(kb: KnowledgeBase, request: Request) -> str:
    """The text `pitstop ask` prints for `request` (PitstopError when the paste cannot be asked)."""
    from pitstop.app.ask import ask
    from pitstop.app.render import answer_text
    from pitstop.core.i18n import resolve_lang
    from pitstop.core.jsondoc import dumps
    from pitstop.core.redact import redact_data

    lang = resolve_lang(request.text, request.lang)
    answer, card = ask(kb, request.text, lang=lang, top=request.top, mode=request.mode)
    if request.json:  # the answer quotes the paste (its query, the text a signature matched): masked
        return dumps("ask", redact_data(answer.to_json(lang))) + "\n"
    return answer_text(card, verbose=request.verbose, width=request.width) + "\n"


# --- where the socket is ---


def _roots() -> list[Path]:
    """The installation's folders: the `pitstop` package and each layer's."""
    import importlib.util

    import pitstop

    roots = [Path(pitstop.__file__).resolve().parent]
    for layer in LAYERS:
        spec = importlib.util.find_spec(f"pitstop.{layer}")
        if spec is not None and spec.submodule_search_locations:
            folder = Path(next(iter(spec.submodule_search_locations))).resolve()
            if not folder.is_relative_to(roots[0]):  # installed: the layers are inside the package
                roots.append(folder)
    return roots


def _private_dir() -> Path | None:
    """This user's folder for sockets (created 0700), or None when it exists but others could use it."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = Path(runtime) / "pitstop" if runtime else Path(f"/tmp/pitstop-{os.getuid()}")
    # (an XDG_RUNTIME_DIR that `su` or `sudo -u` kept from another user, or a file: no server, no error)
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700)
    try:
        info = folder.lstat()
    except OSError:
        return None
    mine = stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
    return folder if mine else None


def socket_path(db: Path) -> Path | None:
    """The socket of the server for database `db` and this installation (None: no safe place)."""
    folder = _private_dir()
    if folder is None:
        return None
    key = [str(db.resolve()), sys.executable, *map(str, _roots())]
    key += [os.environ.get(name, "") for name in ("PITSTOP_MODEL_CACHE", "XDG_CACHE_HOME", "HOME")]
    path = folder / f"ask-{hashlib.sha256(json.dumps(key).encode()).hexdigest()[:24]}.sock"
    return path if len(os.fsencode(path)) < MAX_SOCKET_PATH else None


# --- the client ---


def answer(db: Path, request: Request) -> Reply | None:
    """The warm server's reply to `request`, or None when there is none (or it could not answer)."""
    path = socket_path(db)
    if path is None:
        return None
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISSOCK(info.st_mode) or info.st_uid != os.getuid():
        return None
    data = json.dumps(asdict(request)).encode()
    if len(data) > MAX_REQUEST:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(REPLY_TIMEOUT_S)
            conn.connect(str(path))
            conn.sendall(data)
            conn.shutdown(socket.SHUT_WR)
            raw = _read_all(conn, MAX_REQUEST)
        reply = json.loads(raw)
        return Reply(str(reply["stdout"]), str(reply["stderr"]), int(reply["status"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no server, one that went away, or a stale one (it says {"stale": true})


def start(db: Path, idle_s: float) -> None:
    """Start the server for `db` in the background unless one is already listening."""
    import subprocess

    path = socket_path(db)
    if path is None or listening(path):
        return
    import pitstop

    code = str(Path(pitstop.__file__).resolve().parents[1])  # where this `pitstop` is imported from
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (code, os.environ.get("PYTHONPATH"))))}
    command = f"from pitstop.cli.ask_server import serve; serve({str(db.resolve())!r}, {float(idle_s)!r})"
    subprocess.Popen(
        [sys.executable, "-c", command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd="/",
        start_new_session=True,  # not in the terminal's process group: Ctrl-C on a later command spares it
    )


def listening(path: Path) -> bool:
    """True when a server accepts connections on `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def _read_all(conn: socket.socket, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := conn.recv(1 << 20):
        size += len(chunk)
        if size > limit:
            raise ValueError("message too large")
        chunks.append(chunk)
    return b"".join(chunks)


# --- the server ---


def _peer_is_me(conn: socket.socket) -> bool:
    if not hasattr(socket, "SO_PEERCRED"):
        return True  # the folder's 0700 mode is then the only gate
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1] == os.getuid()


class _Loaded:
    """What the server loaded, to tell whether a fresh process would still see the same."""

    def __init__(self, kb: KnowledgeBase, db: Path) -> None:
        self.kb, self.db = kb, db
        self.roots = _roots()
        self.state = self._now()

    def _now(self) -> tuple[Any, ...]:
        try:
            info = self.db.stat()
        except OSError:
            return ()
        from pitstop.core.sources import digest

        version = self.kb.db.execute("PRAGMA data_version").fetchone()[0]
        return (info.st_dev, info.st_ino, version, digest(self.roots, SOURCE_SUFFIXES))

    def current(self) -> bool:
        """True when the sources, the database file and its content are what was loaded."""
        return self._now() == self.state


def _well_typed(request: Request) -> bool:
    """Whether each field has the type `pitstop ask` sends (JSON can carry any): a list as the text
    stopped the server with a traceback."""
    strings = isinstance(request.text, str) and isinstance(request.mode, str)
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in (request.top, request.width))
    flags = isinstance(request.json, bool) and isinstance(request.verbose, bool)
    return strings and numbers and flags and (request.lang is None or isinstance(request.lang, str))


def _handle(conn: socket.socket, loaded: _Loaded) -> bool:
    """Answer one connection; False when the server must stop (what it loaded has changed)."""
    from pitstop.core.errors import PitstopError
    from pitstop.core.i18n import resolve_lang, t

    conn.settimeout(REPLY_TIMEOUT_S)
    if not _peer_is_me(conn):
        return True
    try:
        request = Request(**json.loads(_read_all(conn, MAX_REQUEST)))
    except (OSError, ValueError, TypeError, RecursionError):  # the client then answers in its own process
        return True
    if not _well_typed(request):
        return True
    if not loaded.current():
        with contextlib.suppress(OSError):
            conn.sendall(b'{"stale": true}')
        return False
    try:
        reply = Reply(answer_output(loaded.kb, request), "", 0)
    except PitstopError as exc:  # as `pitstop`'s main prints it
        lang = resolve_lang(None, request.lang)
        reply = Reply("", t("cli.error", lang, message=exc.render(lang)) + "\n", exc.exit_code)
    with contextlib.suppress(OSError):
        conn.sendall(json.dumps(asdict(reply)).encode())
    return True


def serve(db: str, idle_s: float) -> None:
    """Run the server for database `db` until it is idle for `idle_s` seconds or stale (`start` runs
    this in a new process); returns at once when another server holds the database's socket."""
    path = socket_path(Path(db))
    if path is None:
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # `kill PID` still removes the socket
    with open(f"{path}.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n")  # who holds it: the server to stop by hand
        lock.flush()
        with open(f"{path}.log", "wb") as log:  # this server's errors, for whoever wonders why it is gone
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            listener.bind(str(path))  # clients that connect while the KB loads wait for their answer
            bound = path.lstat().st_ino
            listener.listen(64)
            try:
                _loop(listener, Path(db), idle_s)
            finally:
                with contextlib.suppress(OSError):
                    if path.lstat().st_ino == bound:
                        path.unlink()


def _loop(listener: socket.socket, db: Path, idle_s: float) -> None:
    from pitstop.kb.onnx_embed import default_embedder
    from pitstop.kb.schema import PITFALLS_DIR
    from pitstop.kb.service import KnowledgeBase

    # KnowledgeBase.open, with what it loads from noted first: a commit or an edit made while it loads
    # then makes the first question find the server stale, rather than answered from older content.
    kb = KnowledgeBase(db, PITFALLS_DIR, default_embedder())
    loaded = _Loaded(kb, db)
    kb.build()
    kb.warm()
    listener.settimeout(min(TICK_S, idle_s))
    last = time.monotonic()
    while True:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            if time.monotonic() - last > idle_s or not db.exists():
                return
            continue
        with conn:
            if not _handle(conn, loaded):
                return
        last = time.monotonic()

"""Red-team round 6: the host-name boost, the warm ask server, eval and kb files, the console, hostile
hosts (see docs/SECURITY.md)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import copy_kb, incidents_for

# --- (a) the host-name boost -------------------------------------------------------------------

OOM_PASTE = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB"
    " total capacity; 76.10 GiB already allocated)"
)
OOM = "cuda-oom-allocator"
HOST = "gpu-host-42"


@pytest.fixture
def kb(kb_path: Path, embedder, tmp_path: Path) -> KnowledgeBase:
    kb = copy_kb(kb_path, tmp_path, embedder)
    yield kb
    kb.close()


def resolve_on_host(kb: KnowledgeBase, cause: str, person: str, n: int, host: str = HOST) -> int:
    store = incidents_for(kb)
    iid = store.record_answer(
        channel="C1",
        thread_ts=f"{n}.0",
        user="U1",
        text=f"slow training {n}",
        answer=kb.ask("slow"),
        hosts=(host,),
    )
    store.resolve(iid, user=person, cause_id=cause)
    return iid


def ranked(kb: KnowledgeBase, paste: str) -> dict[str, tuple[int, float, str, list[str]]]:
    results = kb.ask(paste, top=5).results
    return {m.id: (rank, m.score, m.confidence, [str(w) for w in m.why]) for rank, m in enumerate(results, 1)}


def test_one_persons_host_resolutions_do_not_outrank_a_confident_cause(kb):
    """One channel member resolves five incidents on a host as a wrong cause: every later paste naming
    the host got +0.2 per incident (1.0 here) and put that cause above the signature's "high" one."""
    paste = f"on {HOST}: {OOM_PASTE}"
    before = ranked(kb, paste)
    assert before[OOM][:1] == (1,) and before[OOM][2] == "high"
    wrong = next(pid for pid, (rank, *_) in before.items() if rank == 2)
    for n in range(5):
        resolve_on_host(kb, wrong, "U9", n)
    after = ranked(kb, paste)
    assert after[OOM][0] == 1 and after[OOM][2] == "high"
    assert after[wrong][0] == 2 and after[wrong][2] != "high"
    assert any(f"host {HOST} had this cause" in w for w in after[wrong][3])  # heard, not believed


def test_the_host_boost_counts_once_however_many_incidents(kb):
    """Two people (so the boost is trusted) resolve five incidents on the host: one HOST_BOOST, not five."""
    from pitstop.kb.feedback import HOST_BOOST, PRIOR_MAX

    paste = f"on {HOST}: {OOM_PASTE}"
    before = ranked(kb, paste)
    cause = next(pid for pid, (rank, *_) in before.items() if rank == 3)
    for n in range(5):
        resolve_on_host(kb, cause, ("U8", "U9")[n % 2], n)
    after = ranked(kb, paste)
    assert after[cause][1] <= before[cause][1] + HOST_BOOST + PRIOR_MAX + 0.002


@pytest.mark.parametrize(
    ("host", "named"),
    [
        ("gpu-host-42", "gpu-host-42.other-site"),  # another domain's host of that short name
        ("10.0.0.1", "10.0.0.1.5"),
        ("10.0.0.1", "10.0.0.10"),
        ("gpu-host-42", "xgpu-host-42"),
        ("gpu-host-42", "gpu-host-42-b"),
    ],
)
def test_a_longer_name_is_not_the_host(host, named):
    from pitstop.core.names import name_at

    assert name_at(f"nccl timeout on {named} again", host) is None
    assert name_at(f"nccl timeout on {host.upper()}. again", host) is not None  # a full stop, any case
    assert name_at(f"{host}上训练很慢", host) == 0  # Chinese right after the name


# --- (c) the database path ---------------------------------------------------------------------


def _run_cli(*args: str, env: dict[str, str], memory: int | None = None) -> subprocess.CompletedProcess[str]:
    import resource

    def limit() -> None:  # (the child's address space, so a runaway read fails here, not the machine)
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "pitstop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **env},
        check=False,
        preexec_fn=limit,  # noqa: PLW1509 - no threads run in the child before exec
    )


def test_a_database_in_a_folder_others_may_write_is_refused(tmp_path: Path):
    """In a shared folder (/tmp, mode 1777) another user leaves `p.db-wal` and `p.db-shm` open to all
    before the first open: SQLite wrote every commit into their files (read and rewritable by them)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    for suffix in ("-wal", "-shm"):
        planted = shared / f"p.db{suffix}"
        planted.touch()
        planted.chmod(0o666)
    done = _run_cli("incidents", "list", env={"PITSTOP_DB": str(shared / "p.db")})
    assert done.returncode == 6, done.stderr
    assert "open to other" in done.stderr and "Traceback" not in done.stderr
    assert all((shared / f"p.db{s}").stat().st_size == 0 for s in ("-wal", "-shm"))
    assert not (shared / "p.db").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a file to another user")
def test_a_sidecar_of_another_user_is_refused(tmp_path: Path):
    from pitstop.core.db import open_db
    from pitstop.core.errors import BadDatabase

    folder = tmp_path / "db"
    folder.mkdir(mode=0o700)
    planted = folder / "p.db-wal"
    planted.touch()
    os.chown(planted, 65534, 65534)
    with pytest.raises(BadDatabase, match="belongs to another user"):
        open_db(folder / "p.db")
    assert planted.stat().st_size == 0


def test_a_private_folder_and_a_symlink_into_one_still_work(tmp_path: Path):
    from pitstop.core.db import open_db

    folder = tmp_path / "db"
    folder.mkdir(mode=0o700)
    open_db(folder / "p.db").conn.close()
    link = tmp_path / "link.db"
    link.symlink_to(folder / "p.db")
    open_db(link).conn.close()


# --- (e) the framing nonce on the host ---------------------------------------------------------

NONCE_IN_ARGV = re.compile(rb"@@([0-9a-f]{16}) [BE] ")


def _argv_nonces(stop: threading.Event, found: set[bytes], scripts: list[int]) -> None:
    """What any local user of the host can read: every process's argv (/proc/PID/cmdline, mode 0444).

    `scripts` counts the framing scripts seen, so the test knows the watcher saw the sweep run."""
    while not stop.is_set():
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            with contextlib.suppress(OSError):
                text = cmdline.read_bytes()
                found.update(NONCE_IN_ARGV.findall(text))
                scripts[0] += b"$_ps_nonce" in text
        time.sleep(0.002)


@pytest.mark.lab
def test_the_framing_nonce_is_not_in_any_argv_on_the_host(kb_path, tmp_path) -> None:
    from pitstop.core.config import local_user
    from pitstop.lab import fleet
    from pitstop.lab.scenario import SCENARIOS_DIR, load_all
    from pitstop.lab.sshd import LabError, find_sshd
    from tests.bot.conftest import copy_kb as copy_db

    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    db = copy_db(kb_path, tmp_path / "diag.db")
    policy = tmp_path / "policy.yaml"
    policy.write_text(json.dumps({"rules": [{"users": [local_user()], "hosts": ["*"]}]}))
    lab = fleet.up(load_all([SCENARIOS_DIR / "xid79-fell-off-bus"]), tmp_path / "lab")
    stop, found, scripts = threading.Event(), set(), [0]
    watcher = threading.Thread(target=_argv_nonces, args=(stop, found, scripts), daemon=True)
    watcher.start()
    try:
        args = ["diagnose", "xid79-fell-off-bus", "--inventory", str(lab.inventory), "--policy", str(policy)]
        done = _run_cli(*args, env={"PITSTOP_DB": str(db)})
    finally:
        stop.set()
        watcher.join()
        fleet.down(tmp_path / "lab")
    assert done.returncode in (0, 10, 11), done.stderr
    assert scripts[0] > 0 and found == set()  # the scripts were in argv; no nonce was


# --- (b) the warm ask server -------------------------------------------------------------------


@pytest.mark.parametrize("runtime", ["file", "foreign"])
def test_ask_with_an_unusable_runtime_dir_answers_in_its_own_process(kb_path, tmp_path, runtime, monkeypatch):
    """`su alice` keeps the first user's XDG_RUNTIME_DIR (/run/user/1000, 0700, not alice's): making
    `pitstop` in it raised PermissionError, and `pitstop ask` died with a traceback (a file there:
    NotADirectoryError)."""
    from tests.bot.conftest import copy_kb as copy_db

    db = copy_db(kb_path, tmp_path / "ask.db")
    where = tmp_path / "runtime"
    if runtime == "file":
        where.write_text("")
    else:
        if os.geteuid() != 0:
            pytest.skip("needs root to run as another user")
        where.mkdir(mode=0o700)
    env = {"XDG_RUNTIME_DIR": str(where), "PITSTOP_DB": str(db), "PITSTOP_ASK_SERVER": "1"}
    if runtime == "file":
        done = _run_cli("ask", "Xid 79 GPU has fallen off the bus", env=env)
        assert done.returncode == 0, done.stderr
        assert "xid79-gpu-fell-off-bus" in done.stdout and "Traceback" not in done.stderr
        return
    from pitstop.cli import ask_server

    ask_server._roots()  # imported before the fork
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(where))
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.setgid(65534)
            os.setuid(65534)
            outcome = repr(ask_server.socket_path(db))
        except BaseException as exc:  # noqa: BLE001
            outcome = f"raised {type(exc).__name__}"
        os.write(write, outcome.encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as pipe:
        assert pipe.read() == "None"


# --- (c) hostile case, taxonomy and policy files -----------------------------------------------


BLOCK_98_DEEP = "a:\n" + "".join(" " * n + "b:\n" for n in range(1, 99))


@pytest.mark.parametrize(
    ("args", "content", "said"),
    [
        # libyaml's composer recursed in C: SIGSEGV (exit -11), no sentence; 98 block levels: the limit
        (["kb", "check", "--taxonomy"], "[" * 100_000, "more than 64 levels deep"),
        (["kb", "check", "--taxonomy"], BLOCK_98_DEEP, "64 levels"),
        (["policy", "check", "--user", "alice", "gpu1", "--policy"], "{a: " * 50_000, "64 levels"),
        # json.loads raised RecursionError: a traceback, exit 1
        (["eval", "retrieval"], "[" * 100_000 + "\n", "nested too deeply"),
        (["eval", "learning", "--split"], "[" * 100_000 + "\n", "nested too deeply"),
    ],
    ids=["flow-yaml", "block-yaml", "policy", "eval-retrieval", "eval-learning"],
)
def test_deeply_nested_files_are_one_sentence(tmp_path: Path, args, content, said):
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(content)
    done = _run_cli(*args, str(hostile), env={"PITSTOP_DB": str(tmp_path / "p.db")})
    assert done.returncode == 5, (done.returncode, done.stderr[-500:])
    assert said in done.stderr and "Traceback" not in done.stderr


def test_an_endless_case_file_is_refused_without_filling_memory(tmp_path: Path):
    """`pitstop eval retrieval /dev/zero` read it whole: 22 GB before the kernel killed it."""
    env = {"PITSTOP_DB": str(tmp_path / "p.db")}
    done = _run_cli("eval", "retrieval", "/dev/zero", env=env, memory=3 * 2**30)
    assert done.returncode == 5 and "larger than 64 MiB" in done.stderr, done.stderr[-500:]


# --- (e) a hostile host's framing --------------------------------------------------------------


def test_a_marker_start_without_an_end_is_output_not_held():
    """A compromised host knows the nonce (its shell reads it): `\\n@@NONCE ` and then 50 MiB without a
    newline was all held as a marker's start, past the output cap, and copied on every chunk (20 s of CPU)."""
    from pitstop.collectors.transport.framing import Demux

    nonce = "0123456789abcdef"
    demux = Demux(nonce, [1 << 20, 1 << 20])
    demux.feed(f"\n@@{nonce} B 0\nok\n\n@@{nonce} ".encode())
    for _ in range(800):  # 50 MiB in 64 KiB chunks, as asyncssh delivers them
        demux.feed(b"x" * 65536)
    assert len(demux._pending) < 1024  # what is held stays bounded (it was the whole 50 MiB)
    assert demux.tails[0].total > 50 * 2**20 and len(demux.tails[0].data) == 1 << 20  # capped output
    # the framing still works after it, a marker split across chunks too
    demux.feed(f"\n\n@@{nonce} E 0 0\n\n@@{nonce} B 1\nsecond\n\n@@{nonce} E".encode())
    demux.feed(b" 1 3\n")
    assert demux.status == {0: 0, 1: 3} and demux.tails[1].data == b"second\n"


@pytest.mark.parametrize(
    ("inside", "forged"),
    [
        ("E 0 0", {0}),  # an early end: the rest of command 0's output would have been dropped
        ("B 1", {0, 1}),  # command 1 "begins" inside command 0: 0's output would land in 1's
        ("E 1 0", {0, 1}),  # an end of a command not running
    ],
    ids=["early-end", "begin-inside", "foreign-end"],
)
def test_a_marker_printed_by_someone_who_read_the_nonce_shows_as_forged(inside, forged):
    """The nonce is not in any argv on the host (test above), but a compromised host knows it and can
    print a marker through output it shapes (a process name in nvidia-smi). The genuine marker that
    follows is then out of order: the commands involved are flagged, and the runner reads neither."""
    from pitstop.collectors.transport.framing import Demux

    nonce = "0123456789abcdef"
    demux = Demux(nonce, [1 << 20, 1 << 20])

    def stream(planted: str) -> bytes:
        return (
            f"\n@@{nonce} B 0\nGPU 0 proc python3\n{planted}hidden rest\n\n@@{nonce} E 0 0\n"
            f"\n@@{nonce} B 1\nsecond\n\n@@{nonce} E 1 0\n"
        ).encode()

    demux.feed(stream(f"\n@@{nonce} {inside}\n"))
    assert demux.forged == forged
    honest = Demux(nonce, [1 << 20, 1 << 20])
    honest.feed(stream(""))
    assert honest.forged == set() and honest.status == {0: 0, 1: 0}

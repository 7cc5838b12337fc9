"""The framing script's remote timeout: the same exit codes under bash (a shell function, one process
per command) and other shells (GNU `timeout`), stdin passed to the one command that reads it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from pitstop.collectors.catalog import Command
from pitstop.collectors.transport import framing

SHELLS = [s for s in ("bash", "dash") if shutil.which(s)]
NONCE = "0" * 16


def _run(shell: str, cmds: list[Command], stdin: bytes | None = None) -> tuple[framing.Demux, framing.Demux]:
    script = framing.build_script(cmds)
    out, err = framing.Demux(NONCE, [1 << 16] * len(cmds)), framing.Demux(NONCE, [1 << 16] * len(cmds))
    proc = subprocess.Popen(
        [shell, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    if stdin is not None:
        stdout, stderr = proc.communicate(framing.stdin_for(NONCE, stdin), timeout=60)
    else:  # the runner writes the nonce line and keeps stdin open and silent while the script runs
        proc.stdin.write(framing.stdin_for(NONCE, None))  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        stdout, stderr = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
        proc.stdin.close()  # type: ignore[union-attr]
        proc.wait(timeout=60)
    out.feed(stdout)
    err.feed(stderr)
    out.close()
    err.close()
    return out, err


@pytest.mark.parametrize("shell", SHELLS)
def test_exit_codes_match_gnu_timeout(shell: str) -> None:
    cmds = [
        Command("ok", ("true",), 5, 100),
        Command("three", ("sh", "-c", "exit 3"), 5, 100),
        Command("missing", ("no-such-tool-here",), 5, 100),
        Command("hang", ("sleep", "30"), 1, 100),
        Command("stubborn", ("sh", "-c", "trap '' TERM; sleep 30 & wait"), 1, 100),
        Command("split", ("sh", "-c", "echo out; echo err >&2"), 5, 100),
    ]
    out, err = _run(shell, cmds)
    assert [out.status[i] for i in range(len(cmds))] == [0, 3, 127, 124, 137, 0]
    assert out.tails[5].text().strip() == "out" and err.tails[5].text().strip() == "err"


@pytest.mark.parametrize("shell", SHELLS)
def test_stdin_reaches_the_first_command_only(shell: str) -> None:
    cmds = [Command("reader", ("cat",), 5, 100, stdin=b"probe"), Command("after", ("sleep", "0.2"), 5, 100)]
    out, _ = _run(shell, cmds, stdin=b"probe code\n")
    assert out.tails[0].text() == "probe code\n" and out.status == {0: 0, 1: 0}


def test_under_bash_the_tool_is_the_only_process_a_command_starts() -> None:
    parent = Command("parent", ("sh", "-c", "cat /proc/$PPID/comm"), 5, 100)
    out, _ = _run("bash", [parent, parent])
    assert [out.tails[i].text().strip() for i in (0, 1)] == ["bash", "bash"]  # not `timeout`


def test_stdin_may_only_feed_the_first_command() -> None:
    with pytest.raises(ValueError, match="first command"):
        framing.build_script([Command("a", ("true",), 5, 100), Command("b", ("cat",), 5, 100, stdin=b"x")])


def test_a_long_output_costs_its_cap_and_keeps_its_tail() -> None:
    tail = framing.Tail(1 << 20)
    chunk = b"".join(b"line %07d\n" % i for i in range(6000))  # 78 KB, as a channel delivers them
    held = 0
    for n in range(640):  # 50 MB in all
        tail.add(chunk.replace(b"line", b"L%03d" % (n % 1000), 1))
        held = max(held, tail._held)
    assert tail.total == 640 * len(chunk) and tail.truncated
    assert held <= (1 << 20) + framing.MARGIN + len(chunk)  # the cap, the margin redacted with it, a chunk
    text = tail.text()
    assert len(text.encode()) <= 1 << 20 and text.endswith("line 0005999\n") and text.startswith("line ")


@pytest.mark.skipif(not shutil.which("bash"), reason="the timeout function is bash's")
def test_a_zombie_tool_counts_as_finished() -> None:
    """`kill -0` still finds a tool that has exited but is not reaped; `_ps_alive` must not."""
    header = "\n".join(framing.HEADER)
    zombie = subprocess.Popen(["true"])  # exits at once; not waited for, so it stays a zombie
    live = subprocess.Popen(["sleep", "30"])
    try:
        for _ in range(100):  # until the kernel shows it as a zombie
            with open(f"/proc/{zombie.pid}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(") ", 1)[1].startswith("Z"):
                    break
            subprocess.run(["sleep", "0.02"], check=True)
        probe = "\n".join(
            [
                header,
                f"_ps_alive {zombie.pid} && echo alive || echo gone",
                f"kill -0 {zombie.pid} && echo found",
                f"_ps_alive {live.pid} && echo alive || echo gone",
            ]
        )
        out = subprocess.run(
            ["bash", "-c", probe], capture_output=True, text=True, timeout=30, input=f"{NONCE}\n"
        )
        assert out.stdout.split() == ["gone", "found", "alive"]
    finally:
        live.kill()
        live.wait()
        zombie.wait()

"""The wire format between the runner and a host: a generated POSIX sh script and its framed output.

One script runs several catalog commands in sequence on one channel. Before and after each
command it prints a marker line carrying a per-run nonce on stdout and on stderr, the end
marker on stdout with the exit status, so one stream carries many commands. `Demux` splits a
stream back into per-command output, keeping only the last `cap` bytes of each.

The nonce is not in the script: the script is the channel's command, so it is the argv of the host's
shell for the whole sweep, and any local user of the host can read argv (/proc/PID/cmdline). The
script reads the nonce from the first line of its stdin (`stdin_for`) into a shell variable, which
only the same user can read; a command's output (a process name in `nvidia-smi -q`, a Slurm job name)
then cannot print a marker.
"""

from __future__ import annotations

import re
import secrets
import shlex
from collections import deque
from collections.abc import Callable, Sequence

from pitstop.collectors.catalog import Command
from pitstop.core.redact import redact

KILL_AFTER_S = 2
# ethtool and lspci live in sbin, which ordinary users' PATH lacks; the host's own PATH stays first.
# Under bash (most login shells) `timeout` is a shell function with GNU timeout's `-k K T` contract
# and exit codes (124 stopped by TERM, 137 by KILL; the tool in its own process group, killed whole):
# the tool is the only process a command starts, where the `timeout` program costs a second one.
# It polls the tool between `read -t` waits on the script's stdin, which the runner holds open and
# writes nothing to after the nonce line (fd 6): alive is `kill -0` and, where /proc is, not a zombie
# (a tool that has exited but that bash has not reaped yet still answers `kill -0`, and would run out
# the timeout). When stdin carries a command's input or has ended, it waits on a pipe from one idle
# coprocess instead. Other shells run the real `timeout`.
HEADER = (
    "IFS= read -r _ps_nonce || exit 125",
    "export LC_ALL=C",
    'PATH="$PATH:/usr/sbin:/sbin"; export PATH',
    "exec 6<&0",
    'if [ -n "${BASH_VERSION-}" ]; then',
    "_ps_sleep() {",
    '  if [ -z "${_PS_CLOCK_PID-}${_ps_stdin_used-}" ]; then',
    '    read -t "$1" -u 6 _ 2>/dev/null; [ "$?" -gt 128 ] && return 0; _ps_stdin_used=1',
    "  fi",
    '  [ -n "${_PS_CLOCK_PID-}" ] || eval "coproc _PS_CLOCK { read -r _; }"',
    '  read -t "$1" -u "${_PS_CLOCK[0]}" _',
    "}",
    "_ps_alive() {",
    '  kill -0 "$1" 2>/dev/null || return 1',
    '  local s; { read -r s < "/proc/$1/stat"; } 2>/dev/null || return 0',
    '  s=${s##*) }; [ "${s%% *}" != Z ]',
    "}",
    "timeout() {",
    '  [ "$1" = -k ] || { command timeout "$@"; return; }',
    "  local k=$2 t=$3 p d=0.002 end rc=124",
    "  shift 3",
    "  [ /dev/fd/0 -ef /dev/fd/6 ] && _ps_stdin_used=1",
    '  exec 5<&0; set -m; "$@" <&5 5<&- 6<&- & p=$!; set +m; exec 5<&-',
    "  end=$((SECONDS + t + 1))",
    '  while _ps_alive "$p"; do',
    '    if [ "$SECONDS" -ge "$end" ]; then',
    '      kill -TERM -- "-$p" 2>/dev/null; end=$((SECONDS + k))',
    '      while _ps_alive "$p" && [ "$SECONDS" -lt "$end" ]; do _ps_sleep 0.1; done',
    '      _ps_alive "$p" && rc=137; kill -KILL -- "-$p" 2>/dev/null',
    '      wait "$p" 2>/dev/null; return "$rc"',
    "    fi",
    '    _ps_sleep "$d"',
    "    case $d in 0.002) d=0.01 ;; 0.01) d=0.05 ;; *) d=0.1 ;; esac",
    "  done",
    '  wait "$p"',
    "}",
    "fi",
)
BEGIN_LINE = re.compile(
    r"""printf '\\n@@%s B (\d{1,3})\\n' "\$_ps_nonce"; printf '\\n@@%s B \1\\n' "\$_ps_nonce" >&2"""
)
_MARKER_START = "printf '\\n@@%s "  # how every marker line starts (a cheap test before the patterns)
END_LINE = re.compile(
    r"""printf '\\n@@%s E (\d{1,3}) %s\\n' "\$_ps_nonce" "\$\?"; printf '\\n@@%s E \1\\n' "\$_ps_nonce" >&2"""
)


def new_nonce() -> str:
    """A fresh marker nonce; command output cannot predict it."""
    return secrets.token_hex(8)


def command_line(cmd: Command) -> str:
    """The shell text for one command: remote timeout, optional `sudo -n`, the quoted argv."""
    sudo = "sudo -n " if cmd.sudo else ""
    stdin = "" if cmd.stdin is not None else " </dev/null"
    return f"timeout -k {KILL_AFTER_S} {cmd.timeout_s} {sudo}{shlex.join(cmd.argv)}{stdin}"


def stdin_for(nonce: str, stdin: bytes | None) -> bytes:
    """What a script's stdin starts with: the nonce line, then the input of the command that reads it."""
    return nonce.encode() + b"\n" + (stdin or b"")


def build_script(commands: Sequence[Command]) -> str:
    """The script that runs `commands` in order with framing markers (at most one may read stdin).

    The same commands give the same script on every host: the nonce comes on stdin (`stdin_for`).
    """
    if any(c.stdin is not None for c in commands[1:]):
        raise ValueError("only the first command of a script may read stdin (the rest wait on it)")
    lines = list(HEADER)
    for i, cmd in enumerate(commands):
        lines.append(
            f"""printf '\\n@@%s B {i}\\n' "$_ps_nonce"; printf '\\n@@%s B {i}\\n' "$_ps_nonce" >&2"""
        )
        lines.append(command_line(cmd))
        lines.append(
            f"""printf '\\n@@%s E {i} %s\\n' "$_ps_nonce" "$?"; printf '\\n@@%s E {i}\\n' "$_ps_nonce" >&2"""
        )
    return "\n".join(lines) + "\n"


def script_blocks(script: str) -> tuple[list[str], list[str]] | None:
    """Split a script into its non-command lines and its command texts; None if it is malformed.

    A command text lies between a begin and an end marker line and may span lines (a probe's
    code quoted for `python3 -c`).
    """
    fixed: list[str] = []
    commands: list[str] = []
    current: list[str] | None = None
    for line in script.rstrip("\n").split("\n"):
        if current is None:
            fixed.append(line)
            if line.startswith(_MARKER_START) and BEGIN_LINE.fullmatch(line):
                current = []
        elif line.startswith(_MARKER_START) and END_LINE.fullmatch(line):
            fixed.append(line)
            commands.append("\n".join(current))
            current = None
        else:
            current.append(line)
    return None if current is not None else (fixed, commands)


# A cut stream keeps MARGIN bytes before its tail, and the redactor reads MARGIN either side of the cut
# (to the end of a line), so a secret across the cut is masked whole; the rest of the tail is left to
# the redaction every output gets downstream, which keeps the cost of a cut output to about 128 KiB
# of redaction instead of its cap (8 MiB: 6 s of CPU on the event loop).
MARGIN = 64 * 1024


class Tail:
    """The last `cap` bytes of a stream, and how many bytes went by: a ring of received chunks.

    Memory stays at the cap plus MARGIN plus one chunk however long the stream is: whole chunks fall
    off the front as new ones arrive, and the one straddling the cap is cut once, when the text is
    read, after redaction (a secret across the cut is masked before half of it could stay).
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._room = cap + MARGIN
        self.total = 0
        self._chunks: deque[bytes] = deque()
        self._held = 0

    def add(self, chunk: bytes) -> None:
        """Append, dropping the oldest bytes beyond the cap."""
        if not chunk:
            return
        self.total += len(chunk)
        if len(chunk) >= self._room:
            self._chunks.clear()
            chunk, self._held = chunk[-self._room :], 0
        self._chunks.append(chunk)
        self._held += len(chunk)
        while self._chunks and self._held - len(self._chunks[0]) >= self._room:
            self._held -= len(self._chunks.popleft())

    @property
    def data(self) -> bytes:
        """The kept bytes (at most `cap`)."""
        raw = b"".join(self._chunks)
        return raw[len(raw) - self.cap :] if len(raw) > self.cap else raw

    @property
    def truncated(self) -> bool:
        """True when bytes were dropped."""
        return self.total > self.cap

    def text(self) -> str:
        """Decoded text (invalid UTF-8 replaced). A truncated stream is redacted around its cut (MARGIN
        either side, to a line's end), then cut to the cap, and its partial first line is dropped."""
        if not self.truncated:
            return self.data.decode("utf-8", errors="replace")
        raw = b"".join(self._chunks)
        end = raw.find(b"\n", len(raw) - self.cap + MARGIN) + 1 or len(raw)
        held = redact(raw[:end].decode("utf-8", errors="replace")).encode() + raw[end:]
        raw = held[len(held) - self.cap :] if len(held) > self.cap else held
        if b"\n" in raw:
            raw = raw[raw.index(b"\n") + 1 :]
        return raw.decode("utf-8", errors="replace")

    def release(self) -> None:
        """Forget the kept bytes (the counts stay)."""
        self._chunks.clear()
        self._held = 0


# The longest marker line (`\n@@NONCE E 999 255\n` is 31 bytes): a longer start of one is output. A host
# that knows the nonce (a compromised one) otherwise sent `\n@@NONCE ` and then no newline: every byte
# after it was held as the marker's start, past the output cap, and copied again on every chunk (50 MiB:
# 50 MB held and 20 s of CPU on the event loop; quadratic).
MAX_MARKER = 64


class Demux:
    """Split one framed stream into per-command tails; `on_marker(kind, index)` sees each marker."""

    def __init__(
        self, nonce: str, caps: Sequence[int], on_marker: Callable[[str, int], None] | None = None
    ) -> None:
        self._sep = b"\n@@" + nonce.encode() + b" "
        self._pending = b""  # the start of a marker line, not yet complete
        self._current: int | None = None
        self._on_marker = on_marker
        self.tails = [Tail(cap) for cap in caps]
        self.began: set[int] = set()
        self.status: dict[int, int | None] = {}
        # Commands whose framing someone forged: a marker out of order (a begin inside a command, an end
        # of a command not running, a second begin or end). Only the host's own shell knows the nonce
        # (stdin_for), so a forgery means a compromised host or a command that reads its shell; the
        # genuine marker that follows a forged one is then out of order, so any forgery shows, on the
        # command it hid in and the one it named.
        self.forged: set[int] = set()

    def _flush(self, chunk: bytes) -> None:
        if self._current is not None and chunk:
            self.tails[self._current].add(chunk)

    def feed(self, data: bytes) -> None:
        """Consume the next bytes of the stream (a chunk without a marker goes to its tail as it is)."""
        buf = self._pending + data if self._pending else data
        sep = self._sep
        start = 0
        while True:
            i = buf.find(sep, start)
            if i < 0:
                break
            j = buf.find(b"\n", i + len(sep))
            if j < 0 and len(buf) - i > MAX_MARKER:  # no marker is this long: output that looks like one
                self._flush(buf[start:])
                self._pending = b""
                return
            if j < 0:
                self._flush(buf[start:i])
                self._pending = buf[i:]
                return
            self._flush(buf[start:i])
            self._marker(buf[i + len(sep) : j].decode("ascii", "replace").split())
            start = j + 1
        # hold back an ending that may be the first bytes of a marker, flush the rest
        k = buf.rfind(b"\n", max(start, len(buf) - len(sep) + 1))
        if k >= 0 and sep.startswith(buf[k:]):
            self._flush(buf[start:k])
            self._pending = buf[k:]
        else:
            self._flush(buf[start:] if start else buf)
            self._pending = b""

    def _marker(self, fields: list[str]) -> None:
        if len(fields) < 2 or not fields[1].isdigit() or int(fields[1]) >= len(self.tails):
            return
        kind, index = fields[0], int(fields[1])
        in_order = (kind == "B" and self._current is None and index not in self.began) or (
            kind == "E" and self._current == index and index not in self.status
        )
        if not in_order:
            self.forged.update(i for i in (index, self._current) if i is not None)
        if kind == "B":
            self._current = index
            self.began.add(index)
        elif kind == "E":
            self._current = None
            status = fields[2] if len(fields) > 2 else ""
            self.status[index] = int(status) if status.isdigit() else None
        if self._on_marker:
            self._on_marker(kind, index)

    def close(self) -> None:
        """End of stream: whatever is pending belongs to the command still running."""
        self._flush(self._pending)
        self._pending = b""

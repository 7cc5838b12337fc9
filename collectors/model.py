"""Records that cross module boundaries inside collectors/ and out to the bot and CLI."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Outcome = Literal["ok", "nonzero", "timeout", "missing", "error", "refused"]
HostStatus = Literal["ok", "unreachable", "auth_failed", "host_key_mismatch", "error"]
VerdictName = Literal["confirmed", "ruled_out", "inconclusive"]


@dataclass(frozen=True)
class CommandResult:
    """What one catalog command did on one host. `stdout` is decoded (invalid bytes replaced), capped."""

    collector: str
    argv: tuple[str, ...]
    outcome: Outcome
    exit: int | None = None
    stdout: str = ""
    stderr: str = ""
    duration_s: float = 0.0
    truncated: bool = False
    message: str = ""  # a human sentence for anything but "ok"
    output_bytes: int | None = None  # bytes the command wrote (stdout + stderr) before any cap


@dataclass(frozen=True)
class Evidence:
    """Output lines that decided a verdict, the command that produced them, and how to rerun it."""

    command: str
    lines: tuple[str, ...]
    rerun: str


@dataclass(frozen=True)
class CheckContext:
    """What a check may know besides the facts: the host, its expectations, the time window."""

    host: str
    expectations: dict[str, Any] = field(default_factory=dict)
    since: datetime | None = None
    now: datetime | None = None
    until: datetime | None = None  # the window's end (a job's end time); None: now


@dataclass(frozen=True)
class Verdict:
    """The decision on one pitfall for one host."""

    pitfall: str
    verdict: VerdictName
    reason: str
    evidence: tuple[Evidence, ...] = ()
    commands: tuple[str, ...] = ()
    benign: bool = False

"""Records that cross module boundaries inside collectors/ and out to the bot and CLI."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, cast, get_args

from pitstop.core.i18n import Msg, render, stored
from pitstop.core.redact import redact

Outcome = Literal["ok", "nonzero", "timeout", "missing", "error", "refused"]
HostStatus = Literal["ok", "unreachable", "auth_failed", "host_key_mismatch", "error"]
VerdictName = Literal["confirmed", "ruled_out", "inconclusive"]
VERDICTS: tuple[str, ...] = get_args(VerdictName)


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
    message: Msg | None = None  # why, for anything but "ok" (rendered in the reader's language)

    output_bytes: int | None = None  # bytes the command wrote (stdout + stderr) before any cap


@dataclass(frozen=True)
class Evidence:
    """Output lines that decided a verdict, the command that produced them, and how to rerun it."""

    command: str
    lines: tuple[str, ...]
    rerun: str

    def to_json(self) -> dict[str, Any]:
        """Plain data, every field redacted: what is stored and printed (the edge)."""
        return {
            "command": redact(self.command),
            "lines": [redact(line) for line in self.lines],
            "rerun": redact(self.rerun),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Evidence:
        """The inverse of `to_json` (storage reads its rows back)."""
        return cls(
            str(data.get("command", "")),
            tuple(str(line) for line in data.get("lines", ())),
            str(data.get("rerun", "")),
        )


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
    """The decision on one pitfall for one host.

    `reason` is a catalogue `Msg` (rendered in the reader's language at the edge: `render(reason,
    lang)`); a plain string only for a stored row whose message the catalogue no longer holds.
    """

    pitfall: str
    verdict: VerdictName
    reason: Msg | str
    evidence: tuple[Evidence, ...] = ()
    commands: tuple[str, ...] = ()
    benign: bool = False

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """Plain data, reason and evidence redacted: the one serialization (reports, storage).

        `reason` is the text in `lang`; `reason_msg` the catalogue key and parameters it came from
        (`{"key", "params"}`, null for a plain-text reason), from which any language can be rendered.
        """
        reason = self.reason.map_text(redact) if isinstance(self.reason, Msg) else self.reason
        return {
            "pitfall": self.pitfall,
            "verdict": self.verdict,
            "reason": redact(render(reason, lang)),
            "reason_msg": reason.to_json() if isinstance(reason, Msg) else None,
            "benign": self.benign,
            "evidence": [e.to_json() for e in self.evidence],
            "commands": list(self.commands),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Verdict:
        """The inverse of `to_json`; ValueError for a verdict name outside `VERDICTS`.

        The reason comes back as its `Msg` when `reason_msg` still matches the catalogue, else as
        the stored text."""
        name = str(data.get("verdict", ""))
        if name not in VERDICTS:
            raise ValueError(f"not a verdict: {name!r}")
        return cls(
            pitfall=str(data.get("pitfall", "")),
            verdict=cast(VerdictName, name),
            reason=stored(data.get("reason_msg"), str(data.get("reason", "") or "")),
            evidence=tuple(
                Evidence.from_json(e) for e in data.get("evidence", ()) or () if isinstance(e, Mapping)
            ),
            commands=tuple(str(c) for c in data.get("commands", ()) or ()),
            benign=bool(data.get("benign", False)),
        )

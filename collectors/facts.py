"""Turn {collector name: CommandResult} into typed facts, lazily, and say why a fact is unavailable."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Literal

from pitstop.collectors import catalog
from pitstop.collectors.catalog import display
from pitstop.collectors.model import CommandResult, Evidence
from pitstop.collectors.parsers import kernel_log, memo
from pitstop.collectors.parsers.gpu import Gpu
from pitstop.core.i18n import Msg, msg

_DENIED = re.compile(
    r"permission denied|operation not permitted|must be root|insufficient permissions|not root|"
    r"could not open device at /dev/ipmi|no journal files were opened",
    re.I,
)


def _blank(text: str) -> bool:
    return not text or text.isspace()  # without copying an 8 MiB output the way strip() would


def unusable(result: CommandResult) -> Msg | None:
    """Why one command's output cannot be read as facts (None when it can)."""
    collector = result.collector
    tool = result.argv[0] if result.argv else collector
    command = display(result.argv) if result.argv else collector
    if result.outcome == "missing":
        return msg("reasons.read.not_installed", tool=tool)
    if result.outcome == "timeout":
        return msg("reasons.read.timed_out", command=command)
    if result.outcome in ("error", "refused"):
        if result.message:
            return msg("reasons.read.could_not_run_because", command=command, error=result.message)
        return msg("reasons.read.could_not_run", command=command)
    declared = catalog.BY_NAME.get(collector)
    no_stdout = _blank(result.stdout)
    if result.outcome == "nonzero" and no_stdout and _DENIED.search(result.stderr):
        hint = declared.privileged_hint if declared else None
        return hint or msg("reasons.read.needs_root", command=command)
    if no_stdout and declared and declared.empty_says and result.stderr.strip() == declared.empty_says:
        return None
    evidence = declared is not None and declared.failure_is_evidence
    if result.outcome == "nonzero" and no_stdout and not evidence:
        first = next((line.strip() for line in result.stderr.splitlines() if line.strip()), None)
        if first is None:
            return msg("reasons.read.failed_silently", command=command, exit=result.exit)
        return msg("reasons.read.failed", command=command, exit=result.exit, error=first)
    if no_stdout and _blank(result.stderr) and not (declared and declared.empty_ok):
        return msg("reasons.read.printed_nothing", command=command)
    return None


ReadState = Literal["checked", "partial", "unreadable", "not_run"]


def reading(commands: Iterable[CommandResult]) -> tuple[ReadState, dict[str, Msg]]:
    """How much of a host could be read: the state and, per collector that yielded nothing, why.

    "unreadable": no command produced usable output (every one hung, failed or is missing);
    "partial": some could not be read (a missing tool alone does not count, it is a fact);
    "checked": every command that exists on the host was read; "not_run": nothing was run.
    """
    why: dict[str, Msg | None] = {}
    failed: set[str] = set()
    for result in commands:
        reason = unusable(result)
        if reason is None:
            why[result.collector] = None
        elif result.collector not in why or why[result.collector] is not None:
            why[result.collector] = reason
            if result.outcome != "missing":
                failed.add(result.collector)
    unread = {c: r for c, r in why.items() if r is not None}
    if not why:
        return "not_run", unread
    if len(unread) == len(why):
        return "unreadable", unread
    return ("partial" if failed & set(unread) else "checked"), unread


class Facts:
    """Parsed facts of one host, parsed on first use and cached."""

    def __init__(self, results: Mapping[str, CommandResult], now: datetime | None = None) -> None:
        self._results = dict(results)
        self._now = now
        self._cache: dict[str, Any] = {}
        self._missing: dict[str, Msg | None] = {}  # every check asks again: the answer never changes
        self._commands: dict[str, str] = {}
        self._read: frozenset[str] | None = None
        self._truncated: tuple[str, ...] | None = None
        self._parsed: dict[tuple[Any, str], Any] = {}  # parsers/memo.py: one parse per text here

    def result(self, collector: str) -> CommandResult | None:
        """The raw result, or None when the collector did not run."""
        return self._results.get(collector)

    def command(self, collector: str) -> str:
        """The command line as run (the collector's name when it did not run)."""
        if collector not in self._commands:
            result = self._results.get(collector)
            self._commands[collector] = display(result.argv) if result and result.argv else collector
        return self._commands[collector]

    def missing(self, collector: str) -> Msg | None:
        """Why `get(collector)` has nothing to offer (None when it has)."""
        if collector not in self._missing:
            result = self._results.get(collector)
            why = (
                msg("reasons.read.not_collected", collector=collector) if result is None else unusable(result)
            )
            self._missing[collector] = why
        return self._missing[collector]

    def collectors(self) -> tuple[str, ...]:
        """The collectors that have a result."""
        return tuple(self._results)

    def truncated(self) -> tuple[str, ...]:
        """The collectors whose output was cut at the size cap."""
        if self._truncated is None:
            self._truncated = tuple(c for c, r in self._results.items() if r.truncated)
        return self._truncated

    def read_commands(self) -> frozenset[str]:
        """The command lines whose output could be read."""
        if self._read is None:
            self._read = frozenset(self.command(c) for c in self._results if self.missing(c) is None)
        return self._read

    def get(self, collector: str) -> Any | None:
        """Parsed facts of one collector, or None (see `missing`)."""
        if collector not in self._cache:
            result = self._results.get(collector)
            declared = catalog.BY_NAME.get(collector)
            if result is None or declared is None or self.missing(collector):
                self._cache[collector] = None
            else:
                text = result.stdout if result.outcome == "ok" else f"{result.stdout}\n{result.stderr}"
                kwargs = {"now": self._now} if declared.timed else {}
                with memo.sharing(self._parsed):
                    self._cache[collector] = declared.parser(text, **kwargs)
        return self._cache[collector]

    def first(self, *collectors: str) -> tuple[str, Any] | tuple[None, None]:
        """The first of `collectors` that has facts, with its name."""
        for collector in collectors:
            if (value := self.get(collector)) is not None:
                return collector, value
        return None, None

    def why_missing(self, *collectors: str) -> Msg:
        """One sentence joining the reasons for several collectors."""
        reasons = [reason for c in collectors if (reason := self.missing(c))]
        if not reasons:
            return msg("reasons.read.no_usable_output")
        return reasons[0] if len(reasons) == 1 else msg("reasons.all", reasons=tuple(reasons))

    def gpus(self) -> tuple[str, tuple[Gpu, ...]] | tuple[None, None]:
        """GPU records from the NVML probe, else from `nvidia-smi -q`; (None, None) when neither has any."""
        probe = self.get("nvml_probe")
        if probe is not None and probe.gpus:
            return "nvml_probe", probe.gpus
        smi = self.get("nvidia_smi_q")
        if smi is not None and smi.gpus:
            return "nvidia_smi_q", smi.gpus
        return None, None

    def kernel_log(self) -> tuple[str, kernel_log.KernelLog] | tuple[None, None]:
        """The kernel log from journalctl, else from dmesg."""
        return self.first("kernel_log", "dmesg")

    def evidence(
        self, collector: str, lines: tuple[str, ...] | list[str], rerun: str | None = None
    ) -> Evidence:
        """Evidence lines from one collector with the command that produced them and how to rerun it."""
        declared = catalog.BY_NAME.get(collector)
        return Evidence(
            command=self.command(collector),
            lines=tuple(lines)[:20],
            rerun=rerun or (declared.rerun if declared else None) or self.command(collector),
        )

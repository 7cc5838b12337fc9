"""Build CommandResults from real outputs or literal text and run one check on them (for check tests)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pitstop.collectors import catalog
from pitstop.collectors.checks.registry import CHECKS
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, CommandResult, Verdict

NOW = datetime(2026, 3, 1, tzinfo=UTC)
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def argv(collector: str) -> tuple[str, ...]:
    """The catalog argv as run (a probe's code in place; a host parameter left as the placeholder)."""
    c = catalog.get(collector)
    return catalog.render(c).argv if c.argv_probe else c.argv


def ok(collector: str, text: str) -> CommandResult:
    """A successful run printing `text`."""
    return CommandResult(collector, argv(collector), "ok", 0, stdout=text)


def shared(shared_dir: Path, collector: str, rel: str, exit_code: int = 0) -> CommandResult:
    """A run that printed one real output from ../shared/outputs."""
    text = (shared_dir / "outputs" / rel).read_bytes().decode("utf-8", "replace")
    outcome = "ok" if exit_code == 0 else "nonzero"
    return CommandResult(collector, argv(collector), outcome, exit_code, stdout=text)  # type: ignore[arg-type]


def fixture(collector: str, name: str) -> CommandResult:
    """A run that printed one of our own fixtures."""
    return ok(collector, (FIXTURES / name).read_text(encoding="utf-8"))


def missing(collector: str) -> CommandResult:
    """The tool is not installed."""
    return CommandResult(
        collector, argv(collector), "missing", 127, stderr="command not found", message="not installed"
    )


def failed(collector: str, stderr: str, exit_code: int = 1) -> CommandResult:
    """The command ran and exited nonzero, printing `stderr`."""
    return CommandResult(collector, argv(collector), "nonzero", exit_code, stderr=stderr)


def denied(collector: str, stderr: str) -> CommandResult:
    """The command ran and was refused for lack of privileges."""
    return failed(collector, stderr)


def context(since: datetime | None = None, **expectations: Any) -> CheckContext:
    """A context at a fixed `now`."""
    return CheckContext(host="gpu-node-3", expectations=expectations, since=since, now=NOW)


def check(
    name: str,
    *results: CommandResult,
    params: Mapping[str, Any] | None = None,
    ctx: CheckContext | None = None,
) -> Verdict:
    """Run one registered check on these results."""
    ctx = ctx or context()
    facts = Facts({r.collector: r for r in results}, now=ctx.now)
    return CHECKS[name].fn(facts, params or {}, ctx)

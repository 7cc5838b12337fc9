"""A host whose evidence could not be read says so: unknown is not healthy."""

from __future__ import annotations

from pitstop.app.diagnose import DiagnoseReport, HostReport
from pitstop.app.flows import host_state
from pitstop.cli.diagnose import render
from pitstop.collectors.facts import reading
from pitstop.collectors.model import CommandResult, Verdict
from tests.collectors.check_inputs import argv


def _timeout(collector: str) -> CommandResult:
    return CommandResult(collector, argv(collector), "timeout", None, message="timed out after 30s")


def _ok(collector: str, text: str = "something\n") -> CommandResult:
    return CommandResult(collector, argv(collector), "ok", 0, stdout=text)


def _missing(collector: str) -> CommandResult:
    return CommandResult(collector, argv(collector), "missing", 127, stderr="command not found")


def test_every_command_hung_is_unreadable_not_ok() -> None:
    commands = (_timeout("nvidia_smi"), _timeout("kernel_log"), _timeout("df"))
    host = HostReport("gpu1", "ok", commands=commands, sweep=True)
    assert host.evidence_status == "unreadable"
    doc = host.to_json()
    assert doc["evidence_status"] == "unreadable"
    assert set(doc["unread"]) == {"nvidia_smi", "kernel_log", "df"}
    text = render(DiagnoseReport((host,), sweep=True))
    assert "evidence could not be read: gpu1" in text and "not checked: gpu1" in text
    assert host_state(host).status == "unreadable" and "timed out" in str(host_state(host).error)


def test_some_commands_failed_is_partial_and_a_missing_tool_alone_is_not() -> None:
    assert reading((_ok("df"), _timeout("kernel_log")))[0] == "partial"
    assert reading((_ok("df"), _missing("storcli")))[0] == "checked"
    assert reading((_missing("storcli"), _missing("megacli")))[0] == "unreadable"
    assert reading(())[0] == "not_run"


def test_unreadable_when_every_decisive_command_failed() -> None:
    commands = (_ok("os_release"), _timeout("nvidia_smi"))
    smi = " ".join(argv("nvidia_smi"))
    undecided = Verdict("gpu-lost", "inconclusive", "`nvidia-smi` timed out", commands=(smi,))
    host = HostReport("gpu1", "ok", verdicts=(undecided,), commands=commands)
    assert host.evidence_status == "unreadable"
    decided = Verdict("gpu-lost", "ruled_out", "fine", commands=(smi,))
    assert HostReport("gpu1", "ok", verdicts=(decided,), commands=commands).evidence_status == "partial"


def test_unreachable_host_is_unreadable() -> None:
    assert HostReport("gpu1", "unreachable", "connection refused").evidence_status == "unreadable"

"""Control characters from a compromised host, a paste or a resolution reach no terminal as controls.

ESC sequences (an OSC 8 link, a cleared screen), a carriage return and a bidi override are shown as
their escapes by `pitstop diagnose` (a real lab sshd host printing them), `pitstop incidents show` and
the console (real SQLite), so what a person reads is what the host or the colleague sent.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitstop.app.diagnose import HostReport
from pitstop.bot.console import Console
from pitstop.cli.diagnose import _progress
from pitstop.cli.main import main
from pitstop.core.config import local_user
from pitstop.core.db import open_db
from pitstop.core.redact import install_log_redaction
from pitstop.core.terminal import printable
from pitstop.incidents.store import Incidents
from pitstop.kb.service import KnowledgeBase
from pitstop.lab import fleet
from pitstop.lab.scenario import SCENARIOS_DIR, load_all
from pitstop.lab.sshd import LabError, find_sshd
from tests.bot.conftest import copy_kb, make_services
from tests.security.test_sinks import _cli

HOSTILE = "\x1b]8;;http://evil.example/\x1b\\innocent\x1b]8;;\x1b\\ \x1bc exe.\u202etxt \x9b2J\rforged"
CONTROLS = ("\x1b", "\r", "\u202e", "\x9b")


def obeyed(text: str) -> list[str]:
    """The control characters of HOSTILE that `text` still holds."""
    return [c for c in CONTROLS if c in text]


@contextlib.contextmanager
def hostile_lab(tmp_path: Path) -> Iterator[fleet.Fleet]:
    """A lab sshd host `hostile-escapes` whose kernel log holds HOSTILE after its Xid 79 line, up while
    the block runs; the test skips without sshd."""
    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    scenario = tmp_path / "scenarios" / "hostile-escapes"
    scenario.mkdir(parents=True)
    (scenario / "host.yaml").write_text("base: xid79-fell-off-bus\ngroups: [h100]\n")
    journal = (SCENARIOS_DIR / "xid79-fell-off-bus" / "journalctl-k.txt").read_text(encoding="utf-8")
    (scenario / "journalctl-k.txt").write_text(
        journal.replace("GPU has fallen off the bus.", f"GPU has fallen off the bus. {HOSTILE}"),
        encoding="utf-8",
    )
    lab = fleet.up(load_all([scenario]), tmp_path / "lab")
    try:
        yield lab
    finally:
        fleet.down(tmp_path / "lab")


def test_printable_shows_controls_and_keeps_lines() -> None:
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable(HOSTILE) == (
        "\\u001b]8;;http://evil.example/\\u001b\\innocent\\u001b]8;;\\u001b\\ \\u001bc exe.\\u202etxt"
        " \\u009b2J\\u000dforged"
    )
    assert printable("\x00\x07\x7f\u2066") == "\\u0000\\u0007\\u007f\\u2066"
    document = json.dumps({"line": HOSTILE}, ensure_ascii=False)
    assert json.loads(printable(document)) == {"line": HOSTILE}  # `--json` stays valid and equal


@pytest.mark.lab
def test_cli_diagnose_shows_a_hostile_hosts_controls(kb_path, tmp_path) -> None:
    db = copy_kb(kb_path, tmp_path / "diag.db")
    policy = tmp_path / "policy.yaml"
    policy.write_text(json.dumps({"rules": [{"users": [local_user()], "hosts": ["*"]}]}))
    with hostile_lab(tmp_path) as lab:
        args = ["diagnose", "hostile-escapes", "--error", "-", "--inventory", str(lab.inventory)]
        done = _cli([*args, "--policy", str(policy)], "GPU has fallen off the bus", {"PITSTOP_DB": str(db)})
    assert done.returncode in (0, 10, 11), done.stderr
    assert "innocent" in done.stdout  # the hostile line is quoted as evidence
    assert obeyed(done.stdout) == []
    assert "\\u001b]8;;http://evil.example/" in done.stdout


def test_incidents_show_and_the_console_show_a_pastes_controls(kb_path, embedder, tmp_path, capsys) -> None:
    db = copy_kb(kb_path, tmp_path / "pitstop.db")
    kb = KnowledgeBase.open(db, embedder=embedder)
    paste = f"NVRM: Xid 79, GPU has fallen off the bus {HOSTILE}"
    incident = Incidents(open_db(db), kb=kb).record_answer(
        channel="C1", thread_ts="1.0", user="U1", text=paste, answer=kb.ask(paste)
    )
    kb.close()
    capsys.readouterr()
    assert main(["incidents", "show", str(incident), "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "innocent" in shown and obeyed(shown) == []

    services = make_services(copy_kb(kb_path, tmp_path / "console.db"), embedder)
    out = io.StringIO()
    new = f":resolve-new Fan {HOSTILE} | the shroud | reseated | fan noise"
    try:
        Console(services, out, user="alice").run(io.StringIO(f"{paste}\n\n{new}\n:drafts\n:quit\n"))
    finally:
        services.close()
    assert "innocent" in out.getvalue() and obeyed(out.getvalue()) == []


def test_cli_error_lines_on_stderr_show_controls(tmp_path) -> None:
    """A PitstopError, argparse's error line and an imported inventory's warning quote hostile text."""
    missing = _cli(["incidents", "show", "1", "--db", str(tmp_path / HOSTILE / "x.db")], "", {})
    unknown = _cli(["stats", f"--x{HOSTILE}"], "", {})
    ini = tmp_path / "hosts.ini"
    value = HOSTILE.replace(" ", "").replace("\r", "")  # one INI value on one line
    ini.write_text(f"[gpu]\nnode1 ansible_connection={value}\n", encoding="utf-8")
    imported = _cli(["inventory", "import", str(ini), "--reader", "builtin"], "", {})
    for done, wanted in ((missing, CONTROLS), (unknown, CONTROLS), (imported, ("\x1b", "\u202e", "\x9b"))):
        assert done.returncode != 0 or done is imported, done.stderr
        assert "innocent" in done.stderr and "\\u001b]8;;http:" in done.stderr
        assert [c for c in wanted if c in done.stderr] == []


def test_diagnose_progress_keeps_its_own_controls_only(capsys) -> None:
    _progress("en", HostReport(f"gpu{HOSTILE}", "ok"), 1, 2)
    line = capsys.readouterr().err
    assert line.startswith("\r[1/2] ") and line.endswith("\x1b[K")  # Pitstop's own: rewrite the line
    assert obeyed(line[1:-3]) == [] and "\\u202e" in line


def test_log_lines_show_controls() -> None:
    install_log_redaction()
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    log = logging.getLogger("pitstop.test.terminal")
    log.addHandler(handler)
    try:
        log.warning("host said %s", HOSTILE)
    finally:
        log.removeHandler(handler)
    assert "innocent" in out.getvalue() and obeyed(out.getvalue()) == []


@pytest.mark.lab
def test_slack_diagnose_of_a_hostile_host_shows_its_controls(serve_app, shared_dir, tmp_path) -> None:
    """`/diagnose` over signed HTTP on a lab sshd host whose kernel log holds HOSTILE: the evidence in
    the updated message and the full outputs uploaded to the thread show its controls as escapes."""
    from pitstop.collectors import inventory
    from tests.bot.conftest import ALLOW_ALL
    from tests.bot.interactions import slash_command
    from tests.bot.slack_checks import all_text

    with hostile_lab(tmp_path) as lab:
        bot = serve_app(policy=ALLOW_ALL, inventory=inventory.load(lab.inventory))
        text = "hostile-escapes GPU has fallen off the bus"
        form = slash_command(shared_dir, text, response_url=bot.recorder.url + "/respond/1")
        assert bot.send(form, content_type="application/x-www-form-urlencoded")[0] == 200
        bot.recorder.wait_for("chat.postMessage")
        bot.idle()
    shown = all_text(bot.recorder.of("chat.update")[-1].body)
    uploaded = b"".join(call.raw for call in bot.recorder.of("upload")).decode()
    for text in (shown, uploaded):
        assert "innocent" in text and obeyed(text) == [], text[:2000]

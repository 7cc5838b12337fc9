"""The console drives the same flows as Slack: pastes, buttons as commands, a resolution, refusals."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pitstop.bot.console import Console, Session
from pitstop.collectors.model import Verdict
from pitstop.core.i18n import msg
from tests.bot.conftest import copy_kb, make_services


@pytest.fixture
def services(kb_path, embedder, tmp_path):
    services = make_services(copy_kb(kb_path, tmp_path / "console.db"), embedder)
    yield services
    services.close()


def run(services, script: str) -> str:
    out = io.StringIO()
    Console(services, out, user="alice").run(io.StringIO(script))
    return out.getvalue()


def test_paste_feedback_and_resolution_from_a_script(services):
    script = """\
NCCL WARN Cuda failure 'unknown error'
after switching the job to FP16 on gpu-node-3

:this 1
:resolve
:resolve 1 reinstalled the driver cleanly
:resolve 1
:stats
"""
    out = run(services, script)
    assert "Likely causes:" in out and "1. " in out
    assert "[:run gpu-node-3]" in out
    assert "marked as the cause" in out
    assert "Pick the real cause" in out and "(candidate 1)" in out
    assert out.count("resolved as") == 1
    assert "already resolved" in out  # the second resolution is refused with a sentence
    assert "Last 30 days: 1 incident(s) opened (0 open, 1 resolved, 0 closed as no action needed" in out
    incident = services.incidents.list()[0]
    assert incident.status == "resolved" and incident.channel == "console" and incident.requester == "alice"
    assert incident.resolution.vouched  # the console's user is the operator
    assert "Traceback" not in out


def test_new_cause_chinese_paste_refusals_and_unknown_commands(services):
    script = """\
八卡训练 loss 抖得跟心电图似的
:resolve-new UPS input sag | input voltage dips 8% | moved the rack to another UPS | loss jitter; no log
/diagnose gpu-node-3
/diagnose no-such-host
:frobnicate
:quit
NCCL WARN never reached
"""
    out = run(services, script)
    assert "可能的原因" in out
    assert (
        "事件 #1 已解决，原因是一个新原因" in out or "事件 #1 已解决；这个新原因" in out
    )  # the console speaks Chinese
    assert "还没有配置授权策略" in out  # a Chinese conversation gets its refusals in Chinese
    assert "未找到：清单里没有主机 'no-such-host'" in out
    assert "未知命令 :frobnicate" in out
    assert "never reached" not in out and out.count("可能的原因") == 1
    assert services.incidents.list()[0].resolution.kind in ("draft", "merge")


def test_pitstop_console_reads_a_script_from_stdin(kb_path, tmp_path):
    db = copy_kb(kb_path, tmp_path / "cli.db")
    env = {**os.environ, "PITSTOP_DB": str(db), "PITSTOP_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    env.pop("SLACK_BOT_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "pitstop", "console"],
        input="Xid 79 GPU has fallen off the bus\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Likely causes:" in done.stdout and "xid79" in done.stdout


@pytest.mark.lab
def test_pitstop_start_without_tokens_runs_the_lab_and_the_console(kb_path, tmp_path):
    from pitstop.lab.sshd import LabError, find_sshd

    try:
        find_sshd()
    except LabError as exc:
        pytest.skip(str(exc))
    db = copy_kb(kb_path, tmp_path / "start.db")
    env = {**os.environ, "PITSTOP_DB": str(db), "PITSTOP_HOME": str(tmp_path / "home"), "HF_HUB_OFFLINE": "1"}
    for name in (
        "SLACK_BOT_TOKEN",
        "SLACK_APP_TOKEN",
        "SLACK_SIGNING_SECRET",
        "PITSTOP_INVENTORY",
        "PITSTOP_POLICY",
    ):
        env.pop(name, None)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    session = re.search(r"```console-script\n(.*?)```", readme, re.S).group(1)  # the README's, verbatim
    script = (
        "/diagnose driver-library-mismatch Failed to initialize NVML: Driver/library version mismatch\n"
        "/diagnose behind-bastion\n" + session  # defined only in the lab's ssh config, two jump hosts away
    )
    done = subprocess.run(
        [sys.executable, "-m", "pitstop", "start"],
        input=script,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "lab hosts on 127.0.0.x" in done.stdout
    assert "Checks on driver-library-mismatch: 1 host" in done.stdout
    assert "reached behind-bastion through bastion-outer -> bastion-inner: host keys checked" in done.stdout
    assert "Checks on behind-bastion: 1 host" in done.stdout
    assert not re.search(r"^not checked: .*behind-bastion", done.stdout, re.M)
    assert not (tmp_path / "home" / "lab" / "state.json").exists()  # the lab it started is stopped again
    thermal = done.stdout[done.stdout.index("Checks on gpu-thermal") :]
    confirmed = r"^CONFIRMED +gpu-thermal-slowdown on 1 host: gpu-thermal$"
    assert re.search(confirmed, thermal, re.M), thermal[:2000]


def test_a_chained_traceback_from_a_script_is_one_paste_and_buttons_are_checked(services):
    from tests.bot.test_console_tty import CHAINED

    out = run(services, CHAINED + "\n\n:this 9\n:notit no-such-cause\n:this 1\n")
    assert len(services.incidents.list()) == 1 and out.count("Likely causes") == 1
    assert out.count("is not a cause of the last answer") == 2 and "marked as the cause" in out


def test_after_a_diagnosis_causes_are_named_by_id_and_a_number_is_refused_in_both_languages(services):
    """A diagnosis prints no numbered causes, so `:this 1` says so instead of "(1-0)"; a diagnosed
    cause's id works for `:this` and `:resolve`, as the diagnosis text's `:resolve SLUG` hint says."""
    confirmed = Verdict("gpu-thermal-slowdown", "confirmed", msg("reasons.no_check"))
    iid = services.incidents.record_diagnosis(
        channel="console",
        thread_ts="1.000001",
        user="alice",
        hosts=["gpu-thermal"],
        verdicts=[("gpu-thermal", confirmed)],
    )
    console = Console(services, io.StringIO(), user="alice")
    console.session = Session("1.000001", iid, (), "zh")  # what `/diagnose` leaves: an incident, no list
    assert "上一条结果没有编号的原因列表" in console.handle(":this 1")
    console.session.lang = "en"
    refused = console.handle(":notit 1")
    assert "no numbered list of causes" in refused and "1-0" not in refused
    assert "'gpu-thermal' is not a cause to choose from" in console.handle(":this gpu-thermal")
    assert "gpu-thermal-slowdown marked as the cause" in console.handle(":this gpu-thermal-slowdown")
    assert "resolved as" in console.handle(":resolve gpu-thermal-slowdown fan replaced")


def test_lang_sets_the_answer_language_for_this_user(services):
    out = run(
        services,
        ":lang zh\nRuntimeError: CUDA error: an illegal memory access was encountered\n\n:lang auto\n",
    )
    assert "以后给你的回答将使用中文" in out and "可能的原因" in out and "Likely causes" not in out
    assert "Answers for you will follow the language of your paste." in out

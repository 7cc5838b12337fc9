"""The /diagnose message at fleet size: 1 to 500 hosts, 1 to 80 causes, within Slack's limits, code
blocks closed, the odd host first, compressed host lists, *Record resolution* always there."""

from __future__ import annotations

import json

import pytest

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.render import blocks
from tests.bot.slack_checks import all_text, assert_within_limits
from tests.fleet_reports import fleet_report


def _message(hosts: int, causes: int, unreachable: int = 0, lang: str = "en") -> dict:
    report = fleet_report(hosts, causes, unreachable)
    card = flows.diagnosis_card(report, f"gpu[001-{hosts:03d}]", lang, 7, lambda p: f"Title of {p}")
    return blocks.diagnosis_message(card).kwargs()


@pytest.mark.parametrize("hosts", [1, 8, 64, 500])
@pytest.mark.parametrize("causes", [1, 20, 48, 80])
def test_any_fleet_fits_one_message(hosts: int, causes: int) -> None:
    body = _message(hosts, causes, unreachable=hosts // 10)
    assert_within_limits(body)
    last = body["blocks"][-1]
    assert last["type"] == "actions" and last["elements"][0]["action_id"] == ids.ACTION_RESOLVE
    text = all_text(body)
    assert len(body["blocks"]) <= causes + 4  # blocks per cause, never per host
    assert body["blocks"][0]["text"]["text"].count("\n") <= 1  # the unreachable hosts: one line
    shown = sum(b["type"] == "section" and "*Title of cause-" in b["text"]["text"] for b in body["blocks"])
    if shown < causes:
        assert f"{causes - shown} more cause(s)" in text
    if hosts >= 17:
        first = body["blocks"][1]["text"]["text"]
        assert first.startswith("*Differs from its peers (1 host(s); evidence, not a verdict)*")
        assert "gpu017 differs from" in first and "PCIe Gen4 x8 on GPU3 (peers Gen4 x16)" in first


def test_hosts_are_counted_and_compressed_and_unreachable_hosts_are_one_line() -> None:
    body = _message(64, 2, unreachable=4)
    head = body["blocks"][0]["text"]["text"]
    assert head.count("\n") == 1  # the title, then one line for the 4 unreachable hosts
    assert "• not checked, unreachable (4): `gpu[061-064]`: gpu061: connection refused" in head
    cause = next(b["text"]["text"] for b in body["blocks"] if "Title of cause-00" in str(b))
    assert "confirmed (30): `gpu[001,003,005," in cause and "ruled out (30): `gpu[002,004," in cause


def test_chinese_fleet_message() -> None:
    text = all_text(_message(64, 3, unreachable=2, lang="zh"))
    assert (
        "与其他节点不同" in text and "gpu017 与 61 个节点不同" in text and "未检查，无法连接（2 台）" in text
    )


def test_the_report_file_holds_the_whole_verdict_report() -> None:
    report = fleet_report(500, 80, unreachable=5)
    content = flows.report_file(report, "en")
    assert "CONFIRMED    cause-79 on " in content  # a cause the message had no room for
    assert "summary: not checked: gpu[496-500]" in content
    start = content.index("===== The report as JSON =====") + len("===== The report as JSON =====")
    doc = json.loads(content[start : content.index("===== Command outputs =====")])
    assert len(doc["hosts"]) == 500 and doc["outliers"][0]["host"] == "gpu017"
    assert doc["schema"] == "pitstop.diagnose/1"  # the very document `pitstop diagnose --json` prints


def test_one_diagnosis_text_for_the_cli_the_console_and_the_file() -> None:
    from pitstop.app.digest import render_text
    from pitstop.bot.render import text

    report = fleet_report(8, 3, unreachable=1)
    cli = render_text(report, "en")  # what `pitstop diagnose` prints
    card = flows.diagnosis_card(report, "gpu[001-008]", "en", 7, lambda p: f"Title of {p}")
    console = text.diagnosis_text(flows.Diagnosis(card, cli, flows.report_file(report, "en", cli), ()))
    assert console.splitlines()[0] == "Checks on gpu[001-008]: 8 hosts"
    assert "\n" + cli + "\n" in console and console.endswith(
        "[:resolve SLUG | :resolve-new] Record resolution"
    )
    assert flows.report_file(report, "en").startswith(cli + "\n\n")

"""The CLI's diagnose text at fleet size: one line per cause with compressed host lists, the odd host
first, unreachable hosts on one line, a closing summary, and exit codes that keep every outcome."""

from __future__ import annotations

import pytest

from pitstop.app.digest import digest
from pitstop.cli.diagnose import render
from pitstop.core.i18n import t
from tests.fleet_reports import fleet_report


@pytest.mark.parametrize(("hosts", "causes"), [(1, 1), (8, 3), (64, 10), (500, 80)])
def test_the_text_stays_short_and_ends_with_a_summary(hosts: int, causes: int) -> None:
    report = fleet_report(hosts, causes, unreachable=3 if hosts > 8 else 0)
    lines = render(report).splitlines()
    assert len(lines) <= 12 + causes * 12  # per cause, not per host
    assert lines[-3].startswith(f"summary: {hosts} host(s); confirmed: cause-00 (")
    unchecked = f"gpu[{hosts - 2:03d}-{hosts:03d}]" if hosts > 8 else "none"
    assert lines[-1] == f"summary: not checked: {unchecked}"
    if hosts >= 17:
        assert lines[0].startswith("differs from its peers (1 of")
        assert lines[1] == "  gpu017 differs from " + lines[1].split(" differs from ")[1]
        assert (
            "NCCL 2.18.1 (peers 2.21.5)" in lines[1] and "PCIe Gen4 x8 on GPU3 (peers Gen4 x16)" in lines[1]
        )
        assert lines[-2] == "summary: differ from their peers: gpu017"


def test_hosts_are_compressed_and_unreachable_hosts_are_one_line() -> None:
    text = render(fleet_report(64, 2, unreachable=4))
    assert "CONFIRMED    cause-00 on 30 of 64 hosts: gpu[001,003,005," in text
    assert "ruled out    cause-01 on 40 of 64 hosts: " in text
    assert (
        text.count("not checked: 4 host(s) unreachable: gpu[061-064] (first: gpu061: connection refused)")
        == 1
    )
    assert text.count("! ipmitool sel elist: refused on 60 host(s): gpu[001-060]") == 1
    assert text.splitlines()[-1] == "summary: not checked: gpu[061-064]"


@pytest.mark.parametrize(
    ("hosts", "causes", "unreachable", "code"),
    [(4, 0, 0, 0), (4, 1, 0, 10), (4, 0, 1, 11), (4, 1, 1, 12)],
)
def test_exit_codes_keep_confirmed_and_not_checked_apart(
    hosts: int, causes: int, unreachable: int, code: int
) -> None:
    assert digest(fleet_report(hosts, causes, unreachable)).exit_code == code


def test_the_exit_codes_are_documented() -> None:
    epilog = t("cli_help.diagnose.diagnose.epilog", "en")
    for code in (
        "0 nothing confirmed",
        "10 a cause confirmed",
        "11 nothing confirmed",
        "12 a cause confirmed",
    ):
        assert code in epilog


def test_the_text_report_in_chinese() -> None:
    from pitstop.app.digest import render_text

    lines = render_text(fleet_report(64, 2, unreachable=2), "zh").splitlines()
    assert lines[0] == "与其他节点不同（64 台中的 1 台；这是证据，不是结论）："
    assert lines[1].startswith("  gpu017 与 61 个节点不同：")
    assert "未检查：2 台主机无法连接：gpu[063-064]" in "\n".join(lines)
    assert lines[-1] == "总结：未检查：gpu[063-064]"

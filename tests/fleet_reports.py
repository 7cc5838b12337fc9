"""Diagnose reports of any size for rendering tests: real report records, verdicts with evidence, odd hosts
found by the real comparison, unreachable hosts."""

from __future__ import annotations

from pitstop.app.diagnose import DiagnoseReport, HostReport
from pitstop.collectors import compare
from pitstop.collectors.model import CommandResult, Evidence, Verdict


def fleet_report(hosts: int, causes: int, unreachable: int = 0, sweep: bool = False) -> DiagnoseReport:
    """`hosts` hosts gpu001...; cause k is confirmed on every (k+2)-th host and ruled out elsewhere, with
    multi-line evidence holding backticks; host 17 (when there) differs from its peers on PCIe and NCCL;
    the last `unreachable` hosts could not be reached."""
    names = [f"gpu{i:03d}" for i in range(1, hosts + 1)]
    down = set(names[len(names) - unreachable :]) if unreachable else set()
    reports, profiles = [], []
    for i, name in enumerate(names):
        if name in down:
            reports.append(HostReport(name, "unreachable", f"{name}: connection refused", sweep=sweep))
            continue
        verdicts = []
        for k in range(causes):
            if i % (k + 2) == 0:
                lines = tuple(
                    f"GPU {g}: Xid 79 ```fell off the bus``` at 0000:{g:02x}:00.0" for g in range(8)
                )
                ev = Evidence("journalctl -k -b --no-pager -o short-iso", lines, "journalctl -k -b")
                verdicts.append(Verdict(f"cause-{k:02d}", "confirmed", f"cause {k} seen on {name}", (ev,)))
            else:
                verdicts.append(Verdict(f"cause-{k:02d}", "ruled_out", f"no sign of cause {k}"))
        cmd = CommandResult("ipmi_sel", ("ipmitool", "sel", "elist"), "refused", 1, message="sudo -n refused")
        log = CommandResult("kernel_log", ("journalctl", "-k"), "ok", 0, stdout="kernel: ok\n")
        reports.append(HostReport(name, "ok", "", tuple(verdicts), (log, cmd), 1.0, sweep))
        odd = i == 16
        facts = {"nccl": "2.18.1" if odd else "2.21.5", "pcie@3": "Gen4 x8" if odd else "Gen4 x16"}
        profiles.append(compare.Profile(name, facts))
    return DiagnoseReport(tuple(reports), sweep=sweep, outliers=compare.outliers(profiles))

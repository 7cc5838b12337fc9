"""A diagnose report folded for people: per cause the hosts (compressed), the odd hosts, who was not checked.

The CLI and the bot render this one shape, so that 500 hosts read as a few lines: `gpu[01-16,18]`
instead of 17 names, one line per cause instead of one per host, unreachable hosts on one line.
Order: the hosts that differ from their peers, confirmed causes (most hosts first), benign findings,
inconclusive causes, ruled-out causes, then the hosts that could not be checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pitstop.app.diagnose import DiagnoseReport, HostReport
from pitstop.collectors import compare
from pitstop.collectors.catalog import display
from pitstop.collectors.hostlist import compress
from pitstop.collectors.jobs import JobInfo
from pitstop.collectors.model import Verdict
from pitstop.core.i18n import t

_ORDER = {"confirmed": 0, "benign": 1, "inconclusive": 2, "ruled_out": 3}

EXIT_NOTHING = 0
EXIT_CONFIRMED = 10
EXIT_NOT_CHECKED = 11
EXIT_CONFIRMED_NOT_CHECKED = 12


@dataclass(frozen=True)
class CauseGroup:
    """One cause with one verdict, on these hosts; `sample` is the first host's verdict (its evidence)."""

    pitfall: str
    verdict: str  # "confirmed" | "benign" | "inconclusive" | "ruled_out"
    hosts: tuple[str, ...]
    sample: Verdict
    reasons: int  # how many different reasons the hosts gave

    @property
    def hostlist(self) -> str:
        """The hosts as one host-list expression."""
        return compress(self.hosts)


@dataclass(frozen=True)
class OddHost:
    """A host that differs from its peers, with every differing fact."""

    host: str
    outliers: tuple[compare.Outlier, ...]

    def describe(self, lang: str = "en", limit: int = 4) -> str:
        """`gpu17 differs from 63 peers: PCIe Gen4 x8 on GPU3 (peers Gen4 x16)`."""
        return compare.describe_host(self.host, self.outliers, lang, limit)


@dataclass(frozen=True)
class NotChecked:
    """Hosts that could not be checked, by status: unreachable, auth_failed, host_key_mismatch, error, or
    "unreadable" (reached, but no evidence could be read: docs/COLLECTORS.md), with the first host's error."""

    status: str
    hosts: tuple[str, ...]
    error: str

    @property
    def hostlist(self) -> str:
        """The hosts as one host-list expression."""
        return compress(self.hosts)


@dataclass(frozen=True)
class Digest:
    """The whole report, folded."""

    total: int
    odd: tuple[OddHost, ...]
    causes: tuple[CauseGroup, ...]
    not_checked: tuple[NotChecked, ...]
    failed_commands: tuple[tuple[str, str, tuple[str, ...]], ...]  # (command, outcome, hosts)
    lang: str = "en"

    @property
    def confirmed(self) -> tuple[CauseGroup, ...]:
        """The confirmed, non-benign causes."""
        return tuple(c for c in self.causes if c.verdict == "confirmed")

    @property
    def unchecked_hosts(self) -> tuple[str, ...]:
        """Every host that could not be checked."""
        return tuple(h for n in self.not_checked for h in n.hosts)

    @property
    def exit_code(self) -> int:
        """0 nothing confirmed, 10 confirmed, 11 some host not checked, 12 confirmed and some not checked."""
        if self.unchecked_hosts:
            return EXIT_CONFIRMED_NOT_CHECKED if self.confirmed else EXIT_NOT_CHECKED
        return EXIT_CONFIRMED if self.confirmed else EXIT_NOTHING


def job_line(job: JobInfo, lang: str) -> str:
    """`Slurm job 4242 train-llm (FAILED) on 8 node(s) gpu[01-08]; logs read from ... to ...`."""
    start = f"{job.start:%Y-%m-%d %H:%M}" if job.start else "?"
    end = f"{job.end:%Y-%m-%d %H:%M} UTC" if job.end else t("fleet.job.running", lang)
    return t(
        "fleet.job.header",
        lang,
        job=job.job_id,
        name=f"{job.name} " if job.name else "",
        state=job.state or "?",
        n=len(job.nodes),
        nodes=job.hostlist,
        span=t("fleet.job.span", lang, start=start, end=end),
    )


def _kind(v: Verdict) -> str:
    return "benign" if v.verdict == "confirmed" and v.benign else v.verdict


def _shown(h: HostReport, sweep: bool) -> Sequence[Verdict]:
    return (*h.confirmed, *h.benign) if sweep else h.verdicts


def _first_unread(h: HostReport) -> str:
    return next((f"{c}: {why}" for c, why in h.unread.items()), "no output could be read")


def digest(report: DiagnoseReport) -> Digest:
    """Fold `report` by cause and verdict; every host appears once per cause."""
    groups: dict[tuple[str, str], list[tuple[str, Verdict]]] = {}
    failed: dict[tuple[str, str], list[str]] = {}
    down: dict[str, list[HostReport]] = {}
    for h in report.hosts:
        if h.status != "ok":
            down.setdefault(h.status, []).append(h)
        elif h.evidence_status == "unreadable":
            down.setdefault("unreadable", []).append(h)
        for v in _shown(h, report.sweep):
            groups.setdefault((v.pitfall, _kind(v)), []).append((h.host, v))
        for c in h.commands:
            if c.outcome != "ok":
                failed.setdefault((display(c.argv) if c.argv else c.collector, c.outcome), []).append(h.host)
    causes = [
        CauseGroup(pid, kind, tuple(dict.fromkeys(h for h, _ in items)), items[0][1],
                   len({v.reason for _, v in items}))
        for (pid, kind), items in groups.items()
    ]  # fmt: skip
    causes.sort(key=lambda c: (_ORDER[c.verdict], -len(c.hosts), c.pitfall))
    odd = tuple(OddHost(host, tuple(found)) for host, found in compare.by_host(report.outliers).items())
    not_checked = tuple(
        NotChecked(status, tuple(h.host for h in hs), hs[0].error or _first_unread(hs[0]))
        for status, hs in sorted(down.items())
    )
    failures = tuple(
        (cmd, outcome, tuple(dict.fromkeys(hosts))) for (cmd, outcome), hosts in sorted(failed.items())
    )
    return Digest(len(report.hosts), odd, tuple(causes), not_checked, failures, report.lang)

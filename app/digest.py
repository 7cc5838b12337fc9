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
from pitstop.core.i18n import Msg, msg, render, t

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
    error: str | Msg  # the host's error text, or why its evidence could not be read

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


def _first_unread(h: HostReport) -> Msg:
    first = next(iter(h.unread.items()), None)
    return (
        msg("reasons.read.nothing_read")
        if first is None
        else msg("reasons.read.of", collector=first[0], why=first[1])
    )


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


RULED_OUT_CHARS = 160  # a ruled-out cause's host list is cut here; the confirmed ones are shown whole
EVIDENCE_LINES = 6


def _cause_lines(c: CauseGroup, total: int, lang: str) -> list[str]:
    v = c.sample
    hosts = c.hostlist
    if c.verdict == "ruled_out" and len(hosts) > RULED_OUT_CHARS:
        hosts = hosts[: RULED_OUT_CHARS - 1] + "…"
    mark = t(f"fleet.text.mark.{c.verdict}", lang)
    on = t("fleet.text.on_one", lang) if total == 1 else t("fleet.text.on", lang, n=len(c.hosts), total=total)
    lines = [f"{mark:<12} {c.pitfall} {on}: {hosts}"]
    reason = render(v.reason, lang)
    if c.reasons > 1:
        reason += " " + t("fleet.text.other_reasons", lang, n=c.reasons - 1)
    lines.append(f"    {reason}")
    if c.verdict in ("confirmed", "benign"):
        for e in v.evidence:
            lines += [f"    {e.command}: {line}" for line in e.lines[:EVIDENCE_LINES]]
            if e.rerun:
                lines.append(f"    {t('fleet.text.rerun', lang, command=e.rerun)}")
    return lines


def render_text(report: DiagnoseReport, lang: str = "en") -> str:
    """The report as text: the job, the hosts that differ from their peers, confirmed causes with their
    evidence, the other verdicts one line per cause, failed commands and hosts not checked one line each,
    then the summary (`summary_lines`). The CLI prints it; Slack attaches it."""
    d = digest(report)
    out: list[str] = [job_line(report.job, lang)] if report.job else []
    if report.candidates:
        out.append(
            t(
                "fleet.text.candidates",
                lang,
                ids=", ".join(f"{c['id']} ({c['score']:.2f})" for c in report.candidates),
            )
        )
    if d.odd:
        out.append(t("fleet.text.odd", lang, n=len(d.odd), total=d.total))
        out += [f"  {o.describe(lang, limit=8)}" for o in d.odd]
    for c in d.causes:
        out += _cause_lines(c, d.total, lang)
    if report.sweep and not d.causes and not d.unchecked_hosts:
        out.append(t("fleet.text.nothing", lang, total=d.total))
    for command, outcome, hosts in d.failed_commands:
        out.append(
            t(
                "fleet.text.failed",
                lang,
                command=command,
                outcome=outcome,
                n=len(hosts),
                hosts=compress(hosts),
            )
        )
    for n in d.not_checked:
        out.append(not_checked_line(n, lang))
    out += [t("fleet.text.note", lang, note=n) for n in report.notes]
    out += ["", *summary_lines(d, lang)]
    return "\n".join(out)


def not_checked_line(n: NotChecked, lang: str) -> str:
    """`not checked: 3 host(s) unreachable: gpu[01-03] (first: ...)`."""
    return t(
        "fleet.text.not_checked",
        lang,
        n=len(n.hosts),
        status=t(f"fleet.status.{n.status}", lang),
        hosts=n.hostlist,
        error=render(n.error, lang),
    )


def summary_lines(d: Digest, lang: str = "en") -> list[str]:
    """The closing lines: confirmed causes with their hosts, the odd hosts, the hosts not checked."""
    none = t("fleet.text.none", lang)
    confirmed = "; ".join(f"{c.pitfall} ({c.hostlist})" for c in d.confirmed) or none
    return [
        t("fleet.text.summary_confirmed", lang, total=d.total, causes=confirmed),
        t("fleet.text.summary_odd", lang, hosts=compress(o.host for o in d.odd) or none),
        t("fleet.text.summary_unchecked", lang, hosts=compress(d.unchecked_hosts) or none),
    ]

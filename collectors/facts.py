"""Turn {collector name: CommandResult} into typed facts, lazily, and say why a fact is unavailable."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import partial
from typing import Any, Literal

from pitstop.collectors.catalog import display
from pitstop.collectors.model import CommandResult, Evidence
from pitstop.collectors.parsers import (
    cmdline,
    cpupower,
    df,
    docker_info,
    driver_version,
    ethtool,
    fabricmanager,
    ibstat,
    ibv_devinfo,
    ip_link,
    ipmi_sel,
    ipmi_sensor,
    kernel_log,
    lsblk,
    lscpu,
    lspci,
    megacli,
    mount,
    numactl,
    nvidia_ctk,
    nvidia_smi,
    nvidia_smi_q,
    nvlink,
    nvml_probe,
    os_release,
    storcli,
    topo,
    torch_version,
    uname,
)
from pitstop.collectors.parsers.gpu import Gpu

PARSERS: Mapping[str, Callable[[str], Any]] = {
    "nvidia_smi_q": nvidia_smi_q.parse,
    "nvidia_smi": nvidia_smi.parse,
    "nvidia_smi_topo": topo.parse,
    "nvidia_smi_nvlink": nvlink.parse,
    "nvml_probe": nvml_probe.parse,
    "driver_version": driver_version.parse,
    "kernel_log": kernel_log.parse,
    "dmesg": kernel_log.parse,
    "lspci": lspci.parse,
    "ip_link": ip_link.parse,
    "ethtool_i": ethtool.parse,
    "ibstat": ibstat.parse,
    "ibv_devinfo": ibv_devinfo.parse,
    "numactl": numactl.parse,
    "lscpu": lscpu.parse,
    "cpupower": cpupower.parse,
    "cmdline": cmdline.parse,
    "storcli": storcli.parse,
    "megacli": megacli.parse,
    "lsblk": lsblk.parse,
    "df": df.parse,
    "mount": mount.parse,
    "ipmi_sel": ipmi_sel.parse,
    "ipmi_sensor": ipmi_sensor.parse,
    "fabricmanager_status": fabricmanager.parse_status,
    "fabricmanager_log": fabricmanager.parse_log,
    "nvidia_ctk": nvidia_ctk.parse,
    "docker_info": docker_info.parse,
    "os_release": os_release.parse,
    "uname": uname.parse,
    "torch_probe": torch_version.parse,
}
TIMED = frozenset({"kernel_log", "dmesg"})
# Collectors whose failure text is itself a fact (nvidia-smi's errors, a missing torch, a dead daemon).
FAILURE_IS_EVIDENCE = frozenset(
    {
        "nvidia_smi",
        "nvidia_smi_q",
        "nvidia_smi_topo",
        "nvidia_smi_nvlink",
        "torch_probe",
        "docker_info",
        "fabricmanager_status",
    }
)  # parsers that need `now` (syslog lines carry no year)
# What a person should type to look again, where the catalog argv is not the friendliest form.
RERUN: Mapping[str, str] = {
    "nvml_probe": "nvidia-smi -q",
    "kernel_log": "journalctl -k -b --no-pager -o short-iso",
    "dmesg": "dmesg --time-format iso",
    "torch_probe": "python3 -c 'import torch; print(torch.__version__, torch.version.cuda, "
    "torch.cuda.is_available(), torch.cuda.get_arch_list())'",
}
_DENIED = re.compile(
    r"permission denied|operation not permitted|must be root|insufficient permissions|not root|"
    r"could not open device at /dev/ipmi|no journal files were opened",
    re.I,
)
_PRIVILEGED_HINT: Mapping[str, str] = {
    "kernel_log": "kernel log not readable without root (or the adm / systemd-journal group)",
    "dmesg": "kernel log not readable without root (kernel.dmesg_restrict=1)",
    "ipmi_sel": "the BMC event log needs root (/dev/ipmi0)",
    "ipmi_sensor": "the BMC sensors need root (/dev/ipmi0)",
    "storcli": "storcli needs root",
    "megacli": "MegaCli needs root",
    "lspci": "lspci link fields need root",
}


def unusable(result: CommandResult) -> str | None:
    """Why one command's output cannot be read as facts (None when it can)."""
    collector = result.collector
    command = display(result.argv) if result.argv else collector
    tool = result.argv[0] if result.argv else collector
    if result.outcome == "missing":
        return f"{tool} not installed"
    if result.outcome == "timeout":
        return f"`{command}` timed out"
    if result.outcome in ("error", "refused"):
        return result.message or f"`{command}` could not run"
    text = f"{result.stdout}\n{result.stderr}"
    if result.outcome == "nonzero" and _DENIED.search(text) and not result.stdout.strip():
        return _PRIVILEGED_HINT.get(collector, f"`{command}` needs root")
    if result.outcome == "nonzero" and not result.stdout.strip() and collector not in FAILURE_IS_EVIDENCE:
        first = next((line.strip() for line in result.stderr.splitlines() if line.strip()), "no output")
        return f"`{command}` failed (exit {result.exit}): {first}"
    if not text.strip() and collector not in ("nvidia_smi_nvlink",):
        return f"`{command}` printed nothing"
    return None


ReadState = Literal["checked", "partial", "unreadable", "not_run"]


def reading(commands: Iterable[CommandResult]) -> tuple[ReadState, dict[str, str]]:
    """How much of a host could be read: the state and, per collector that yielded nothing, why.

    "unreadable": no command produced usable output (every one hung, failed or is missing);
    "partial": some could not be read (a missing tool alone does not count, it is a fact);
    "checked": every command that exists on the host was read; "not_run": nothing was run.
    """
    why: dict[str, str | None] = {}
    failed: set[str] = set()
    for result in commands:
        reason = unusable(result)
        if reason is None:
            why[result.collector] = None
        elif why.get(result.collector, "") is not None:
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

    def result(self, collector: str) -> CommandResult | None:
        """The raw result, or None when the collector did not run."""
        return self._results.get(collector)

    def command(self, collector: str) -> str:
        """The command line as run (the collector's name when it did not run)."""
        result = self._results.get(collector)
        return display(result.argv) if result and result.argv else collector

    def missing(self, collector: str) -> str | None:
        """Why `get(collector)` has nothing to offer (None when it has)."""
        result = self._results.get(collector)
        if result is None:
            return f"{collector} was not collected"
        return unusable(result)

    def get(self, collector: str) -> Any | None:
        """Parsed facts of one collector, or None (see `missing`)."""
        if collector not in self._cache:
            result = self._results.get(collector)
            parser = PARSERS.get(collector)
            if result is None or parser is None or self.missing(collector):
                self._cache[collector] = None
            else:
                text = result.stdout if result.outcome == "ok" else f"{result.stdout}\n{result.stderr}"
                parse = partial(parser, now=self._now) if collector in TIMED else parser
                self._cache[collector] = parse(text)
        return self._cache[collector]

    def first(self, *collectors: str) -> tuple[str, Any] | tuple[None, None]:
        """The first of `collectors` that has facts, with its name."""
        for collector in collectors:
            if (value := self.get(collector)) is not None:
                return collector, value
        return None, None

    def why_missing(self, *collectors: str) -> str:
        """One sentence joining the reasons for several collectors."""
        return "; ".join(reason for c in collectors if (reason := self.missing(c))) or "no usable output"

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
        return Evidence(
            command=self.command(collector),
            lines=tuple(lines)[:20],
            rerun=rerun or RERUN.get(collector) or self.command(collector),
        )

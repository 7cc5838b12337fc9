"""The command catalog: every command Pitstop may run on a host, declared as data.

A collector is a fixed argv plus limits, and everything else Pitstop knows about it: its parser,
how a person reruns it, whether its failure text is evidence, what a permission failure means, and
the lab scenario file that answers it. Nothing typed by a person ever becomes part of an argv: the
only variable part is a host-derived parameter (an interface name read from the host's own
`ip -s link`), validated against a strict pattern. To add a collector, copy one declaration below
(docs/COLLECTORS.md); the policy conformance test then checks it, and the table in
docs/ARCHITECTURE.md is `markdown_table()`'s output (a test compares them).
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitstop.collectors.parsers import (
    cmdline,
    cpupower,
    df,
    docker_info,
    driver_version,
    ethtool,
    fabricmanager,
    hostname,
    ibstat,
    ibv_devinfo,
    ip_link,
    ipmi_sel,
    ipmi_sensor,
    kernel_log,
    ldconfig,
    logind,
    lsblk,
    lscpu,
    lspci,
    megacli,
    mount,
    numactl,
    nvidia_container_cli,
    nvidia_ctk,
    nvidia_smi,
    nvidia_smi_q,
    nvlink,
    nvml_probe,
    ofed,
    os_release,
    shm_stat,
    show_gids,
    slurm,
    ss,
    storcli,
    topo,
    torch_version,
    uname,
)
from pitstop.core.i18n import Msg

PROBES_DIR = Path(__file__).parent / "probes"
PARAM = "{param}"  # the one argv element a host-derived parameter replaces
KiB, MiB = 1024, 1024 * 1024


@dataclass(frozen=True)
class Param:
    """An argv parameter, kept only if it matches `pattern`: host-derived (read from `source`'s output
    by `extract`) or, with `source` None, given by the request (a Slurm job id, validated, never free text).
    `example` is a valid value for the policy conformance test."""

    source: str | None
    pattern: re.Pattern[str]
    extract: Callable[[str], list[str]] | None = None
    limit: int = 16
    placeholder: str = "VALUE"  # how docs show the parameter in the argv
    example: str = ""


@dataclass(frozen=True)
class Collector:
    """One catalog entry: the command, its limits, and how its output is read.

    `parser(text)` (or `parser(text, now=...)` when `timed`: syslog lines carry no year) turns the
    output into facts. `rerun` is what a person should type to look again where the argv is not
    the friendliest form. `failure_is_evidence`: a nonzero exit's text is itself a fact (nvidia-smi's
    errors, a missing torch). `privileged_hint` explains a permission failure. `empty_ok`: no
    output is a valid answer. `empty_says`: the sentence the tool prints alone on stderr, with any
    exit, when it has nothing to list (read as an empty output, not a failure). `lab_file` is the
    lab scenario file that answers it (None: served by a real program). `stdin_probe`/`argv_probe`
    name a script in collectors/probes/, sent on stdin or as the `python3 -c` argument.
    `fallback_for` names a collector this one replaces when that one failed or its output matches
    `fallback_when`.
    """

    name: str
    argv: tuple[str, ...]
    doc: str
    parser: Callable[..., Any]
    lab_file: str | None
    timeout_s: int = 15
    output_cap: int = 1 * MiB
    sudo_allowed: bool = False
    stdin_probe: str | None = None
    argv_probe: str | None = None
    param: Param | None = None
    fallback_for: str | None = None
    fallback_when: re.Pattern[str] | None = None
    timed: bool = False
    rerun: str | None = None
    failure_is_evidence: bool = False
    privileged_hint: Msg | None = None  # a catalogue message (tests/core/test_i18n.py renders each)
    empty_ok: bool = False
    empty_says: str | None = None
    lab_note: str = ""  # shown beside the lab file in the docs table


@dataclass(frozen=True)
class Command:
    """A collector rendered for one host: the exact argv, its limits and stdin."""

    collector: str
    argv: tuple[str, ...]
    timeout_s: int
    output_cap: int
    stdin: bytes | None = None
    sudo: bool = False
    param: str | None = None


_IFACE_LINE = re.compile(r"^\d+:\s+([^:\s]+):", re.M)
IFACE_PATTERN = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")


def interfaces_from_ip_link(text: str) -> list[str]:
    """Interface names from `ip -s link` output (`2: eth0@if5: <...>` -> `eth0`), loopback skipped."""
    names = (m.group(1).split("@", 1)[0] for m in _IFACE_LINE.finditer(text))
    return list(dict.fromkeys(n for n in names if n != "lo"))


_IFACE = Param(
    source="ip_link",
    pattern=IFACE_PATTERN,
    extract=interfaces_from_ip_link,
    placeholder="IFACE",
    example="eth0",
)
# A Slurm job id: digits, an array task (`123_4`) and a step (`123.0`, `123_4.1`); nothing else.
JOB_ID_PATTERN = re.compile(r"^[0-9]{1,12}(?:_[0-9]{1,9})?(?:\.[0-9]{1,9})?$")
_JOB = Param(source=None, pattern=JOB_ID_PATTERN, limit=1, placeholder="JOBID", example="123456_7.0")
# The host's own name, as `hostname` printed it (never a name a person typed).
_HOSTNAME = Param(
    source="hostname",
    pattern=hostname.NAME,
    extract=hostname.first_name,
    limit=1,
    placeholder="HOSTNAME",
    example="gpu-node-3",
)
_JOURNAL_DENIED = re.compile(r"No journal files were (?:opened|found)|insufficient permissions", re.I)
_KERNEL_LOG_HINT = Msg("reasons.read.hint.kernel_log")

CATALOG: tuple[Collector, ...] = (
    Collector(
        "nvidia_smi_q",
        ("nvidia-smi", "-q"),
        "full GPU query: ECC, remapping, clocks, throttle",
        nvidia_smi_q.parse,
        "nvidia-smi-q.txt",
        timeout_s=30,
        output_cap=4 * MiB,
        failure_is_evidence=True,
        lab_note="the lab derives `-q -d SECTION` output from it",
    ),
    Collector(
        "nvidia_smi",
        ("nvidia-smi",),
        "GPU summary table and processes",
        nvidia_smi.parse,
        "nvidia-smi.txt",
        timeout_s=30,
        failure_is_evidence=True,
    ),
    Collector(
        "nvidia_smi_topo",
        ("nvidia-smi", "topo", "-m"),
        "GPU/NIC topology and NUMA affinity",
        topo.parse,
        "nvidia-smi-topo-m.txt",
        timeout_s=30,
        failure_is_evidence=True,
    ),
    Collector(
        "nvidia_smi_nvlink",
        ("nvidia-smi", "nvlink", "-s"),
        "NVLink state per link",
        nvlink.parse,
        "nvidia-smi-nvlink.txt",
        timeout_s=30,
        failure_is_evidence=True,
        empty_ok=True,
    ),
    Collector(
        "nvml_probe",
        ("python3", "-c", PARAM),
        "NVML facts per GPU (falls back to nvidia-smi)",
        nvml_probe.parse,
        None,
        timeout_s=45,
        output_cap=2 * MiB,
        argv_probe="nvml_probe.py",
        rerun="nvidia-smi -q",
        lab_note="served by the real `python3`; the probe falls back to the lab's `nvidia-smi`",
    ),
    Collector(
        "driver_version",
        ("cat", "/proc/driver/nvidia/version"),
        "loaded NVIDIA kernel module version",
        driver_version.parse,
        "proc-driver-nvidia-version.txt",
        timeout_s=5,
    ),
    Collector(
        "kernel_log",
        ("journalctl", "-k", "-b", "--no-pager", "-o", "short-iso"),
        "kernel log of this boot (Xid, AER, NVRM)",
        kernel_log.parse,
        "journalctl-k.txt",
        timeout_s=30,
        output_cap=8 * MiB,
        sudo_allowed=True,
        timed=True,
        rerun="journalctl -k -b --no-pager -o short-iso",
        privileged_hint=_KERNEL_LOG_HINT,
    ),
    Collector(
        "dmesg",
        ("dmesg", "--time-format", "iso"),
        "kernel ring buffer (Xid, AER, NVRM)",
        kernel_log.parse,
        "dmesg.txt",
        timeout_s=15,
        output_cap=8 * MiB,
        sudo_allowed=True,
        fallback_for="kernel_log",
        fallback_when=_JOURNAL_DENIED,
        timed=True,
        rerun="dmesg --time-format iso",
        privileged_hint=Msg("reasons.read.hint.dmesg"),
    ),
    Collector(
        "lspci",
        ("lspci", "-vv"),
        "PCIe devices, link speed/width, AER capability",
        lspci.parse,
        "lspci-vv.txt",
        timeout_s=20,
        output_cap=4 * MiB,
        sudo_allowed=True,
        privileged_hint=Msg("reasons.read.hint.lspci"),
    ),
    Collector(
        "ip_link",
        ("ip", "-s", "link"),
        "network interfaces, state, error counters",
        ip_link.parse,
        "ip-link.txt",
        timeout_s=10,
    ),
    Collector(
        "ethtool_i",
        ("ethtool", "-i", PARAM),
        "NIC driver and firmware per interface",
        ethtool.parse,
        "ethtool-i.txt",
        timeout_s=10,
        param=_IFACE,
    ),
    Collector(
        "ibstat", ("ibstat",), "InfiniBand HCA port state and rate", ibstat.parse, "ibstat.txt", timeout_s=15
    ),
    Collector(
        "ibv_devinfo",
        ("ibv_devinfo", "-v"),
        "RDMA device attributes",
        ibv_devinfo.parse,
        "ibv_devinfo.txt",
        timeout_s=15,
        failure_is_evidence=True,  # "No IB devices found" and libibverbs' warnings come with exit 255
    ),
    Collector(
        "numactl",
        ("numactl", "-H"),
        "NUMA nodes, CPUs and memory",
        numactl.parse,
        "numactl-H.txt",
        timeout_s=10,
    ),
    Collector("lscpu", ("lscpu",), "CPU model, sockets, NUMA layout", lscpu.parse, "lscpu.txt", timeout_s=10),
    Collector(
        "cpupower",
        ("cpupower", "frequency-info"),
        "CPU frequency governor and limits",
        cpupower.parse,
        "cpupower.txt",
        timeout_s=10,
    ),
    Collector(
        "cmdline",
        ("cat", "/proc/cmdline"),
        "kernel boot parameters (iommu, pci=...)",
        cmdline.parse,
        "proc-cmdline.txt",
        timeout_s=5,
    ),
    Collector(
        "storcli",
        ("storcli64", "/call/vall", "show", "all"),
        "RAID virtual drives and cache policy",
        storcli.parse,
        "storcli.txt",
        timeout_s=30,
        sudo_allowed=True,
        privileged_hint=Msg("reasons.read.hint.storcli"),
    ),
    Collector(
        "megacli",
        ("MegaCli64", "-LDInfo", "-Lall", "-aALL"),
        "RAID logical drives (legacy CLI)",
        megacli.parse,
        "megacli.txt",
        timeout_s=30,
        sudo_allowed=True,
        privileged_hint=Msg("reasons.read.hint.megacli"),
    ),
    Collector("lsblk", ("lsblk",), "block devices", lsblk.parse, "lsblk.txt", timeout_s=10),
    Collector("df", ("df", "-h"), "file system usage", df.parse, "df-h.txt", timeout_s=15),
    Collector(
        "mount",
        ("cat", "/proc/mounts"),
        "mounted file systems and options",
        mount.parse,
        "mount.txt",
        timeout_s=5,
    ),
    Collector(
        "ipmi_sel",
        ("ipmitool", "sel", "elist"),
        "BMC system event log (PSU, fans, DIMMs)",
        ipmi_sel.parse,
        "ipmitool-sel.txt",
        timeout_s=30,
        output_cap=2 * MiB,
        sudo_allowed=True,
        privileged_hint=Msg("reasons.read.hint.ipmi_sel"),
        empty_says="SEL has no entries",  # lprintf(LOG_ERR): exit 0 now, nonzero in old ipmitool
    ),
    Collector(
        "ipmi_sensor",
        ("ipmitool", "sensor"),
        "BMC sensors: temperatures, fans, power",
        ipmi_sensor.parse,
        "ipmitool-sensor.txt",
        timeout_s=30,
        sudo_allowed=True,
        privileged_hint=Msg("reasons.read.hint.ipmi_sensor"),
    ),
    Collector(
        "fabricmanager_status",
        ("systemctl", "status", "nvidia-fabricmanager", "--no-pager"),
        "Fabric Manager service state",
        fabricmanager.parse_status,
        "systemctl-status-fabricmanager.txt",
        timeout_s=10,
        failure_is_evidence=True,
    ),
    Collector(
        "fabricmanager_log",
        ("journalctl", "-u", "nvidia-fabricmanager", "--no-pager", "-n", "300"),
        "Fabric Manager log, last 300 lines",
        fabricmanager.parse_log,
        "fabricmanager-log.txt",
        timeout_s=20,
        sudo_allowed=True,
    ),
    Collector(
        "nvidia_ctk",
        ("nvidia-ctk", "--version"),
        "NVIDIA Container Toolkit version",
        nvidia_ctk.parse,
        "nvidia-ctk-version.txt",
        timeout_s=10,
    ),
    Collector(
        "nvidia_container_cli",
        ("nvidia-container-cli", "--version"),
        "libnvidia-container version (what sets up GPU containers' devices)",
        nvidia_container_cli.parse,
        "nvidia-container-cli-version.txt",
        timeout_s=10,
    ),
    Collector(
        "docker_info",
        ("docker", "info"),
        "container runtimes, default runtime",
        docker_info.parse,
        "docker-info.txt",
        timeout_s=20,
        failure_is_evidence=True,
    ),
    Collector(
        "os_release",
        ("cat", "/etc/os-release"),
        "distribution and version",
        os_release.parse,
        "os-release.txt",
        timeout_s=5,
    ),
    Collector("uname", ("uname", "-a"), "kernel version", uname.parse, "uname-a.txt", timeout_s=5),
    Collector(
        "slurm_job",
        ("scontrol", "show", "job", "-o", PARAM),
        "a Slurm job's nodes, times and state (run on the Slurm controller or login host)",
        slurm.parse_scontrol,
        "scontrol-show-job.txt",
        timeout_s=15,
        param=_JOB,
        lab_note="one line per job; the lab prints the lines of the job asked for",
    ),
    Collector(
        "slurm_node",
        ("scontrol", "show", "node", "-o", PARAM),
        "this node's Slurm record: GPU GRES, state, drain reason (name from `hostname`)",
        slurm.parse_node,
        "scontrol-show-node.txt",
        timeout_s=15,
        param=_HOSTNAME,
    ),
    Collector(
        "slurm_acct",
        ("sacct", "-j", PARAM, "-n", "-P", "-o", ",".join(slurm.SACCT_FIELDS)),
        "a Slurm job's accounting record, also after it ended (controller or login host)",
        slurm.parse_sacct,
        "sacct.txt",
        timeout_s=20,
        param=_JOB,
        lab_note="the lab prints the rows of the job asked for",
    ),
    Collector(
        "torch_probe",
        ("python3", "-c", PARAM),
        "torch version, CUDA build, CUDA availability",
        torch_version.parse,
        "torch-version.txt",
        timeout_s=60,
        argv_probe="torch_probe.py",
        failure_is_evidence=True,
        rerun="python3 -c 'import torch; print(torch.__version__, torch.version.cuda, "
        "torch.cuda.is_available(), torch.cuda.get_arch_list())'",
    ),
    Collector(
        "hostname", ("hostname",), "the host's own name", hostname.parse_hostname, "hostname.txt", timeout_s=5
    ),
    Collector(
        "getent_self",
        ("getent", "hosts", PARAM),
        "what the host's own name resolves to (name from `hostname`)",
        hostname.parse_hosts,
        "getent-hosts.txt",
        timeout_s=10,
        param=_HOSTNAME,
    ),
    Collector(
        "etc_hosts",
        ("cat", "/etc/hosts"),
        "static host name table",
        hostname.parse_hosts,
        "etc-hosts.txt",
        timeout_s=5,
    ),
    Collector("ss_listen", ("ss", "-ltn"), "listening TCP ports", ss.parse, "ss-ltn.txt", timeout_s=10),
    Collector(
        "shm_stat",
        ("stat", "-L", "-c", "%A %a %U %G %F %n", "/dev/shm"),
        "mode and owner of /dev/shm",
        shm_stat.parse,
        "stat-dev-shm.txt",
        timeout_s=5,
    ),
    Collector(
        "logind_conf",
        ("systemd-analyze", "cat-config", "systemd/logind.conf"),
        "systemd-logind settings with drop-ins (RemoveIPC)",
        logind.parse,
        "logind-conf.txt",
        timeout_s=10,
    ),
    Collector(
        "ldconfig_p",
        ("ldconfig", "-p"),
        "the dynamic loader's library cache (which libnccl can load)",
        ldconfig.parse,
        "ldconfig-p.txt",
        timeout_s=10,
        output_cap=2 * MiB,
    ),
    Collector(
        "ofed_info",
        ("ofed_info", "-s"),
        "MLNX_OFED / DOCA-OFED release",
        ofed.parse_ofed,
        "ofed-info-s.txt",
        timeout_s=15,
    ),
    Collector(
        "mlx5_version",
        ("cat", "/sys/module/mlx5_core/version"),
        "version of the loaded mlx5_core module (set by MLNX_OFED builds)",
        ofed.parse_module,
        "mlx5-core-version.txt",
        timeout_s=5,
    ),
    Collector(
        "show_gids",
        ("show_gids",),
        "RoCE GID table per port (index, version, IPv4)",
        show_gids.parse,
        "show-gids.txt",
        timeout_s=15,
    ),
)

BY_NAME: Mapping[str, Collector] = {c.name: c for c in CATALOG}


class ProbeMissing(Exception):
    """A probe script named by the catalog is not on disk."""


def get(name: str) -> Collector:
    """The collector called `name` (KeyError names the unknown collector)."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no collector {name!r} in the catalog") from None


def probe_text(file_name: str) -> str:
    """Read a probe script from collectors/probes/ at call time."""
    path = PROBES_DIR / file_name
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        raise ProbeMissing(f"probe script {path} is missing") from None


def display(argv: Sequence[str]) -> str:
    """The command line for people: a probe's code is named by its file instead of inlined."""
    return _display(tuple(argv))


@functools.lru_cache(maxsize=512)  # every check of every host asks; a probe's text is 16 KB
def _display(argv: tuple[str, ...]) -> str:
    for c in CATALOG:
        if c.argv_probe and len(argv) == len(c.argv) and tuple(argv[:-1]) == c.argv[:-1]:
            try:
                if argv[-1] == probe_text(c.argv_probe):
                    return f"{shlex.join(argv[:-1])} <collectors/probes/{c.argv_probe}>"
            except ProbeMissing:
                continue
        if c.stdin_probe and tuple(argv) == c.argv:
            return f"{shlex.join(argv)} < collectors/probes/{c.stdin_probe}"
    return shlex.join(argv)


def param_values(collector: Collector, source_stdout: str) -> tuple[str, ...]:
    """Host-derived parameter values for `collector`, filtered by its strict pattern and limit."""
    if collector.param is None or collector.param.extract is None:
        return ()
    values = [v for v in collector.param.extract(source_stdout) if collector.param.pattern.match(v)]
    return tuple(values[: collector.param.limit])


def render(collector: Collector, param: str | None = None, sudo: bool = False) -> Command:
    """The concrete command for `collector`; `param` must already match the collector's pattern."""
    argv = collector.argv
    if collector.param is not None:
        if param is None or not collector.param.pattern.match(param):
            raise ValueError(f"{collector.name}: parameter {param!r} does not match its pattern")
        argv = tuple(param if a == PARAM else a for a in argv)
    elif collector.argv_probe:
        argv = tuple(probe_text(collector.argv_probe) if a == PARAM else a for a in argv)
    stdin = probe_text(collector.stdin_probe).encode() if collector.stdin_probe else None
    return Command(
        collector=collector.name,
        argv=argv,
        timeout_s=collector.timeout_s,
        output_cap=collector.output_cap,
        stdin=stdin,
        sudo=sudo and collector.sudo_allowed,
        param=param,
    )


def shown_argv(collector: Collector) -> str:
    """The argv as the docs show it: a parameter by its placeholder, a probe by its file."""
    if collector.stdin_probe:
        return f"{shlex.join(collector.argv)} < collectors/probes/{collector.stdin_probe}"
    if collector.argv_probe:
        return f"{shlex.join(collector.argv[:-1])} <collectors/probes/{collector.argv_probe}>"
    placeholder = collector.param.placeholder if collector.param else PARAM
    return " ".join(placeholder if a == PARAM else a for a in collector.argv)


def markdown_table() -> str:
    """The catalog table of docs/ARCHITECTURE.md, generated from the declarations."""
    rows = [
        "| collector name | argv | what it reads | lab scenario file |",
        "|---|---|---|---|",
    ]
    for c in CATALOG:
        when = f" (only when `{c.fallback_for}` is missing, failed or denied)" if c.fallback_for else ""
        lab = f"`{c.lab_file}`" if c.lab_file else ""
        note = f" ({c.lab_note})" if c.lab_file and c.lab_note else c.lab_note
        rows.append(f"| `{c.name}` | `{shown_argv(c)}` | {c.doc}{when} | {lab}{note} |")
    return "\n".join(rows) + "\n"

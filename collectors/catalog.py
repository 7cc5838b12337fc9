"""The command catalog: every command Pitstop may run on a host, declared as data.

A collector is a fixed argv plus limits. Nothing typed by a person ever becomes part of an
argv: the only variable part is a host-derived parameter (an interface name read from the
host's own `ip -s link`), validated against a strict pattern. To add a collector, copy one
declaration below (docs/COLLECTORS.md); the policy conformance test then checks it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

PROBES_DIR = Path(__file__).parent / "probes"
PARAM = "{param}"  # the one argv element a host-derived parameter replaces
KiB, MiB = 1024, 1024 * 1024


@dataclass(frozen=True)
class Param:
    """A host-derived argv parameter: read from `source`'s output, kept only if it matches `pattern`."""

    source: str
    pattern: re.Pattern[str]
    extract: Callable[[str], list[str]]
    limit: int = 16


@dataclass(frozen=True)
class Collector:
    """One catalog entry. `stdin_probe`/`argv_probe` name a script in collectors/probes/, sent on
    stdin or as the `python3 -c` argument."""

    name: str
    argv: tuple[str, ...]
    doc: str
    timeout_s: int = 15
    output_cap: int = 1 * MiB
    sudo_allowed: bool = False
    stdin_probe: str | None = None
    argv_probe: str | None = None
    param: Param | None = None
    fallback_for: str | None = None  # run only when that collector failed or was denied


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


_IFACE = Param(source="ip_link", pattern=IFACE_PATTERN, extract=interfaces_from_ip_link)

CATALOG: tuple[Collector, ...] = (
    Collector(
        "nvidia_smi_q",
        ("nvidia-smi", "-q"),
        "full GPU query: ECC, remapping, clocks, throttle",
        timeout_s=30,
        output_cap=4 * MiB,
    ),
    Collector("nvidia_smi", ("nvidia-smi",), "GPU summary table and processes", timeout_s=30),
    Collector(
        "nvidia_smi_topo", ("nvidia-smi", "topo", "-m"), "GPU/NIC topology and NUMA affinity", timeout_s=30
    ),
    Collector("nvidia_smi_nvlink", ("nvidia-smi", "nvlink", "-s"), "NVLink state per link", timeout_s=30),
    Collector(
        "nvml_probe",
        ("python3", "-"),
        "NVML facts per GPU (falls back to nvidia-smi)",
        timeout_s=45,
        output_cap=2 * MiB,
        stdin_probe="nvml_probe.py",
    ),
    Collector(
        "driver_version",
        ("cat", "/proc/driver/nvidia/version"),
        "loaded NVIDIA kernel module version",
        timeout_s=5,
    ),
    Collector(
        "kernel_log",
        ("journalctl", "-k", "-b", "--no-pager", "-o", "short-iso"),
        "kernel log of this boot (Xid, AER, NVRM)",
        timeout_s=30,
        output_cap=8 * MiB,
        sudo_allowed=True,
    ),
    Collector(
        "dmesg",
        ("dmesg", "--time-format", "iso"),
        "kernel ring buffer when journalctl is unavailable",
        timeout_s=15,
        output_cap=8 * MiB,
        sudo_allowed=True,
        fallback_for="kernel_log",
    ),
    Collector(
        "lspci",
        ("lspci", "-vv"),
        "PCIe devices, link speed/width, AER capability",
        timeout_s=20,
        output_cap=4 * MiB,
        sudo_allowed=True,
    ),
    Collector("ip_link", ("ip", "-s", "link"), "network interfaces, state, error counters", timeout_s=10),
    Collector(
        "ethtool_i",
        ("ethtool", "-i", PARAM),
        "NIC driver and firmware per interface",
        timeout_s=10,
        param=_IFACE,
    ),
    Collector("ibstat", ("ibstat",), "InfiniBand HCA port state and rate", timeout_s=15),
    Collector("ibv_devinfo", ("ibv_devinfo", "-v"), "RDMA device attributes", timeout_s=15),
    Collector("numactl", ("numactl", "-H"), "NUMA nodes, CPUs and memory", timeout_s=10),
    Collector("lscpu", ("lscpu",), "CPU model, sockets, NUMA layout", timeout_s=10),
    Collector("cpupower", ("cpupower", "frequency-info"), "CPU frequency governor and limits", timeout_s=10),
    Collector("cmdline", ("cat", "/proc/cmdline"), "kernel boot parameters (iommu, pci=...)", timeout_s=5),
    Collector(
        "storcli",
        ("storcli64", "/call/vall", "show", "all"),
        "RAID virtual drives and cache policy",
        timeout_s=30,
        sudo_allowed=True,
    ),
    Collector(
        "megacli",
        ("MegaCli64", "-LDInfo", "-Lall", "-aALL"),
        "RAID logical drives (legacy CLI)",
        timeout_s=30,
        sudo_allowed=True,
    ),
    Collector("lsblk", ("lsblk",), "block devices", timeout_s=10),
    Collector("df", ("df", "-h"), "file system usage", timeout_s=15),
    Collector("mount", ("cat", "/proc/mounts"), "mounted file systems and options", timeout_s=5),
    Collector(
        "ipmi_sel",
        ("ipmitool", "sel", "elist"),
        "BMC system event log (PSU, fans, DIMMs)",
        timeout_s=30,
        output_cap=2 * MiB,
        sudo_allowed=True,
    ),
    Collector(
        "ipmi_sensor",
        ("ipmitool", "sensor"),
        "BMC sensors: temperatures, fans, power",
        timeout_s=30,
        sudo_allowed=True,
    ),
    Collector(
        "fabricmanager_status",
        ("systemctl", "status", "nvidia-fabricmanager", "--no-pager"),
        "Fabric Manager service state",
        timeout_s=10,
    ),
    Collector(
        "fabricmanager_log",
        ("journalctl", "-u", "nvidia-fabricmanager", "--no-pager", "-n", "300"),
        "Fabric Manager log, last 300 lines",
        timeout_s=20,
        sudo_allowed=True,
    ),
    Collector("nvidia_ctk", ("nvidia-ctk", "--version"), "NVIDIA Container Toolkit version", timeout_s=10),
    Collector("docker_info", ("docker", "info"), "container runtimes, default runtime", timeout_s=20),
    Collector("os_release", ("cat", "/etc/os-release"), "distribution and version", timeout_s=5),
    Collector("uname", ("uname", "-a"), "kernel version", timeout_s=5),
    Collector(
        "torch_probe",
        ("python3", "-c", PARAM),
        "torch version, CUDA build, CUDA availability",
        timeout_s=60,
        argv_probe="torch_probe.py",
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
    for c in CATALOG:
        if c.argv_probe and len(argv) == len(c.argv) and tuple(argv[:-1]) == c.argv[:-1]:
            return f"{shlex.join(argv[:-1])} <collectors/probes/{c.argv_probe}>"
        if c.stdin_probe and tuple(argv) == c.argv:
            return f"{shlex.join(argv)} < collectors/probes/{c.stdin_probe}"
    return shlex.join(argv)


def param_values(collector: Collector, source_stdout: str) -> tuple[str, ...]:
    """Host-derived parameter values for `collector`, filtered by its strict pattern and limit."""
    if collector.param is None:
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

"""Container runtime checks: the NVIDIA runtime registered with Docker, Docker Desktop, the toolkit CLI,
libnvidia-container against the host's cgroup version."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers._text import version_tuple
from pitstop.core.i18n import msg

_NVIDIA_CDI = "nvidia.com/gpu"
_V2_FROM = (1, 8, 0)  # the first libnvidia-container release that supports the unified hierarchy


def _docker(facts: Facts) -> Any:
    """Docker's facts, or an inconclusive verdict saying why there are none."""
    info = facts.get("docker_info")
    if info is None:
        return inconclusive(msg("reasons.container.no_engine", why=facts.why_missing("docker_info")))
    if info.daemon_unreachable:
        return inconclusive(msg("reasons.container.daemon_unreachable", error=info.daemon_unreachable))
    if info.runtimes is None and not info.cdi_devices:
        return inconclusive(msg("reasons.container.nothing_listed"))
    return info


def _toolkit(facts: Facts) -> Verdict:
    """The one judgement both checks share: GPUs reach Docker's containers through the `nvidia`
    runtime or through CDI devices (`nvidia.com/gpu=...`, Docker 25+ with a CDI spec); only when
    Docker has neither and `nvidia-ctk` is not installed is the toolkit missing."""
    info = _docker(facts)
    if isinstance(info, Verdict):
        return info
    runtime = [info.lines[k] for k in ("Runtimes", "Default Runtime") if k in info.lines]
    cdi = [line for line in info.cdi_devices if _NVIDIA_CDI in line]
    if "nvidia" in (info.runtimes or ()):
        return ruled_out(msg("reasons.container.runtime_registered"), facts.evidence("docker_info", runtime))
    if cdi:
        return ruled_out(msg("reasons.container.cdi_listed"), facts.evidence("docker_info", cdi))
    ctk = facts.result("nvidia_ctk")
    cli = facts.get("nvidia_container_cli")
    if ctk is not None and ctk.outcome == "missing" and cli is not None and cli.version:
        # toolkits before 1.12 have no nvidia-ctk, and Docker 19.03+ hands `--gpus` to their hook
        # without an nvidia runtime: libnvidia-container installed is no missing toolkit
        return inconclusive(
            msg("reasons.container.cli_without_ctk", version=cli.version),
            facts.evidence("docker_info", runtime),
            facts.evidence("nvidia_container_cli", [cli.line]),
        )
    if ctk is not None and ctk.outcome == "missing":
        return confirmed(
            msg("reasons.container.no_toolkit"),
            facts.evidence("docker_info", runtime or ["Runtimes: (none listed)"]),
            facts.evidence(
                "nvidia_ctk",
                [
                    ctk.stderr.strip().splitlines()[-1]
                    if ctk.stderr.strip()
                    else "nvidia-ctk: command not found"
                ],
            ),
        )
    known = facts.get("nvidia_ctk")
    if known is not None and known.version:
        return inconclusive(
            msg("reasons.container.toolkit_unconfigured", tool=known.tool, version=known.version),
            facts.evidence("docker_info", runtime),
            facts.evidence("nvidia_ctk", [known.line]),
        )
    return inconclusive(
        msg("reasons.container.toolkit_unknown", why=facts.why_missing("nvidia_ctk")),
        facts.evidence("docker_info", runtime),
    )


def docker_nvidia_runtime(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Docker has no way to give containers GPUs: no `nvidia` runtime, no NVIDIA CDI device, and no
    nvidia-ctk. Rules out on the runtime or CDI devices."""
    return _toolkit(facts)


def nvidia_ctk_installed(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The NVIDIA Container Toolkit is missing where a container engine needs it: nvidia-ctk not installed
    while Docker runs without an nvidia runtime or CDI devices. A missing tool on a host with no
    container engine is inconclusive; a printed version rules out."""
    ctk = facts.get("nvidia_ctk")
    if ctk is not None and ctk.version is not None:
        return ruled_out(
            msg("reasons.installed", tool=ctk.tool, version=ctk.version),
            facts.evidence("nvidia_ctk", [ctk.line]),
        )
    result = facts.result("nvidia_ctk")
    if result is None or result.outcome != "missing":
        return inconclusive(
            facts.why_missing("nvidia_ctk") if ctk is None else msg("reasons.no_version", tool="nvidia-ctk")
        )
    verdict = _toolkit(facts)
    if verdict.verdict == "inconclusive" and facts.get("docker_info") is None:
        return inconclusive(msg("reasons.container.ctk_not_needed", why=facts.why_missing("docker_info")))
    return verdict


def docker_desktop(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Docker Desktop (LinuxKit VM) instead of Docker Engine on a GPU server."""
    info = facts.get("docker_info")
    if info is None:
        return inconclusive(facts.why_missing("docker_info"))
    if info.docker_desktop is None:
        return inconclusive(msg("reasons.container.no_os"))
    lines = [info.lines.get(k, "") for k in ("Operating System", "Kernel Version", "Name") if k in info.lines]
    if info.docker_desktop:
        return confirmed(msg("reasons.container.desktop"), facts.evidence("docker_info", lines))
    return ruled_out(msg("reasons.container.engine_on_host"), facts.evidence("docker_info", lines))


def toolkit_cgroup_v2(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The host runs the cgroup v2 unified hierarchy and libnvidia-container is older than 1.8.0, which
    set up device access only through the cgroup v1 devices controller. A v1 devices hierarchy rules
    out; a version that was not read leaves it inconclusive."""
    mounts = facts.get("mount")
    if mounts is None:
        return inconclusive(facts.why_missing("mount"))
    root = mounts.at("/sys/fs/cgroup")
    if root is None or root.fstype != "cgroup2":
        devices = next((m for m in mounts.mounts if m.fstype == "cgroup" and "devices" in m.options), None)
        if devices is None:
            return inconclusive(msg("reasons.container.cgroup_not_listed"))
        return ruled_out(
            msg("reasons.container.cgroup_v1", mount=devices.mountpoint),
            facts.evidence("mount", [devices.line]),
        )
    unified = facts.evidence("mount", [root.line])
    cli = facts.get("nvidia_container_cli")
    have = version_tuple(cli.version) if cli is not None else None
    if cli is None or have is None:
        why = (
            facts.why_missing("nvidia_container_cli")
            if cli is None
            else msg("reasons.no_version", tool="nvidia-container-cli")
        )
        return inconclusive(msg("reasons.container.cgroup_v2_version_unknown", why=why), unified)
    found = facts.evidence("nvidia_container_cli", [cli.line])
    need = ".".join(map(str, _V2_FROM))
    if have < _V2_FROM:
        return confirmed(
            msg("reasons.container.toolkit_too_old_v2", version=cli.version, need=need), unified, found
        )
    return ruled_out(
        msg("reasons.container.toolkit_supports_v2", version=cli.version, need=need), unified, found
    )


SPECS = (
    spec(
        docker_nvidia_runtime,
        ("docker_info", "nvidia_ctk", "nvidia_container_cli"),
        describe={
            "en": (
                "Reads Docker's runtimes and CDI devices and whether nvidia-ctk exists: no nvidia "
                "runtime, no nvidia.com/gpu CDI device and no nvidia-ctk confirm it (unless "
                "nvidia-container-cli prints a version: an older toolkit); an nvidia runtime "
                "or NVIDIA CDI devices rule it out."
            ),
            "zh": (
                "读取 Docker 的运行时、CDI 设备以及 nvidia-ctk 是否存在：既无 nvidia 运行时、又无 "
                "nvidia.com/gpu CDI 设备、也没装 nvidia-ctk 即确认"
                "（nvidia-container-cli 能打印版本时除外：那是旧版 toolkit）；"
                "有 nvidia 运行时或 NVIDIA CDI 设备则排除。"
            ),
        },
    ),
    spec(
        nvidia_ctk_installed,
        ("nvidia_ctk", "docker_info", "nvidia_container_cli"),
        describe={
            "en": (
                "Checks whether nvidia-ctk is installed where a container engine needs it: missing "
                "while Docker has no nvidia runtime or CDI device confirms it, a printed version rules "
                "it out, missing on a host without a container engine decides nothing."
            ),
            "zh": (
                "检查容器引擎需要时 nvidia-ctk 是否安装：Docker 既无 nvidia 运行时也无 CDI 设备且没装即确认，"
                "能打印版本则排除；主机上没有容器引擎时没装不作结论。"
            ),
        },
    ),
    spec(
        docker_desktop,
        ("docker_info",),
        describe={
            "en": (
                "Reads what Docker reports about itself: Docker Desktop (a virtual machine) "
                "confirms it, Docker Engine rules it out."
            ),
            "zh": (
                "读取 Docker 自身的信息：是 Docker Desktop（跑在虚拟机里）即确认，是 Docker Engine 则排除。"
            ),
        },
    ),
    spec(
        toolkit_cgroup_v2,
        ("mount", "nvidia_container_cli"),
        describe={
            "en": (
                "Reads how /sys/fs/cgroup is mounted and libnvidia-container's version: the cgroup v2 "
                "unified hierarchy with a version older than 1.8.0 confirms it, a cgroup v1 devices "
                "hierarchy or version 1.8.0 or later rules it out."
            ),
            "zh": (
                "读取 /sys/fs/cgroup 的挂载方式和 libnvidia-container 的版本：cgroup v2 统一层级"
                "加上低于 1.8.0 的版本即确认；使用 cgroup v1 的 devices 层级，或版本为 1.8.0 及以上则排除。"
            ),
        },
    ),
)

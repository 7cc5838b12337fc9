"""Container runtime checks: the NVIDIA runtime registered with Docker, Docker Desktop, the toolkit CLI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict


def docker_nvidia_runtime(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Docker has no `nvidia` runtime registered."""
    info = facts.get("docker_info")
    if info is None:
        return inconclusive(facts.why_missing("docker_info"))
    if info.daemon_unreachable:
        return inconclusive(f"docker daemon not reachable: {info.daemon_unreachable}")
    if info.runtimes is None:
        return inconclusive("docker info lists no runtimes")
    lines = [info.lines.get("Runtimes", ""), info.lines.get("Default Runtime", "")]
    ctk = facts.result("nvidia_ctk")
    if ctk is not None and ctk.outcome == "missing":
        lines.append("nvidia-ctk: command not found")
    if "nvidia" not in info.runtimes:
        return confirmed(
            "Docker has no nvidia runtime registered (NVIDIA Container Toolkit missing or not configured)",
            facts.evidence("docker_info", lines),
        )
    return ruled_out("the nvidia runtime is registered with Docker", facts.evidence("docker_info", lines))


def nvidia_ctk_installed(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The NVIDIA Container Toolkit CLI is missing (a missing tool is the evidence here)."""
    result = facts.result("nvidia_ctk")
    if result is not None and result.outcome == "missing":
        return confirmed(
            "nvidia-ctk is not installed", facts.evidence("nvidia_ctk", ["nvidia-ctk: command not found"])
        )
    ctk = facts.get("nvidia_ctk")
    if ctk is None or ctk.version is None:
        return inconclusive(
            facts.why_missing("nvidia_ctk") if ctk is None else "nvidia-ctk printed no version"
        )
    return ruled_out(f"{ctk.tool} {ctk.version} installed", facts.evidence("nvidia_ctk", [ctk.line]))


def docker_desktop(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Docker Desktop (LinuxKit VM) instead of Docker Engine on a GPU server."""
    info = facts.get("docker_info")
    if info is None:
        return inconclusive(facts.why_missing("docker_info"))
    if info.docker_desktop is None:
        return inconclusive("docker info shows neither the operating system nor the kernel")
    lines = [info.lines.get(k, "") for k in ("Operating System", "Kernel Version", "Name") if k in info.lines]
    if info.docker_desktop:
        return confirmed(
            "the Docker daemon is Docker Desktop's VM (no GPU passthrough on Linux)",
            facts.evidence("docker_info", lines),
        )
    return ruled_out("the Docker daemon runs on the host itself", facts.evidence("docker_info", lines))


SPECS = (
    spec(
        docker_nvidia_runtime,
        ("docker_info", "nvidia_ctk"),
        describe={
            "en": (
                "Reads Docker's registered runtimes: no nvidia runtime confirms it, an "
                "nvidia runtime rules it out."
            ),
            "zh": "读取 Docker 已注册的运行时：没有 nvidia 运行时即确认，有则排除。",
        },
    ),
    spec(
        nvidia_ctk_installed,
        ("nvidia_ctk",),
        describe={
            "en": (
                "Checks whether the NVIDIA Container Toolkit command is installed: missing "
                "confirms it, installed rules it out."
            ),
            "zh": ("检查 NVIDIA Container Toolkit 的命令行工具是否安装：没装即确认，已安装则排除。"),
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
)

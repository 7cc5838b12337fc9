"""`docker info` -> runtimes, default runtime, versions, and signs of Docker Desktop."""

from __future__ import annotations

from dataclasses import dataclass, field

from pitstop.collectors.parsers._text import clean_lines, split_kv


@dataclass(frozen=True)
class DockerInfo:
    """Selected fields; `fields` keeps every `Key: value` line (first occurrence)."""

    runtimes: tuple[str, ...] | None = None
    default_runtime: str | None = None
    server_version: str | None = None
    operating_system: str | None = None
    kernel_version: str | None = None
    name: str | None = None
    warnings: tuple[str, ...] = ()
    daemon_unreachable: str | None = None
    cdi_devices: tuple[str, ...] = ()  # "Discovered Devices:" entries, e.g. "cdi: nvidia.com/gpu=gpu0"
    fields: dict[str, str] = field(default_factory=dict)
    lines: dict[str, str] = field(default_factory=dict)

    @property
    def docker_desktop(self) -> bool | None:
        """True when the daemon is Docker Desktop's VM (LinuxKit kernel, 'Docker Desktop' OS)."""
        if self.operating_system is None and self.kernel_version is None:
            return None
        text = " ".join(filter(None, (self.operating_system, self.kernel_version, self.name))).lower()
        return "docker desktop" in text or "linuxkit" in text or "docker-desktop" in text


def parse(text: str) -> DockerInfo:
    """Handle the pre-19.03 flat layout and the Client/Server layout alike (indentation ignored)."""
    fields: dict[str, str] = {}
    lines: dict[str, str] = {}
    warnings = []
    cdi = []
    unreachable = None
    for raw in clean_lines(text):
        line = raw.strip()
        if line.startswith("WARNING:"):
            warnings.append(line)
        elif (
            "Cannot connect to the Docker daemon" in line
            or "permission denied while trying to connect" in line
        ):
            unreachable = line
        elif line.startswith("cdi:"):
            cdi.append(line)
        elif (kv := split_kv(line)) is not None and kv[0] not in fields:
            fields[kv[0]], lines[kv[0]] = kv[1], line
    runtimes = tuple(fields["Runtimes"].split()) if "Runtimes" in fields else None
    return DockerInfo(
        runtimes=runtimes,
        default_runtime=fields.get("Default Runtime") or None,
        server_version=fields.get("Server Version") or None,
        operating_system=fields.get("Operating System") or None,
        kernel_version=fields.get("Kernel Version") or None,
        name=fields.get("Name") or None,
        warnings=tuple(warnings),
        daemon_unreachable=unreachable,
        cdi_devices=tuple(cdi),
        fields=fields,
        lines=lines,
    )

"""`nvidia-smi nvlink -s` (and the `dcgmi nvlink --link-status` grid) -> link states per GPU."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers import smi_error
from pitstop.collectors.parsers._text import clean_lines
from pitstop.collectors.parsers.gpu import NvLink

_GPU = re.compile(r"^GPU (?P<index>\d+): (?P<name>.+?)(?: \(UUID: (?P<uuid>[^)]+)\))?$")
_LINK = re.compile(r"^Link (?P<link>\d+): (?P<rest>.+)$")
_DCGM_GPU = re.compile(r"^gpuId (?P<index>\d+):$")
_SPEED = re.compile(r"([\d.]+)\s*GB/s")
_DCGM_STATES = {"U": "up", "D": "down", "X": "disabled", "_": "unsupported"}


@dataclass(frozen=True)
class NvLinkGpu:
    """One GPU's links; `supported` False when the GPU has no NVLink."""

    index: int
    name: str
    uuid: str | None
    links: tuple[NvLink, ...]
    supported: bool
    line: str
    all_inactive: str | None = None  # NVML's "... as all links are inActive" line, given for no link lines


@dataclass(frozen=True)
class NvLinkStatus:
    """Every GPU listed; an empty tuple for empty output (no NVLink-capable GPU reported)."""

    gpus: tuple[NvLinkGpu, ...] = ()
    error: smi_error.SmiError | None = None


def _link(match: re.Match[str], line: str) -> NvLink:
    rest = match.group("rest").strip()
    speed = _SPEED.match(rest)
    if speed:
        return NvLink(int(match.group("link")), "up", float(speed.group(1)), line)
    state = "down" if "inactive" in rest.lower() else "disabled" if "disabled" in rest.lower() else "unknown"
    return NvLink(int(match.group("link")), state, None, line)


def parse(text: str) -> NvLinkStatus:
    """Parse both layouts; an nvidia-smi error message becomes `error`."""
    gpus: list[dict[str, Any]] = []  # one row per record, filled field by field
    for raw in clean_lines(text):
        line = raw.strip()
        if (g := _GPU.match(line)) or (g := _DCGM_GPU.match(line)):
            groups = g.groupdict()
            gpus.append(
                {
                    "index": int(groups["index"]),
                    "name": groups.get("name") or "",
                    "uuid": groups.get("uuid"),
                    "links": [],
                    "supported": True,
                    "line": line,
                }
            )
        elif gpus and (m := _LINK.match(line)):
            gpus[-1]["links"].append(_link(m, line))
        elif gpus and "all links are inactive" in line.lower():
            gpus[-1]["all_inactive"] = line
        elif gpus and "does not have or support Nvlink" in line:
            gpus[-1]["supported"] = False
        elif gpus and re.fullmatch(r"([UDX_] ?)+", line):
            gpus[-1]["links"].extend(
                NvLink(i, _DCGM_STATES[s], None, line) for i, s in enumerate(line.split())
            )
    return NvLinkStatus(
        gpus=tuple(NvLinkGpu(links=tuple(g.pop("links")), **g) for g in gpus),
        error=smi_error.detect(text) if not gpus else None,
    )

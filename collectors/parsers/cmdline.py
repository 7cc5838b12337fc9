"""`/proc/cmdline` -> kernel parameters."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class Cmdline:
    """Parameters in order; `params` maps a name to its value (True for a bare flag; the last one wins),
    `values` to every value it was given, in order (the kernel hands each `intel_iommu=` to its
    handler, so `intel_iommu=on intel_iommu=igfx_off` turns on both)."""

    line: str = ""
    params: dict[str, str | bool] = field(default_factory=dict)
    values: dict[str, tuple[str | bool, ...]] = field(default_factory=dict)
    recognized: bool = False  # one line naming the kernel image or the root file system


_BOOT = ("BOOT_IMAGE", "root", "init", "initrd")
_PATH = re.compile(r"^(?:/|\(|UUID=|PARTUUID=|LABEL=|ZFS=|live:|nfs:)")


def parse(text: str) -> Cmdline:
    """Split like the kernel does (quotes group a value)."""
    parts = [part.strip() for part in clean_lines(text) if part.strip()]
    line = " ".join(parts)
    try:
        tokens = shlex.split(line)
    except ValueError:
        tokens = line.split()
    params: dict[str, str | bool] = {}
    values: dict[str, tuple[str | bool, ...]] = {}
    for token in tokens:
        name, eq, value = token.partition("=")
        params[name] = value if eq else True
        values[name] = (*values.get(name, ()), params[name])
    booted = any(isinstance(params.get(k), str) and _PATH.match(str(params[k])) for k in _BOOT)
    return Cmdline(line=line, params=params, values=values, recognized=len(parts) == 1 and booted)

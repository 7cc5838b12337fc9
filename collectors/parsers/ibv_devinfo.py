"""`ibv_devinfo [-v]` -> HCAs and their ports' state (PORT_ACTIVE...), physical state, link layer, and
libibverbs' own complaints when it lists no device (its warnings and "No IB devices found", on stderr)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines

_KV = re.compile(r"^(?P<key>[\w ]+?):\s+(?P<val>.*)$")
_WARNING = re.compile(r"^libibverbs: Warning: ")
_NAMED = re.compile(r"(?<![\w:])(hca_id|port|state|phys_state|link_layer):")  # a key a port row needs
_NO_DEVICES = re.compile(r"^(?:No IB devices found|Failed to get IB devices list\b.*)$")


@dataclass(frozen=True)
class VerbsPort:
    """One port; `state` like "PORT_ACTIVE", `physical_state` like "LINK_UP" / "POLLING" (with -v)."""

    hca: str
    port: int
    state: str | None
    physical_state: str | None
    link_layer: str | None
    active_mtu: str | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class VerbsInfo:
    """Every port of every HCA."""

    ports: tuple[VerbsPort, ...] = ()
    firmware: dict[str, str] | None = None
    warnings: tuple[str, ...] = ()  # "libibverbs: Warning: ..." lines (a provider not found or refused)
    no_devices: str | None = None  # the line saying libibverbs listed no device at all
    stray: tuple[str, ...] = ()  # lines naming an HCA, a port or a state that were not understood


def parse(text: str) -> VerbsInfo:
    """Parse tab-indented `key: value` lines; numeric suffixes like "(4)" are dropped."""
    ports: list[dict[str, Any]] = []  # one row per record, filled field by field
    firmware: dict[str, str] = {}
    hca = None
    warnings: list[str] = []
    stray: list[str] = []
    no_devices = None
    for raw in clean_lines(text):
        line = raw.strip()
        if _WARNING.match(line):
            warnings.append(line)
            continue
        if _NO_DEVICES.match(line):
            no_devices = no_devices or line
            continue
        match = _KV.match(line.replace("\t", " "))
        named = _NAMED.search(line)
        if named and (match is None or match.group("key").strip() != named.group(1)):
            stray.append(line)
        if match is None:
            continue
        key, value = match.group("key").strip(), re.sub(r"\s*\(\d+\)$", "", match.group("val").strip())
        if key == "hca_id":
            hca = value
        elif key == "fw_ver" and hca:
            firmware[hca] = value
        elif key == "port" and hca and value.isdigit():
            ports.append(
                {
                    "hca": hca,
                    "port": int(value),
                    "state": None,
                    "physical_state": None,
                    "link_layer": None,
                    "active_mtu": None,
                    "lines": [line],
                }
            )
        elif ports and key in ("state", "phys_state", "link_layer", "active_mtu"):
            ports[-1][{"phys_state": "physical_state"}.get(key, key)] = value
            ports[-1]["lines"].append(line)
    return VerbsInfo(
        ports=tuple(VerbsPort(**{**p, "lines": tuple(p["lines"])}) for p in ports),
        firmware=firmware or None,
        warnings=tuple(warnings),
        no_devices=no_devices,
        stray=tuple(stray),
    )

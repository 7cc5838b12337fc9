"""`ethtool -i IFACE` (one or several blocks) -> NIC driver, driver version, firmware, bus."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines, is_unknown, split_kv

# `5.19.4-100.fc35.x86_64`, `6.4.0-rc2-net-next`: in-tree drivers report the kernel's release, not theirs
_KERNEL_RELEASE = re.compile(r"\d+\.\d+\.\d+-(?:\d|rc\d)\S*")


@dataclass(frozen=True)
class NicDriver:
    """One interface's driver information; fields None when empty or N/A."""

    interface: str | None
    driver: str | None
    version: str | None
    firmware: str | None
    bus_info: str | None
    lines: tuple[str, ...]

    @property
    def driver_version(self) -> str | None:
        """The driver's own version: None when absent or when it is the kernel's release (in-tree)."""
        if self.version is None or _KERNEL_RELEASE.fullmatch(self.version):
            return None
        return self.version


@dataclass(frozen=True)
class EthtoolInfo:
    """Every block found; the runner joins one block per interface, each headed `interface: NAME`."""

    nics: tuple[NicDriver, ...] = ()


def parse(text: str) -> EthtoolInfo:
    """Parse `key: value` blocks; a new `driver:` line starts a new NIC."""
    nics: list[dict[str, Any]] = []  # one row per record, filled field by field
    iface = None
    for line in clean_lines(text):
        stripped = line.strip()
        kv = split_kv(stripped)
        if kv is None:
            continue
        key, value = kv
        if key == "interface":
            iface = value or None
            continue
        if key == "driver":
            nics.append(
                {
                    "interface": iface,
                    "driver": None,
                    "version": None,
                    "firmware": None,
                    "bus_info": None,
                    "lines": [],
                }
            )
        if not nics:
            continue
        field = {
            "driver": "driver",
            "version": "version",
            "firmware-version": "firmware",
            "bus-info": "bus_info",
        }.get(key)
        if field:
            nics[-1][field] = None if is_unknown(value) else value
            nics[-1]["lines"].append(stripped)
    return EthtoolInfo(nics=tuple(NicDriver(**{**n, "lines": tuple(n["lines"])}) for n in nics))

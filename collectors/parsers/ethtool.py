"""`ethtool -i IFACE` (one or several blocks) -> NIC driver, driver version, firmware, bus."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines, is_unknown, split_kv

# `5.19.4-100.fc35.x86_64`, `6.4.0-rc2-net-next`, `5.11.0-net-next-alloc_pages_bul`: in-tree drivers report
# the kernel's release, not theirs; Intel's in-tree `-k` versions (`2.8.20-k`, `4.0.1-k-rh7.1`) are their own
_KERNEL_RELEASE = re.compile(r"\d+\.\d+\.\d+-(?!k(?:-|$))\S+")
# `6.7.4`, `6.12.49.mx64.487`: a bare release from 3.0 on, the kernel's or an out-of-tree one (ixgbe 5.19.6)
_BARE_RELEASE = re.compile(r"(\d+)\.\d+\.\d+(?:\+|\.[A-Za-z]\S*)?")
# Mellanox in-tree drivers print a fixed string, not a release: mlx5_core `5.0-0` (before it `3.0-1 (January
# 2015)`), mlx4_en `4.0-0`; MLNX_OFED prints its own release, `5.5-1.0.3`, `24.04-0.6.6` (dots after the dash)
_MLNX_IN_TREE = re.compile(r"\d+\.\d+-\d+(?: \(.*\))?")


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
    def in_tree_fixed(self) -> bool:
        """A Mellanox in-tree driver's fixed version string (`5.0-0`, `4.0-0`): its version is unknown."""
        mlnx = (self.driver or "").startswith(("mlx4", "mlx5"))
        return mlnx and self.version is not None and bool(_MLNX_IN_TREE.fullmatch(self.version))

    def driver_version(self, kernel_release: str | None = None) -> str | None:
        """The driver's own version: None when absent, when it is the kernel's release (in-tree) or a
        Mellanox in-tree driver's fixed string.

        `kernel_release` is the host's `uname -r`: a version equal to it or to its start is the kernel's.
        Without it a bare release from 3.0 on (`6.7.4`) may be either, so it is None too.
        """
        version = self.version
        if version is None or _KERNEL_RELEASE.fullmatch(version) or self.in_tree_fixed:
            return None
        if kernel_release:
            rest = kernel_release.removeprefix(version)
            return None if rest != kernel_release and not rest[:1].isdigit() else version
        bare = _BARE_RELEASE.fullmatch(version)
        return None if bare and int(bare.group(1)) >= 3 else version


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

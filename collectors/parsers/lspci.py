"""`lspci -vv` -> devices with their kernel driver and PCIe link capability vs status.

`-nn` adds numeric ids: `01:00.0 3D controller [0302]: NVIDIA Corporation GP107M [...] [10de:1c8c]`;
the class name is kept without its `[code]`, the code and the vendor:device pair go in their own fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines, to_float, to_int

_DEVICE = re.compile(
    r"^(?P<slot>(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+(?P<cls>[^:]+):\s*(?P<desc>.*)$"
)
_LINK = re.compile(
    r"Speed (?P<speed>[\d.]+)GT/s(?: \((?P<sflag>[^)]+)\))?,\s*"
    r"Width x(?P<width>\d+)(?: \((?P<wflag>[^)]+)\))?"
)


_CLASS_CODE = re.compile(r"^(?P<name>.*?)\s*\[(?P<code>[0-9a-fA-F]{4})\]$")
_IDS = re.compile(r"\[(?P<vendor>[0-9a-fA-F]{4}):(?P<device>[0-9a-fA-F]{4})\]")
# PCI display classes a GPU shows as: 0300 VGA compatible controller, 0302 3D controller
GPU_CLASSES = {"0300": "VGA compatible controller", "0302": "3D controller"}
_BUS = re.compile(r"^Bus: primary=[0-9a-fA-F]+, secondary=([0-9a-fA-F]+), subordinate=([0-9a-fA-F]+)")
_READ = re.compile(r"Kernel driver in use:|LnkCap:|LnkSta:|ACSCtl:|Bus: primary=|<access denied>")  # any line
# `_block` reads has one of these
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")  # how a slot address (a block's first line) starts


@dataclass(frozen=True)
class PciDevice:
    """One device block; link fields None when not shown (no capability, or not root)."""

    slot: str
    device_class: str
    description: str
    driver: str | None
    cap_speed_gts: float | None
    cap_width: int | None
    sta_speed_gts: float | None
    sta_width: int | None
    sta_flags: tuple[str, ...]  # "downgraded" / "ok" flags printed by newer lspci
    access_denied: bool
    cap_line: str
    sta_line: str
    acs_redirect: bool | None  # ACSCtl ReqRedir+ or CmpltRedir+ (P2P routed through the root complex)
    acs_line: str
    buses: tuple[int, int] | None = None  # a bridge's secondary..subordinate bus numbers
    class_code: str | None = None  # `-nn` only, e.g. "0302"
    vendor_id: str | None = None  # `-nn` only, e.g. "10de"
    device_id: str | None = None

    @property
    def gpu_class(self) -> bool:
        """A display controller: VGA compatible (0300) or 3D (0302), by code or by name."""
        return self.class_code in GPU_CLASSES or self.device_class in GPU_CLASSES.values()

    @property
    def vendor(self) -> str:
        """A lower-case vendor word from the description (nvidia, mellanox, intel, broadcom...)."""
        return self.description.split()[0].lower() if self.description else ""

    @property
    def bus(self) -> int | None:
        """The device's own bus number (from `bb:dd.f` or `dddd:bb:dd.f`)."""
        parts = self.slot.split(":")
        return int(parts[-2], 16) if len(parts) >= 2 else None

    @property
    def downgraded(self) -> bool | None:
        """True when the link runs slower or narrower than it can; None when unknown."""
        if None in (self.cap_speed_gts, self.sta_speed_gts, self.cap_width, self.sta_width):
            return None
        return self.slower or self.narrower

    @property
    def slower(self) -> bool:
        """The link runs at a lower speed than it can (what an idle GPU does to save power)."""
        cap, now = self.cap_speed_gts, self.sta_speed_gts
        return cap is not None and now is not None and now < cap

    @property
    def narrower(self) -> bool:
        """The link runs on fewer lanes than it can (never power saving)."""
        cap, now = self.cap_width, self.sta_width
        return cap is not None and now is not None and now < cap


@dataclass(frozen=True)
class Lspci:
    """All device blocks."""

    devices: tuple[PciDevice, ...] = ()


def _block(lines: list[str]) -> PciDevice | None:
    head = _DEVICE.match(lines[0].strip())
    if head is None:
        return None
    fields: dict[str, Any] = {  # filled line by line; PciDevice below types each field
        "driver": None,
        "cap": None,
        "sta": None,
        "cap_line": "",
        "sta_line": "",
        "acs": None,
        "acs_line": "",
    }
    denied = False
    for line in lines[1:]:
        text = line.strip()
        if text.startswith("Kernel driver in use:"):
            fields["driver"] = text.partition(":")[2].strip()
        elif text.startswith("LnkCap:"):
            fields["cap"], fields["cap_line"] = _LINK.search(text), text
        elif text.startswith("LnkSta:"):
            fields["sta"], fields["sta_line"] = _LINK.search(text), text
        elif text.startswith("ACSCtl:"):
            fields["acs"] = "ReqRedir+" in text or "CmpltRedir+" in text
            fields["acs_line"] = text
        elif (m := _BUS.search(text)) is not None:
            fields["buses"] = (int(m.group(1), 16), int(m.group(2), 16))
        elif "<access denied>" in text:
            denied = True
    cap, sta = fields["cap"], fields["sta"]
    cls = head.group("cls").strip()
    coded = _CLASS_CODE.match(cls)
    ids = _IDS.findall(head.group("desc"))
    return PciDevice(
        slot=head.group("slot"),
        device_class=coded.group("name") if coded else cls,
        class_code=coded.group("code").lower() if coded else None,
        vendor_id=ids[-1][0].lower() if ids else None,
        device_id=ids[-1][1].lower() if ids else None,
        description=head.group("desc").strip(),
        driver=fields["driver"],
        cap_speed_gts=to_float(cap.group("speed")) if cap else None,
        cap_width=to_int(cap.group("width")) if cap else None,
        sta_speed_gts=to_float(sta.group("speed")) if sta else None,
        sta_width=to_int(sta.group("width")) if sta else None,
        sta_flags=tuple(f for f in (sta.group("sflag"), sta.group("wflag")) if f) if sta else (),
        access_denied=denied,
        cap_line=str(fields["cap_line"]),
        sta_line=str(fields["sta_line"]),
        acs_redirect=fields["acs"],
        acs_line=str(fields["acs_line"]),
        buses=fields.get("buses"),
    )


def parse(text: str) -> Lspci:
    """Split into device blocks (a line starting with a slot address opens one); of a block's other
    lines only those `_block` reads are kept (about 5 of a device's 20-40)."""
    blocks: list[list[str]] = []
    for line in clean_lines(text):
        if line[:1] in _HEX_DIGITS and _DEVICE.match(line):
            blocks.append([line])
        elif blocks and _READ.search(line):
            blocks[-1].append(line)
    return Lspci(devices=tuple(d for b in blocks if (d := _block(b)) is not None))

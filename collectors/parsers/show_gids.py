"""`show_gids` (MLNX_OFED) -> each RDMA port's GID table: index, GID, IPv4, RoCE version, netdev."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_HEADER = re.compile(r"^DEV\s+PORT\s+INDEX\s+GID\s+IPv4\s+VER\s+DEV", re.I)
_ROW = re.compile(
    r"^(?P<dev>\S+)\s+(?P<port>\d+)\s+(?P<index>\d+)\s+(?P<gid>[0-9a-fA-F:]{20,})\s+"
    r"(?:(?P<ipv4>\d{1,3}(?:\.\d{1,3}){3})\s+)?(?P<ver>v[12])\s*(?P<netdev>\S*)$"
)
_COUNT = re.compile(r"^n_gids_found=(?P<n>\d+)$")


@dataclass(frozen=True)
class Gid:
    """One GID table row."""

    dev: str
    port: int
    index: int
    gid: str
    ipv4: str | None
    version: str  # "v1" | "v2"
    netdev: str
    line: str


@dataclass(frozen=True)
class GidTable:
    """Rows, the `n_gids_found=N` count (None when not printed) and whether the header was seen."""

    gids: tuple[Gid, ...] = ()
    count: int | None = None
    count_line: str = ""
    header: bool = False

    @property
    def usable(self) -> tuple[Gid, ...]:
        """RoCE v2 GIDs with an IPv4 address: routable, what NCCL should use."""
        return tuple(g for g in self.gids if g.version == "v2" and g.ipv4)


def parse(text: str) -> GidTable:
    """Header, rows, then the count line."""
    rows = []
    count = None
    count_line = ""
    header = False
    for raw in clean_lines(text):
        line = raw.strip()
        if _HEADER.match(line):
            header = True
        elif (m := _ROW.match(line)) is not None:
            rows.append(
                Gid(
                    m.group("dev"),
                    int(m.group("port")),
                    int(m.group("index")),
                    m.group("gid"),
                    m.group("ipv4"),
                    m.group("ver"),
                    m.group("netdev"),
                    line,
                )
            )
        elif (m := _COUNT.match(line)) is not None:
            count, count_line = int(m.group("n")), line
    return GidTable(tuple(rows), count, count_line, header)

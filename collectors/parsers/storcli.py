"""`storcli64 /call/vall show all` (and `/c0 show`, `show`) -> virtual drives' state and cache policy.

VD tables are read by their header: storcli prints `... Access Consist Cache Cac sCC Size Name`,
perccli2 `... Access CurrentCache DefaultCache Size Name`; the current policy is the one that counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_VD = re.compile(
    r"^(?P<dg>\d+|-)/(?P<vd>\d+)\s+(?P<type>\S+)\s+(?P<state>\S+)\s+(?P<access>\S+)\s+(?P<consist>\S+)\s+(?P<cache>\S+)"
)
_CONTROLLER = re.compile(r"^(?:Controller = (?P<a>\d+)|/c(?P<b>\d+)(?:/v\d+)?\s*:?)\s*$")


@dataclass(frozen=True)
class VirtualDrive:
    """One VD row; `write_policy` is "WB", "AWB" or "WT" decoded from the Cache column (e.g. NRWTD)."""

    controller: int | None
    vd: str
    raid: str
    state: str
    cache: str
    write_policy: str | None
    line: str


@dataclass(frozen=True)
class Controller:
    """A `show` overview row: BBU/CacheVault and health as abbreviated by storcli (Opt, Msng, Dgd...)."""

    ctl: int
    model: str
    bbu: str | None
    health: str | None
    line: str


@dataclass(frozen=True)
class StorCli:
    """VDs and controllers found; `cachevault_states` from `Cachevault_Info` tables (State column)."""

    vds: tuple[VirtualDrive, ...] = ()
    controllers: tuple[Controller, ...] = ()
    cachevault_states: tuple[tuple[str, str], ...] = ()  # (state, line)
    no_controller: bool = False
    declared_vds: int | None = None  # the `Virtual Drives = N` counts, summed over controllers


def write_policy(cache: str) -> str | None:
    """Decode storcli's Cache column: R/NR (read ahead), AWB/WB/WT (write), C/D (IO)."""
    for policy in ("AWB", "WB", "WT"):
        if policy in cache.upper():
            return policy
    return None


def _current_cache(header: list[str], line: str) -> str | None:
    """The row's cell under `CurrentCache` (perccli2) or `Cache` (storcli); None without that header.

    Every column before `Size` is one word, so the row's words line up with the header's up to it.
    """
    columns = header[: header.index("Size")] if "Size" in header else header
    cells = dict(zip(columns, line.split(), strict=False))
    return cells.get("CurrentCache") or cells.get("Cache")


def parse(text: str) -> StorCli:
    """Parse VD rows, the controller overview table and CacheVault state rows."""
    vds, controllers, cv_states = [], [], []
    controller: int | None = None
    header: list[str] | None = None
    no_controller = False
    declared: list[int] = []
    vd_header: list[str] = []
    for raw in clean_lines(text):
        line = raw.strip()
        if line.startswith("DG/VD"):
            vd_header = line.split()
        if (m := _CONTROLLER.match(line)) is not None:
            controller = int(m.group("a") or m.group("b"))
        elif (m := re.match(r"Virtual Drives\s*=?\s*(\d+)$", line)) is not None:
            declared.append(int(m.group(1)))
        elif "Number of Controllers = 0" in line or "No Controller found" in line:
            no_controller = True
        elif (m := _VD.match(line)) is not None and m.group("type").upper().startswith(
            ("RAID", "NYTRO", "JBOD")
        ):
            cache = _current_cache(vd_header, line) or m.group("cache")
            vds.append(
                VirtualDrive(
                    controller=controller,
                    vd=f"{m.group('dg')}/{m.group('vd')}",
                    raid=m.group("type"),
                    state=m.group("state"),
                    cache=cache,
                    write_policy=write_policy(cache),
                    line=line,
                )
            )
        elif line.startswith("Ctl Model"):
            header = line.split()
        elif header and re.match(r"^\d+\s", line):
            row = dict(zip(header, line.split(), strict=False))
            controllers.append(
                Controller(
                    ctl=int(row["Ctl"]),
                    model=row.get("Model", ""),
                    bbu=row.get("BBU"),
                    health=row.get("Hlth"),
                    line=line,
                )
            )
        elif line.startswith("-") or not line:
            continue
        elif re.match(r"^(CVPM|CacheVault|Cachevault)\S*\s+\S+", line) and re.search(
            r"\b(Optimal|Degraded|Failed|Missing|Learning|Charging)\b", line
        ):
            state = re.search(r"\b(Optimal|Degraded|Failed|Missing|Learning|Charging)\b", line).group(1)  # type: ignore[union-attr]
            cv_states.append((state, line))
        else:
            header = None if header and not re.match(r"^\d", line) and "=" in line else header
    return StorCli(
        vds=tuple(vds),
        controllers=tuple(controllers),
        cachevault_states=tuple(cv_states),
        no_controller=no_controller,
        declared_vds=sum(declared) if declared else None,
    )

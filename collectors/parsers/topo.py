"""`nvidia-smi topo -m` -> the GPU/NIC connection matrix with CPU and NUMA affinity per GPU."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers import smi_error
from pitstop.collectors.parsers._text import clean_lines, to_int

_SPLIT = re.compile(r"\t| {2,}")
_GPU_NAME = re.compile(r"GPU\d+")
_NVLINKS = re.compile(r"NV(\d+)")


@dataclass(frozen=True)
class TopoDevice:
    """One matrix row: `links` maps every other column device to its connection (NV12, PIX, SYS...)."""

    name: str
    links: dict[str, str]
    cpu_affinity: str | None
    numa_node: int | None
    line: str

    @property
    def is_gpu(self) -> bool:
        """GPU rows are named GPU0, GPU1..."""
        return _GPU_NAME.fullmatch(self.name) is not None


@dataclass(frozen=True)
class Topology:
    """All rows of the matrix."""

    devices: tuple[TopoDevice, ...] = ()
    header_line: str = ""
    error: smi_error.SmiError | None = None

    @property
    def gpus(self) -> tuple[TopoDevice, ...]:
        """The GPU rows."""
        return tuple(d for d in self.devices if d.is_gpu)

    @property
    def nics(self) -> tuple[str, ...]:
        """Names of the non-GPU devices (NICs, HCAs)."""
        return tuple(d.name for d in self.devices if not d.is_gpu)

    def nvlinks_between(self, a: str, b: str) -> int | None:
        """NVLink count between two GPUs (0 when the path is PCIe), None when unknown."""
        row = next((d for d in self.devices if d.name == a), None)
        conn = row.links.get(b) if row else None
        if conn is None:
            return None
        match = _NVLINKS.fullmatch(conn)
        return int(match.group(1)) if match else 0


def parse(text: str) -> Topology:
    """Parse the matrix; tolerates ANSI in the header, `-mp` output and a missing NUMA header."""
    lines = clean_lines(text)
    header: list[str] = []
    header_line = ""
    devices = []
    for line in lines:
        cells = [c.strip() for c in _SPLIT.split(line)]
        if not header:
            # The header names the columns; a row (it has its own `X` cell) never is one, or a header
            # mangled past reading ("GPU0GPU1GPU2...") would make GPU0's row the column names.
            if "GPU0" in cells and "X" not in cells:
                header, header_line = cells[1:] if cells[0] == "" else cells, line
            continue
        if not line.strip() or line.startswith("Legend"):
            break
        name, values = cells[0], cells[1:]
        links = {}
        cpu = numa = None
        for col, value in zip(header, values, strict=False):
            if col == "CPU Affinity":
                cpu = value or None
            elif col == "NUMA Affinity":
                numa = to_int(value)
            elif col and col != name and value and col != "GPU NUMA ID":
                links[col] = value
        extra = values[len(header) :]
        if numa is None and "NUMA Affinity" not in header and extra:
            numa = to_int(extra[0])  # some captures lose the "NUMA Affinity" header cell
        devices.append(
            TopoDevice(name=name, links=links, cpu_affinity=cpu, numa_node=numa, line=line.strip())
        )
    return Topology(
        devices=tuple(devices),
        header_line=header_line.strip(),
        error=smi_error.detect(text) if not devices else None,
    )

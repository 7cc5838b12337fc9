"""`lscpu` -> the key/value table plus the few fields checks use."""

from __future__ import annotations

from dataclasses import dataclass, field

from pitstop.collectors.parsers._text import clean_lines, split_kv, to_float, to_int
from pitstop.collectors.parsers.numactl import cpu_list


@dataclass(frozen=True)
class Lscpu:
    """All fields as printed, and typed views of the common ones."""

    fields: dict[str, str] = field(default_factory=dict)
    lines: dict[str, str] = field(default_factory=dict)

    @property
    def sockets(self) -> int | None:
        """Socket count."""
        return to_int(self.fields.get("Socket(s)"))

    @property
    def numa_nodes(self) -> int | None:
        """NUMA node count."""
        return to_int(self.fields.get("NUMA node(s)"))

    @property
    def model_name(self) -> str | None:
        """CPU model."""
        return self.fields.get("Model name")

    @property
    def hypervisor(self) -> str | None:
        """Hypervisor vendor when virtualised."""
        return self.fields.get("Hypervisor vendor")

    @property
    def max_mhz(self) -> float | None:
        """CPU max MHz."""
        return to_float(self.fields.get("CPU max MHz"))

    def node_cpus(self) -> dict[int, tuple[int, ...]]:
        """NUMA node -> CPUs from the `NUMA nodeN CPU(s)` lines."""
        out = {}
        for key, value in self.fields.items():
            if key.startswith("NUMA node") and key.endswith("CPU(s)"):
                node = to_int(key[len("NUMA node") :].split()[0])
                if node is not None:
                    out[node] = cpu_list(value)
        return out


def parse(text: str) -> Lscpu:
    """Split each `Key: value` line; continuation lines without a key are ignored."""
    fields: dict[str, str] = {}
    lines: dict[str, str] = {}
    for raw in clean_lines(text):
        kv = split_kv(raw)
        if kv and kv[0]:
            fields[kv[0]], lines[kv[0]] = kv[1], raw.strip()
    return Lscpu(fields=fields, lines=lines)

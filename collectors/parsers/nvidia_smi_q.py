"""`nvidia-smi -q` (and its `-d SECTION` / grep fragments) -> per-GPU facts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pitstop.collectors.parsers import memo, smi_error
from pitstop.collectors.parsers._text import clean_lines, is_unknown, to_bool, to_float, to_int
from pitstop.collectors.parsers.gpu import Gpu, GpuProcess

_GPU_HEADER = re.compile(r"^GPU\s+(?P<bus>[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])\s*$")
_REASON_NAMES = {
    "idle": "gpu_idle",
    "applications clocks setting": "applications_clocks_setting",
    "sw power cap": "sw_power_cap",
    "hw slowdown": "hw_slowdown",
    "hw thermal slowdown": "hw_thermal_slowdown",
    "hw power brake slowdown": "hw_power_brake_slowdown",
    "sync boost": "sync_boost",
    "sw thermal slowdown": "sw_thermal_slowdown",
    "display clock setting": "display_clock_setting",
}


class _Lines:
    """The output's meaningful lines (blank, `====` and `[...]` lines left out): each as printed, its
    text without the indent, and the indent (tabs at 8). A node's children are read from here when
    first asked for, so a parse builds nodes only for the parts of the tree it looks at."""

    __slots__ = ("raws", "texts", "indents")

    def __init__(self, text: str) -> None:
        lines = clean_lines(text)
        if "\t" in text:
            lines_at = [line.expandtabs(8) if "\t" in line else line for line in lines]
        else:
            lines_at = lines
        stripped = [line.lstrip() for line in lines_at]
        kept = [i for i, s in enumerate(stripped) if s and s[0] != "=" and not s.startswith("[...]")]
        self.raws = [lines[i] for i in kept]
        self.texts = [stripped[i] for i in kept]
        self.indents = [len(lines_at[i]) - len(stripped[i]) for i in kept]

    def node(self, at: int) -> _Node:
        """The node of kept line `at`: a GPU header, a `Key : value` line or a bare line."""
        stripped, raw, indent = self.texts[at], self.raws[at], self.indents[at]
        header = _GPU_HEADER.match(stripped) if stripped.startswith("GPU") else None
        key, colon, value = stripped.partition(":")  # "Key   : value" (a value needs a blank first)
        if header:
            return _Node("GPU", header.group("bus"), raw, indent, self, at)
        if colon and (not value or value[0].isspace()):
            return _Node(key.rstrip(), value.strip(), raw, indent, self, at)
        return _Node(stripped, None, raw, indent, self, at)

    def children(self, at: int, indent: int) -> list[_Node]:
        """The lines directly under line `at` (indent `indent`): each following line indented deeper
        than `at` and no deeper than the child before it, up to the first line not deeper than `at`."""
        indents = self.indents
        found: list[_Node] = []
        level = -1
        for j in range(at + 1, len(indents)):
            here = indents[j]
            if here <= indent:
                break
            if level < 0 or here <= level:
                found.append(self.node(j))
                level = here
        return found


class _Node:
    """One line of the output and the lines indented under it (read from `_Lines` on first use)."""

    __slots__ = ("key", "value", "line", "indent", "_src", "_at", "_children", "_first")

    def __init__(
        self, key: str, value: str | None, line: str, indent: int, src: _Lines | None = None, at: int = -1
    ) -> None:
        self.key, self.value, self.line, self.indent = key, value, line, indent
        self._src, self._at = src, at
        self._children: list[_Node] | None = None
        self._first: dict[str, int] | None = None  # lower-case key -> index of its first child, on first use

    @property
    def children(self) -> list[_Node]:
        """The lines directly under this one."""
        if self._children is None:
            self._children = [] if self._src is None else self._src.children(self._at, self.indent)
        return self._children

    @children.setter
    def children(self, nodes: list[_Node]) -> None:
        self._children, self._first = nodes, None

    def find(self, *keys: str) -> _Node | None:
        """The first child whose key matches one of `keys` (case-insensitive)."""
        first = self._first
        children = self.children
        if first is None:
            first = self._first = {}
            for i, child in enumerate(children):
                first.setdefault(child.key.lower(), i)
        if len(keys) == 1:
            at = first.get(keys[0].lower())
            return None if at is None else children[at]
        found = [first[k] for k in map(str.lower, keys) if k in first]
        return children[min(found)] if found else None

    def get(self, *path: str) -> _Node | None:
        node: _Node | None = self
        for step in path:
            node = node.find(*step.split("|")) if node else None
        return node


@dataclass(frozen=True)
class SmiQuery:
    """The whole `nvidia-smi -q` output: header values, GPUs, or the error nvidia-smi printed."""

    driver_version: str | None = None
    cuda_version: str | None = None
    attached_gpus: int | None = None
    gpus: tuple[Gpu, ...] = ()
    error: smi_error.SmiError | None = None
    lines: dict[str, str] = field(default_factory=dict)


def _tree(text: str) -> _Node:
    """The root of the output's tree (indentation is nesting; children are read when asked for)."""
    return _Node("", None, "", -1, _Lines(text), -1)


def _value(node: _Node | None) -> str | None:
    return None if node is None or is_unknown(node.value) else node.value


def _mig(node: _Node | None) -> str | None:
    """ "Enabled"/"Disabled", "N/A" for a GPU without MIG, None when not shown."""
    if node is not None and (node.value or "").strip().lower() == "n/a":
        return "N/A"
    return _value(node)


def _sum(nodes: list[_Node | None]) -> int | None:
    values = [to_int(n.value) for n in nodes if n is not None]
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _ecc(block: _Node | None) -> tuple[int | None, int | None]:
    """(corrected, uncorrected) of an ECC Volatile/Aggregate block across driver layouts."""
    if block is None:
        return None, None
    corrected: list[_Node | None] = []
    uncorrected: list[_Node | None] = []
    for child in block.children:
        key = child.key.lower()
        if key in ("single bit", "double bit"):  # pre-R450 layout: use the Total line
            target = corrected if key == "single bit" else uncorrected
            target.append(child.find("Total"))
        elif "uncorrectable" in key:
            uncorrected.append(child)
        elif "correctable" in key:
            corrected.append(child)
    return _sum(corrected), _sum(uncorrected)


def _processes(node: _Node | None) -> tuple[GpuProcess, ...] | None:
    if node is None:
        return None
    if node.value and node.value.lower() == "none":
        return ()
    procs = []
    for child in node.children:
        if child.key.lower() == "process id":
            procs.append(
                GpuProcess(
                    pid=to_int(child.value),
                    name=_value(child.find("Name")) or "",
                    used_mib=to_int(_value(child.find("Used GPU Memory"))),
                )
            )
    return tuple(procs)


def _gpu(node: _Node, index: int, driver: str | None) -> Gpu:
    lines: dict[str, str] = {}

    def pick(name: str, *path: str) -> _Node | None:
        found = node.get(*path)
        if found is not None:
            lines[name] = found.line.strip()
        return found

    reasons_node = node.get("Clocks Event Reasons|Clocks Throttle Reasons|Clocks Reasons")
    clock_events: dict[str, bool] | None = None
    if reasons_node is not None:
        clock_events = {}  # filled below, then None again when empty
        pending = list(reasons_node.children)
        while pending:
            child = pending.pop(0)
            pending.extend(child.children)
            name = _REASON_NAMES.get(child.key.lower())
            active = to_bool(child.value)
            if name and active is not None:
                clock_events[name] = active
                lines[f"clock_events.{name}"] = child.line.strip()
        clock_events = clock_events or None
    ecc = node.get("ECC Errors")
    vol_c, vol_u = _ecc(ecc.get("Volatile") if ecc else None)
    agg_c, agg_u = _ecc(ecc.get("Aggregate") if ecc else None)
    for label, block in (("volatile", "Volatile"), ("aggregate", "Aggregate")):
        sub = ecc.get(block) if ecc else None
        for child in sub.children if sub else ():
            if "uncorrectable" in child.key.lower() and to_int(child.value):
                lines.setdefault(f"ecc_{label}_uncorrected", child.line.strip())
            elif "correctable" in child.key.lower() and to_int(child.value):
                lines.setdefault(f"ecc_{label}_corrected", child.line.strip())
    power = node.get("GPU Power Readings|Power Readings")
    draw = power.get("Power Draw|Average Power Draw|Instantaneous Power Draw") if power else None
    limit = power.get("Current Power Limit|Power Limit|Enforced Power Limit") if power else None
    maxlimit = power.get("Max Power Limit") if power else None
    for name, found in (("power_draw_w", draw), ("power_limit_w", limit), ("max_power_limit_w", maxlimit)):
        if found is not None:
            lines[name] = found.line.strip()
    fb = node.get("FB Memory Usage")
    return Gpu(
        index=index,
        bus_id=node.value if node.key == "GPU" else _value(pick("bus_id", "PCI", "Bus Id")),
        name=_value(pick("name", "Product Name")),
        serial=_value(pick("serial", "Serial Number")),
        uuid=_value(pick("uuid", "GPU UUID")),
        driver_version=driver,
        vbios_version=_value(pick("vbios_version", "VBIOS Version")),
        temperature_c=to_float(_value(pick("temperature_c", "Temperature", "GPU Current Temp"))),
        slowdown_temp_c=to_float(_value(pick("slowdown_temp_c", "Temperature", "GPU Slowdown Temp"))),
        power_draw_w=to_float(_value(draw)),
        power_limit_w=to_float(_value(limit)),
        max_power_limit_w=to_float(_value(maxlimit)),
        clock_events=clock_events,
        sm_clock_mhz=to_float(_value(pick("sm_clock_mhz", "Clocks", "SM"))),
        max_sm_clock_mhz=to_float(_value(pick("max_sm_clock_mhz", "Max Clocks", "SM"))),
        ecc_mode=_value(pick("ecc_mode", "ECC Mode", "Current")),
        ecc_volatile_corrected=vol_c,
        ecc_volatile_uncorrected=vol_u,
        ecc_aggregate_corrected=agg_c,
        ecc_aggregate_uncorrected=agg_u,
        retired_sbe=to_int(_value(pick("retired_sbe", "Retired Pages", "Single Bit ECC"))),
        retired_dbe=to_int(_value(pick("retired_dbe", "Retired Pages", "Double Bit ECC"))),
        retired_pending=to_bool(
            _value(pick("retired_pending", "Retired Pages", "Pending Page Blacklist|Pending"))
        ),
        remap_correctable=to_int(_value(pick("remap_correctable", "Remapped Rows", "Correctable Error"))),
        remap_uncorrectable=to_int(
            _value(pick("remap_uncorrectable", "Remapped Rows", "Uncorrectable Error"))
        ),
        remap_pending=to_bool(_value(pick("remap_pending", "Remapped Rows", "Pending"))),
        remap_failure=to_bool(_value(pick("remap_failure", "Remapped Rows", "Remapping Failure Occurred"))),
        pcie_gen_current=to_int(
            _value(pick("pcie_gen_current", "PCI", "GPU Link Info", "PCIe Generation", "Current"))
        ),
        pcie_gen_max=to_int(_value(pick("pcie_gen_max", "PCI", "GPU Link Info", "PCIe Generation", "Max"))),
        pcie_width_current=to_int(
            _value(pick("pcie_width_current", "PCI", "GPU Link Info", "Link Width", "Current"))
        ),
        pcie_width_max=to_int(_value(pick("pcie_width_max", "PCI", "GPU Link Info", "Link Width", "Max"))),
        pcie_gen_device_max=to_int(
            _value(pick("pcie_gen_device_max", "PCI", "GPU Link Info", "PCIe Generation", "Device Max"))
        ),
        persistence_mode=to_bool(_value(pick("persistence_mode", "Persistence Mode"))),
        mig_mode=_mig(pick("mig_mode", "MIG Mode", "Current")),
        compute_mode=_value(pick("compute_mode", "Compute Mode")),
        utilization_pct=to_float(_value(pick("utilization_pct", "Utilization", "GPU"))),
        memory_used_mib=to_int(_value(pick("memory_used_mib", "FB Memory Usage", "Used"))) if fb else None,
        memory_total_mib=to_int(_value(fb.find("Total"))) if fb else None,
        processes=_processes(node.find("Processes")),
        recovery_action=_value(pick("recovery_action", "GPU Recovery Action")),
        fabric_state=_value(pick("fabric_state", "Fabric", "State")),
        fabric_status=_value(pick("fabric_status", "Fabric", "Status")),
        fabric_clique_id=_value(pick("fabric_clique_id", "Fabric", "CliqueId")),
        fabric_cluster_uuid=_value(pick("fabric_cluster_uuid", "Fabric", "ClusterUUID")),
        source="nvidia-smi -q",
        lines=lines,
    )


@memo.once
def parse(text: str) -> SmiQuery:
    """Parse full output, a `-d` section or a grep fragment; an nvidia-smi error becomes `error`
    (once per text within a host's facts: the NVML probe's fallback carries the same output)."""
    root = _tree(text)
    top = {c.key.lower(): c for c in root.children}
    driver = _value(top.get("driver version"))
    gpu_nodes = [c for c in root.children if c.key == "GPU"]
    error = None if gpu_nodes else smi_error.detect(text)  # error texts come instead of GPU blocks
    if not gpu_nodes and any(c.children or c.indent > 0 for c in root.children) and error is None:
        # A section fragment without the GPU header (e.g. `-d ECC` as quoted): one anonymous GPU.
        anonymous = _Node("", None, "", -1)
        anonymous.children = [c for c in root.children if c.children]
        gpu_nodes = [anonymous]
    gpus = tuple(_gpu(node, i, driver) for i, node in enumerate(gpu_nodes))
    lines: dict[str, str] = {k: top[k].line.strip() for k in ("driver version", "cuda version") if k in top}
    return SmiQuery(
        driver_version=driver,
        cuda_version=_value(top.get("cuda version")),
        attached_gpus=to_int(_value(top.get("attached gpus"))),
        gpus=gpus,
        error=error,
        lines=lines,
    )

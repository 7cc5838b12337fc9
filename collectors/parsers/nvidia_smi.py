"""The default `nvidia-smi` table -> driver/CUDA versions, per-GPU rows, processes, or the error text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers import smi_error
from pitstop.collectors.parsers._text import clean_lines, is_unknown, to_float, to_int
from pitstop.collectors.parsers.gpu import GpuProcess

_HEADER = re.compile(
    r"(?:Driver|KMD) Version:\s*(?P<driver>[\d.]+)(?:.*CUDA (?:UMD )?Version:\s*(?P<cuda>[\d.]+))?"
)
_ROW1 = re.compile(
    r"^\|\s*(?P<index>\d+)\s+(?P<name>.+?)\s+(?P<persist>On|Off|WDDM|TCC|MCDM|N/A)\s*\|\s*(?P<bus>[0-9A-Fa-f]+:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d|N/A)\s+(?P<disp>\S+)\s*\|\s*(?P<ecc>\S+)\s*\|"
)
_ROW2 = re.compile(
    r"^\|\s*(?P<fan>\S+)\s+(?P<temp>\S+)\s+(?P<perf>\S+)\s+(?P<pwr>\S+)\s*/\s*(?P<cap>\S+)\s*\|\s*(?P<used>\S+)\s*/\s*(?P<total>\S+)\s*\|\s*(?P<util>\S+)\s+(?P<compute>.+?)\s*\|"
)
_ROW3 = re.compile(r"^\|\s*\|\s*\|\s*(?P<mig>[^\s|]+)\s*\|$")
_PROC = re.compile(
    r"^\|\s*(?P<gpu>\d+)\s+(?:(?P<gi>\S+)\s+(?P<ci>\S+)\s+)?(?P<pid>\d+)\s+(?P<type>C\+G|C|G)\s+(?P<name>.+?)\s+(?P<mem>\d+MiB|N/A)\s*\|"
)


@dataclass(frozen=True)
class SmiGpuRow:
    """One GPU's rows of the table; `errors` names the columns that show ERR!."""

    index: int
    name: str
    bus_id: str
    persistence_mode: bool | None  # None on Windows, where the column is the driver model
    temperature_c: float | None
    perf_state: str | None
    power_draw_w: float | None
    power_cap_w: float | None
    memory_used_mib: int | None
    memory_total_mib: int | None
    utilization_pct: float | None
    compute_mode: str | None
    mig_mode: str | None
    ecc_uncorrected: int | None
    errors: tuple[str, ...]
    line: str
    lines: tuple[str, ...] = ()  # the table lines themselves, as printed


@dataclass(frozen=True)
class SmiTable:
    """The parsed table, or `error` when nvidia-smi printed one of its failure messages."""

    driver_version: str | None = None
    cuda_version: str | None = None
    gpus: tuple[SmiGpuRow, ...] = ()
    processes: tuple[tuple[int, GpuProcess], ...] = ()  # (gpu index, process)
    error: smi_error.SmiError | None = None
    header_line: str = ""


def parse(text: str) -> SmiTable:
    """Parse the table; tolerate truncation, missing process tables and Windows/WDDM layouts."""
    lines = clean_lines(text)
    driver = cuda = None
    header_line = ""
    gpus: list[SmiGpuRow] = []
    procs: list[tuple[int, GpuProcess]] = []
    pending: dict[str, Any] | None = None
    in_procs = False

    def flush() -> None:
        nonlocal pending
        if pending:
            gpus.append(SmiGpuRow(**{**pending, "lines": tuple(pending["lines"])}))
        pending = None

    for line in lines:
        if (m := _HEADER.search(line)) and driver is None:
            driver, cuda, header_line = m.group("driver"), m.group("cuda"), line.strip()
        if line.startswith("+"):  # the separator after a GPU's rows
            flush()
        if "Processes:" in line:
            flush()
            in_procs = True
            continue
        if in_procs:
            if (p := _PROC.match(line)) is not None:
                procs.append(
                    (
                        int(p.group("gpu")),
                        GpuProcess(
                            pid=int(p.group("pid")), name=p.group("name"), used_mib=to_int(p.group("mem"))
                        ),
                    )
                )
            continue
        if (m1 := _ROW1.match(line)) is not None:
            flush()
            ecc = m1.group("ecc")
            pending = {
                "index": int(m1.group("index")),
                "name": m1.group("name").strip(),
                "bus_id": None if is_unknown(m1.group("bus")) else m1.group("bus"),  # N/A: Jetson's nvgpu
                "persistence_mode": {"On": True, "Off": False}.get(m1.group("persist")),
                "temperature_c": None,
                "perf_state": None,
                "power_draw_w": None,
                "power_cap_w": None,
                "memory_used_mib": None,
                "memory_total_mib": None,
                "utilization_pct": None,
                "compute_mode": None,
                "mig_mode": None,
                "ecc_uncorrected": to_int(ecc) if ecc.isdigit() else None,
                "errors": tuple(
                    col for col, val in (("ecc", ecc), ("display", m1.group("disp"))) if val == "ERR!"
                ),
                "line": line.strip(),
                "lines": [line.strip()],
            }
        elif (
            pending is not None and (m2 := _ROW2.match(line)) is not None and pending["temperature_c"] is None
        ):
            errs = [col for col in ("fan", "temp", "pwr", "util") if m2.group(col) == "ERR!"]
            pending.update(
                {
                    "temperature_c": to_float(m2.group("temp")),
                    "perf_state": None if is_unknown(m2.group("perf")) else m2.group("perf"),
                    "power_draw_w": to_float(m2.group("pwr")),
                    "power_cap_w": to_float(m2.group("cap")),
                    "memory_used_mib": to_int(m2.group("used")),
                    "memory_total_mib": to_int(m2.group("total")),
                    "utilization_pct": to_float(m2.group("util")),
                    "compute_mode": None if is_unknown(m2.group("compute")) else m2.group("compute"),
                    "errors": tuple(pending["errors"]) + tuple(errs),
                    "line": f"{pending['line']} / {line.strip()}",
                    "lines": [*pending["lines"], line.strip()],
                }
            )
        elif pending is not None and (m3 := _ROW3.match(line)) is not None:
            mig = m3.group("mig")
            pending["mig_mode"] = None if is_unknown(mig) else mig
            pending["lines"] = [*pending["lines"], line.strip()]
            if mig == "ERR!":
                pending["errors"] = tuple(pending["errors"]) + ("mig",)
    flush()
    return SmiTable(
        driver_version=driver,
        cuda_version=cuda,
        gpus=tuple(gpus),
        processes=tuple(procs),
        error=smi_error.detect(text) if not gpus else None,
        header_line=header_line,
    )

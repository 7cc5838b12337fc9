"""`cpupower frequency-info` (and legacy `cpufreq-info`) -> driver, governor, limits, boost."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines, is_unknown


@dataclass(frozen=True)
class CpuFreq:
    """The first CPU's frequency policy; `driver` None when no cpufreq driver is active (common in VMs)."""

    driver: str | None = None
    governor: str | None = None
    available_governors: tuple[str, ...] = ()
    current_mhz: float | None = None
    boost_supported: bool | None = None
    boost_active: bool | None = None
    no_driver: bool = False
    governor_line: str = ""
    driver_line: str = ""


def _mhz(text: str) -> float | None:
    match = re.search(r"([\d.]+)\s*(GHz|MHz)", text)
    if not match:
        return None
    return float(match.group(1)) * (1000 if match.group(2) == "GHz" else 1)


def _unavailable(value: str) -> bool:
    """cpupower's placeholder for a field the kernel does not expose ("Not Available")."""
    return is_unknown(value) or value.strip().lower() == "not available"


def parse(text: str) -> CpuFreq:
    """Read the first `analyzing CPU` block (policies are usually identical across CPUs)."""
    out: dict[str, object] = {"available_governors": ()}
    boost_section = False
    for raw in clean_lines(text):
        line = raw.strip()
        if line.startswith("analyzing CPU") and "driver" in out:
            break
        if "no or unknown cpufreq driver" in line:
            out.update(no_driver=True, driver_line=line)
        elif line.startswith("driver:"):
            value = line.partition(":")[2].strip()
            out.update(driver=None if _unavailable(value) else value, driver_line=line)
        elif line.startswith("available cpufreq governors:"):
            value = line.partition(":")[2]
            out["available_governors"] = () if _unavailable(value) else tuple(value.replace(",", " ").split())
        elif (m := re.search(r'governor "(?P<g>[^"]+)"', line)) is not None:
            out.update(governor=m.group("g"), governor_line=line)
        elif line.startswith("current CPU frequency:") and _mhz(line) is not None:
            out["current_mhz"] = _mhz(line)
        elif line.startswith("boost state support"):
            boost_section = True
        elif boost_section and line.startswith(("Supported:", "Active:")):
            key = "boost_supported" if line.startswith("Supported") else "boost_active"
            out[key] = line.partition(":")[2].strip().lower() == "yes"
    return CpuFreq(**out)  # type: ignore[arg-type]

"""Fixed probe programs sent to a host's python3 (on stdin or with -c); read-only, standard library only."""

from __future__ import annotations

from pathlib import Path

PROBES_DIR = Path(__file__).parent


def nvml_probe_source() -> str:
    """The NVML probe script, as sent on stdin to `python3 -`."""
    return (PROBES_DIR / "nvml_probe.py").read_text(encoding="utf-8")

"""The error texts nvidia-smi prints instead of output; each is evidence in itself."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

# kind -> pattern; the order matters (the first match wins).
ERRORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("version_mismatch", re.compile(r"Driver/library version mismatch", re.I)),
    ("no_driver", re.compile(r"couldn.t communicate with the NVIDIA driver", re.I)),
    ("no_devices", re.compile(r"^No devices were found", re.I)),
    ("gpu_lost", re.compile(r"GPU is lost", re.I)),
    # the handle lookup failed for another reason ("Unknown Error"...): not by itself a lost GPU
    ("device_handle_error", re.compile(r"Unable to determine the device handle for GPU", re.I)),
    ("nvml_init_failed", re.compile(r"Failed to initialize NVML", re.I)),
    ("no_nvlink", re.compile(r"does not have or support Nvlink", re.I)),
    ("not_found", re.compile(r"nvidia-smi: (command )?not found|No such file or directory", re.I)),
)


@dataclass(frozen=True)
class SmiError:
    """A recognised nvidia-smi failure: kind, decisive line, and the NVML library version if printed."""

    kind: str
    line: str
    nvml_library_version: str | None = None


def detect(text: str) -> SmiError | None:
    """Find the first known nvidia-smi error in `text` (tolerates curly apostrophes and wrapped lines)."""
    lines = [line.strip() for line in clean_lines(text) if line.strip()]
    lines = lines if len(lines) <= 60 else lines[:50] + lines[-10:]  # errors are short; skip big outputs
    library = next(
        (m.group(1) for line in lines if (m := re.match(r"NVML library version:\s*(\S+)", line))), None
    )
    for kind, pattern in ERRORS:
        for line in lines:
            if pattern.search(line):
                return SmiError(kind=kind, line=line, nvml_library_version=library)
    return None

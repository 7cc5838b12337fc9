"""`nvcc -V` -> the CUDA toolkit release."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class NvccVersion:
    """The toolkit release ("10.0") and full version ("10.0.130"), None when absent."""

    release: str | None = None
    version: str | None = None
    line: str = ""


def parse(text: str) -> NvccVersion:
    """Find `Cuda compilation tools, release X, VX.Y.Z`."""
    for raw in clean_lines(text):
        if (m := re.search(r"release (\d+\.\d+), V(\S+)", raw)) is not None:
            return NvccVersion(release=m.group(1), version=m.group(2), line=raw.strip())
    return NvccVersion()

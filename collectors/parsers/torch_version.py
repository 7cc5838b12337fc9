"""The torch probe's line `<torch.__version__> <torch.version.cuda> <is_available|-> [...]` -> the build."""

from __future__ import annotations

import re
from dataclasses import dataclass

from collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class TorchBuild:
    """`cuda` None for CPU-only builds; `cuda_available` None when not measured or unreadable."""

    version: str | None = None
    cuda: str | None = None
    cuda_available: bool | None = None
    not_installed: bool = False
    line: str = ""

    @property
    def cpu_only(self) -> bool | None:
        """True for a CPU-only wheel (`+cpu` suffix or no CUDA version); None when torch was not read."""
        if self.version is None:
            return None
        return self.version.endswith("+cpu") or self.cuda is None


_BOOL = {"True": True, "False": False}


def parse(text: str) -> TorchBuild:
    """Read the last line that starts with a version number; `No module named 'torch'` -> not installed."""
    if re.search(r"No module named '?torch'?", text or ""):
        return TorchBuild(not_installed=True, line="No module named 'torch'")
    for raw in reversed(clean_lines(text)):
        words = raw.split()
        if len(words) >= 2 and re.match(r"^\d+\.\d+", words[0]):
            cuda = None if words[1] == "None" else words[1]
            return TorchBuild(
                version=words[0], cuda=cuda, cuda_available=_BOOL.get(words[-1]), line=raw.strip()
            )
    return TorchBuild()

"""The torch probe's line `<torch.__version__> <torch.version.cuda> <is_available|-> [...]` -> the build,
plus the optional `arch_list sm_80 ...` and `nccl 2.21.5` lines of newer probes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class TorchBuild:
    """`cuda` None for CPU-only builds; `cuda_available` None when not measured or unreadable."""

    version: str | None = None
    cuda: str | None = None
    cuda_available: bool | None = None
    not_installed: bool = False
    line: str = ""
    arch_list: tuple[str, ...] | None = None  # None: not printed (an older probe)
    nccl: str | None = None

    @property
    def cpu_only(self) -> bool | None:
        """True for a CPU-only wheel (`+cpu` suffix or no CUDA version); None when torch was not read."""
        if self.version is None:
            return None
        return self.version.endswith("+cpu") or self.cuda is None


_BOOL = {"True": True, "False": False}
_VERSION = re.compile(r"^\d+\.\d+(?:\.\d+)?(?:[a-z+][\w.+]*)?$")
_CUDA = re.compile(r"^(?:None|\d+\.\d+(?:\.\d+)?)$")
_AVAILABLE = re.compile(r"^(?:True|False|-)$")


def _version_line(words: list[str]) -> bool:
    """`2.5.1+cu121 12.1 True`, `2.13.0+cpu None -`: a version, a CUDA version or None, availability."""
    if len(words) < 2 or not (_VERSION.match(words[0]) and _CUDA.match(words[1])):
        return False
    return len(words) == 2 or bool(_AVAILABLE.match(words[2]))


def parse(text: str) -> TorchBuild:
    """Read the last line that starts with a version number; `No module named 'torch'` -> not installed."""
    if re.search(r"No module named '?torch'?", text or ""):
        return TorchBuild(not_installed=True, line="No module named 'torch'")
    lines = clean_lines(text)
    extra = {words[0]: tuple(words[1:]) for words in (raw.split() for raw in lines) if words}
    arch = extra.get("arch_list")
    nccl = extra.get("nccl")
    for raw in reversed(lines):
        words = raw.split()
        if (
            len(words) >= 2
            and _VERSION.match(words[0])
            and _CUDA.match(words[1])
            and _AVAILABLE.match(words[2] if len(words) > 2 else "-")
        ):
            cuda = None if words[1] == "None" else words[1]
            return TorchBuild(
                version=words[0],
                cuda=cuda,
                cuda_available=_BOOL.get(words[-1]),
                line=raw.strip(),
                arch_list=arch,
                nccl=nccl[0] if nccl else None,
            )
    return TorchBuild()

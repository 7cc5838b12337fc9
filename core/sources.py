"""A cheap fingerprint of source files (path, size and modification time of each): whether the code or
the bundled data a cache was made from has changed since, without reading the files."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path


def digest(roots: Iterable[Path], suffixes: tuple[str, ...] = (".py",)) -> str:
    """Hex SHA-256 over every file under `roots` whose name ends in one of `suffixes` (bytecode caches
    skipped), in a fixed order."""
    lines = []
    for root in roots:
        start = len(str(root))
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                if name.endswith(suffixes):
                    path = f"{folder}/{name}"
                    stat = os.stat(path)
                    lines.append(f"{root.name}{path[start:]}:{stat.st_size}:{stat.st_mtime_ns}\n")
    return hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()

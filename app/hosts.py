"""Find inventory host names mentioned in free text ("NCCL hangs on gpu-node-3")."""

from __future__ import annotations

import re
from collections.abc import Iterable


def mentioned_hosts(text: str, names: Iterable[str]) -> list[str]:
    """Inventory names that appear in `text` as whole words, in order of first appearance."""
    found: list[tuple[int, str]] = []
    for name in set(names):
        match = re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)", text, re.IGNORECASE)
        if match:
            found.append((match.start(), name))
    return [name for _, name in sorted(found)]

"""Where a text names a host: as a whole name, never inside a longer one, in any language around it."""

from __future__ import annotations

import re

# ASCII word characters only: Chinese written right against a name (`gpu-host-42上训练很慢`) still names it
_BEFORE = r"(?<![A-Za-z0-9_.-])"
_AFTER = r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])"  # a sentence's full stop after it still counts


def name_at(text: str, name: str) -> int | None:
    """Where `text` first names `name` (case-insensitive), or None: `gpu-host-42` is not named by
    `gpu-host-420` or `gpu-host-42.other`, nor `10.0.0.1` by `10.0.0.10` or `10.0.0.1.5`."""
    found = re.search(f"{_BEFORE}{re.escape(name)}{_AFTER}", text, re.IGNORECASE)
    return found.start() if found else None

"""Find inventory host names mentioned in free text ("NCCL hangs on gpu-node-3")."""

from __future__ import annotations

from collections.abc import Iterable

from pitstop.core.names import name_at


def mentioned_hosts(text: str, names: Iterable[str]) -> list[str]:
    """Inventory names that appear in `text` as whole words, in order of first appearance."""
    found = [(at, name) for name in set(names) if (at := name_at(text, name)) is not None]
    return [name for _, name in sorted(found)]

"""Who may review drafts in Slack: listed user ids, plus members of listed user groups (cached)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

GROUP_TTL_S = 300.0


class Maintainers:
    """`allows(user)`: listed, or in a listed group (each group's members asked at most once per TTL)."""

    def __init__(
        self,
        ids: Iterable[str],
        members: Callable[[str], Iterable[str]],
        ttl_s: float = GROUP_TTL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        listed = tuple(ids)
        self._users = frozenset(i for i in listed if not i.startswith("S"))
        self._groups = tuple(i for i in listed if i.startswith("S"))
        self._members, self._ttl_s, self._clock = members, ttl_s, clock
        self._cache: dict[str, tuple[float, frozenset[str]]] = {}
        self._lock = threading.Lock()

    def allows(self, user: str) -> bool:
        """True when `user` may approve, edit or reject drafts."""
        return user in self._users or any(user in self._group(g) for g in self._groups)

    def _group(self, group: str) -> frozenset[str]:
        now = self._clock()
        with self._lock:
            cached = self._cache.get(group)
        if cached is not None and now - cached[0] < self._ttl_s:
            return cached[1]
        try:
            found = frozenset(self._members(group))
        except Exception as exc:  # noqa: BLE001 - a group we cannot read grants nothing
            log.warning("cannot list members of user group %s: %s", group, exc)
            found = frozenset()
        with self._lock:
            self._cache[group] = (now, found)
        return found

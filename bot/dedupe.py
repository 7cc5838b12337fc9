"""Remember which Slack deliveries were already handled, so retries and event pairs reply once."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable


class Seen:
    """A thread-safe, bounded, expiring set of keys; `claim` is atomic test-and-set.

    Slack delivers the same message twice (an `app_mention` and a `message` event, or a retry of
    either), so the bot claims `("event", event_id)` and `("msg", channel, ts)` before replying.
    """

    def __init__(
        self, ttl_s: float = 3600.0, capacity: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl_s
        self._capacity = capacity
        self._clock = clock
        self._keys: OrderedDict[Hashable, float] = OrderedDict()
        self._lock = threading.Lock()

    def claim(self, *keys: Hashable) -> bool:
        """Mark every key seen; True only when none of them had been seen before."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            fresh = not any(key in self._keys for key in keys)
            for key in keys:
                self._keys[key] = now
                self._keys.move_to_end(key)
            while len(self._keys) > self._capacity:
                self._keys.popitem(last=False)
            return fresh

    def _expire(self, now: float) -> None:
        while self._keys:
            key, stamp = next(iter(self._keys.items()))
            if now - stamp < self._ttl:
                return
            del self._keys[key]

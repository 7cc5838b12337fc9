"""The one place where exceptions become the sentence a person reads (never a traceback)."""

from __future__ import annotations

import logging

from pitstop.core.errors import NotAllowed, NotFound, PitstopError, UsageError
from pitstop.core.redact import redact

log = logging.getLogger(__name__)

_PREFIX: tuple[tuple[type[PitstopError], str], ...] = (
    (NotAllowed, "Not allowed: "),
    (NotFound, "Not found: "),
    (UsageError, ""),
)


def describe(exc: BaseException) -> str:
    """A short human message for `exc`; unexpected errors are logged with their traceback."""
    if isinstance(exc, PitstopError):
        prefix = next((p for kind, p in _PREFIX if isinstance(exc, kind)), "")
        return redact(prefix + (str(exc) or type(exc).__name__))
    log.error("unexpected error", exc_info=exc)
    return f"Sorry, something went wrong inside Pitstop ({type(exc).__name__}); the details are in its log."

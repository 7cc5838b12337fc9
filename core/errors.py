"""The small exception tree shared by every layer; `bot/` and the CLI map these to human text."""

from __future__ import annotations


class PitstopError(Exception):
    """Base of every error Pitstop reports to a person (never a traceback)."""

    exit_code = 1


class UsageError(PitstopError):
    """The request itself is wrong: empty text, bad arguments, unknown id."""

    exit_code = 2


class NotFound(PitstopError):
    """A pitfall, incident or host that does not exist."""

    exit_code = 3


class NotAllowed(PitstopError):
    """The policy refuses this request (authorization, rate limit, host cap)."""

    exit_code = 4

"""The small exception tree shared by every layer; `bot/` and the CLI map these to human text.

An error's message is a catalogue `Msg` (`core/messages/errors.py` and each area's messages),
rendered in the reader's language where it is shown: `exc.render(lang)`; `str(exc)` is English.
Only a `Msg` is accepted (mypy rejects a plain string, and tests/architecture/test_error_messages.py
a raise built from a string literal, f-string or concatenation): text from elsewhere (a tool's own
error, an OS error) travels as one of the message's parameters.
"""

from __future__ import annotations

import errno

from pitstop.core.i18n import Msg, msg

# The operating system's reasons a file cannot be read that people meet most, in the catalogue's words
_OS_REASONS = {
    errno.ENOENT: "errors.os.missing",
    errno.EACCES: "errors.os.denied",
    errno.EPERM: "errors.os.denied",
    errno.EISDIR: "errors.os.directory",
    errno.ENOTDIR: "errors.os.not_dir",
}


def os_reason(exc: OSError) -> Msg | str:
    """Why the OS refused a file: a catalogue message for the common reasons, else the OS's own words."""
    key = _OS_REASONS.get(exc.errno or 0)
    return msg(key) if key else str(exc.strerror or exc)


class PitstopError(Exception):
    """Base of every error Pitstop reports to a person (never a traceback)."""

    exit_code = 1

    def __init__(self, message: Msg, *args: object) -> None:
        super().__init__(message, *args)
        self.message = message

    def __str__(self) -> str:
        return self.render("en")

    def render(self, lang: str) -> str:
        """The message in `lang`."""
        return self.message.render(lang)


class UsageError(PitstopError):
    """The request itself is wrong: empty text, bad arguments, unknown id."""

    exit_code = 2


class NotFound(PitstopError):
    """A pitfall, incident or host that does not exist."""

    exit_code = 3


class NotAllowed(PitstopError):
    """The policy refuses this request (authorization, rate limit, host cap)."""

    exit_code = 4


class BadFile(UsageError):
    """A file Pitstop was told to read (inventory, policy, taxonomy, eval set, bundle, stdin) is
    unreadable, binary or has the wrong shape."""

    exit_code = 5


class BadDatabase(PitstopError):
    """The database path is not usable: a directory, not SQLite, or in a directory that does not exist."""

    exit_code = 6


class Unreachable(PitstopError):
    """Slack (or another service Pitstop needs at start) cannot be reached or refuses the credentials."""

    exit_code = 7

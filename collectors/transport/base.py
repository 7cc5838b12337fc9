"""What the runner needs from a transport: open a session to a host, run scripts on channels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pitstop.collectors.model import HostStatus
from pitstop.core.i18n import Msg

Sink = Callable[[bytes], None]


class HostUnavailable(Exception):
    """A host could not be used at all; `status` is the HostStatus to report, the message says why.

    `message` is a catalogue `Msg` (kept, rendered in the reader's language); `str()` is English.
    """

    def __init__(self, status: HostStatus, message: Msg) -> None:

        super().__init__(str(message))
        self.status = status
        self.message = message


class Session(Protocol):
    """One open connection to one host; `run` may be called concurrently (one channel each)."""

    async def run(
        self, script: str, stdin: bytes, on_stdout: Sink, on_stderr: Sink, *, eof: bool
    ) -> int | None:
        """Run `script` with `sh`, stream its output to the sinks, return the exit status (None if lost).

        `stdin` is written first; with `eof` stdin is then closed, else it stays open and silent (the
        framing script's clock).

        Cancelling the call closes the channel (SSH) or kills the process group (local).
        """
        ...

    async def close(self) -> None:
        """Close the connection."""
        ...

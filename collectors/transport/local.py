"""The local transport: the framing script runs under `/bin/sh` on this machine, no SSH."""

from __future__ import annotations

import asyncio
import os
import signal

from pitstop.collectors.transport.base import Sink

_CHUNK = 1 << 16


async def _pump(stream: asyncio.StreamReader, sink: Sink) -> None:
    while chunk := await stream.read(_CHUNK):
        sink(chunk)


class LocalSession:
    """Runs scripts as child processes in their own process group (killed whole on cancel)."""

    async def run(
        self, script: str, stdin: bytes, on_stdout: Sink, on_stderr: Sink, *, eof: bool
    ) -> int | None:
        """Run `script` with /bin/sh -c; see transport.base.Session.run."""
        proc = await asyncio.create_subprocess_exec(
            "/bin/sh",
            "-c",
            script,
            stdin=asyncio.subprocess.PIPE,  # without eof it stays open and silent (framing's clock)
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        try:
            assert proc.stdin is not None
            try:
                proc.stdin.write(stdin)
                await proc.stdin.drain()
                if eof:
                    proc.stdin.close()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the script exited without reading its stdin
            assert proc.stdout is not None and proc.stderr is not None
            await asyncio.gather(_pump(proc.stdout, on_stdout), _pump(proc.stderr, on_stderr))
            return await proc.wait()
        except BaseException:
            if proc.returncode is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                await proc.wait()
            raise
        finally:
            if proc.stdin is not None and not proc.stdin.is_closing():
                proc.stdin.close()

    async def close(self) -> None:
        """Nothing to close locally."""


async def connect() -> LocalSession:
    """A session on this machine."""
    return LocalSession()

"""The console's line history on disk: owner-only (0600) and redacted, because pastes carry secrets."""

from __future__ import annotations

import os

from prompt_toolkit.history import FileHistory

from pitstop.core.redact import redact


class PrivateHistory(FileHistory):
    """prompt_toolkit's `FileHistory`, with the file created 0600 (an existing one is tightened to 0600)
    and every entry redacted before it is written. The file sits beside the database, whose directory
    Pitstop already made 0700 (or the operator chose); no directory is created here."""

    def __init__(self, filename: str) -> None:
        os.close(os.open(filename, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600))
        os.chmod(filename, 0o600)
        super().__init__(filename)

    def store_string(self, string: str) -> None:
        """Append one entry, redacted."""
        super().store_string(redact(string))

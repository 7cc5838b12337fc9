"""The console's history file: created 0600 whatever the umask, an existing one tightened, every
entry redacted (the whole secret corpus goes through prompt_toolkit's real file history)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pitstop.bot.history import PrivateHistory
from tests.security.secrets import load_corpus


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_history_file_is_owner_only_and_holds_no_secret(tmp_path: Path) -> None:
    path = tmp_path / "console_history"
    old = os.umask(0o022)  # the usual umask: a plain open() would make the file 0644
    try:
        history = PrivateHistory(str(path))
    finally:
        os.umask(old)
    assert mode(path) == 0o600
    corpus = load_corpus()
    for item in corpus:
        history.append_string(item["text"])
    written = path.read_text(encoding="utf-8")
    assert written.count("\n+") >= len(corpus)  # every entry was written ...
    leaked = [item["shape"] for item in corpus if item["secret"] in written]
    assert leaked == []  # ... and none with its secret
    assert [s for s in PrivateHistory(str(path)).load_history_strings()][:1]  # prompt_toolkit reads it back


def test_an_existing_history_file_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "console_history"
    path.write_text("\n# 2026-01-01\n+old entry\n", encoding="utf-8")
    path.chmod(0o644)
    PrivateHistory(str(path)).append_string("new entry")
    assert mode(path) == 0o600 and "+old entry" in path.read_text(encoding="utf-8")

"""Options shared by the commands that open the knowledge base (`ask`, `kb`, `eval`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.core.errors import UsageError

if TYPE_CHECKING:
    from pitstop.kb.service import KnowledgeBase

MODES = ("hybrid", "dense", "lexical", "signature")  # kb.retrieve.MODES, without importing kb at startup


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """Add `--db PATH` (default: $PITSTOP_DB, else the data directory's pitstop.db)."""
    parser.add_argument("--db", type=Path, default=None, help="SQLite database (default: $PITSTOP_DB)")


def open_kb(args: argparse.Namespace) -> KnowledgeBase:
    """Open the knowledge base named by `--db` or the settings."""
    from pitstop.core.config import load_settings
    from pitstop.kb.service import KnowledgeBase

    return KnowledgeBase.open(args.db or load_settings().db_path)


def read_text(words: list[str]) -> str:
    """The query words joined, or stdin when the only word is '-' (decoded, binary refused)."""
    from pitstop.kb.preprocess import decode

    if words == ["-"]:
        if sys.stdin is None:
            raise UsageError("no standard input to read")
        return decode(sys.stdin.buffer.read())
    return " ".join(words)

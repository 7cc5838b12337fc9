"""Options shared by the commands that open the knowledge base (`ask`, `kb`, `eval`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pitstop.cli.helptext import h
from pitstop.core.errors import UsageError, os_reason
from pitstop.core.i18n import msg

if TYPE_CHECKING:
    from pitstop.core.config import Settings
    from pitstop.kb.service import KnowledgeBase

MODES = ("hybrid", "dense", "lexical", "signature")  # kb.retrieve.MODES, without importing kb at startup


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """Add `--db PATH` (default: $PITSTOP_DB, else the data directory's pitstop.db)."""
    parser.add_argument("--db", type=Path, default=None, help=h("kbargs.db"))


def db_path(args: argparse.Namespace, settings: Settings | None = None) -> Path:
    """The knowledge base's file: `--db`, else the settings' (`settings`, else loaded now)."""
    from pitstop.core.config import load_settings

    return args.db or (settings or load_settings()).db_path


def open_kb(args: argparse.Namespace) -> KnowledgeBase:
    """Open the knowledge base named by `--db` or the settings."""
    from pitstop.kb.service import KnowledgeBase

    return KnowledgeBase.open(db_path(args))


def read_text(words: list[str]) -> str:
    """The query words joined, or stdin when the only word is '-' (decoded, binary refused)."""
    if words == ["-"]:
        from pitstop.kb.preprocess import decode

        if sys.stdin is None:
            raise UsageError(msg("errors.cli.no_stdin"))
        return decode(sys.stdin.buffer.read())
    return " ".join(words)


def add_text_options(parser: argparse.ArgumentParser) -> None:
    """The error text as words, `-` for stdin, or `--file FILE` (`--file -` reads stdin too)."""
    parser.add_argument("text", nargs="*", metavar="TEXT", help=h("kbargs.text"))
    parser.add_argument("--file", type=Path, default=None, metavar="FILE", help=h("kbargs.file"))


def read_file(path: Path) -> str:
    """A text file's content, or stdin for `-` (decoded, binary refused)."""
    from pitstop.kb.preprocess import decode

    if str(path) == "-":
        return read_text(["-"])
    try:
        return decode(path.read_bytes())
    except OSError as exc:
        raise UsageError(msg("errors.file.unreadable", path=str(path), reason=os_reason(exc))) from None


def text_of(args: argparse.Namespace) -> str:
    """The error text from TEXT words, `-`, `--file`, or piped stdin when neither is given."""
    if args.file is not None and args.text:
        raise UsageError(msg("errors.cli.text_twice"))
    if args.file is not None:
        return read_file(args.file)
    if args.text:
        return read_text(args.text)
    if sys.stdin is not None and not sys.stdin.isatty():
        return read_text(["-"])
    raise UsageError(msg("errors.cli.no_text"))

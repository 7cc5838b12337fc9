"""The language of `--help` and the catalogue lookup every parser's help text goes through.

The language is decided from the command line before any parser is built (`--lang zh` or `--lang=zh`
anywhere in it; `auto` or nothing means English, as everywhere else without a paste to follow), so each
`help=`, `description=` and `epilog=` is rendered once, in that language, and so are argparse's headings
("usage:", "options", `-h`'s line) and its error lines ("unrecognized arguments": `cli.main.Parser`,
`cli.argerrors`).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pitstop.core.i18n import CatalogueError, Lang, normalize_lang, render_pair
from pitstop.core.messages.cli_help import MESSAGES

# What a line may not break inside: opening brackets, then a Chinese character or a run of other characters,
# then closing punctuation; or spaces
_PIECES = re.compile(
    r"（*(?:[\u3400-\u9fff]|[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+)[，。；：、）！？]*|\S|\s+"
)

_chosen: list[Lang] = ["en"]  # the help language of this process's parser (set by `use`)


def help_lang(argv: list[str]) -> Lang:
    """The language `argv` asks for (`--lang VALUE` or `--lang=VALUE`, the last one wins), else English."""
    chosen: Lang = "en"
    for i, word in enumerate(argv):
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else word.partition("=")[2]
        if word == "--lang" or word.startswith("--lang="):
            chosen = normalize_lang(value) or "en"
    return chosen


def use(lang: Lang) -> None:
    """Render the help texts of parsers built from now on in `lang`."""
    _chosen[0] = lang


def chosen() -> Lang:
    """The language of this process's parser: its help, and its error lines."""
    return _chosen[0]


def h(key: str, **params: Any) -> str:
    """The help text `cli_help.<key>` in the chosen language."""
    full = f"cli_help.{key}"
    if full not in MESSAGES:
        raise CatalogueError(f"no message {full!r} in the catalogue")
    return render_pair(full, MESSAGES[full], _chosen[0], **params)


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns (a Chinese character takes two), broken at spaces and
    between Chinese characters (textwrap breaks only at spaces, which leaves Chinese lines unwrapped)."""
    lines: list[str] = []
    line = ""
    for piece in _PIECES.findall(" ".join(text.split())):
        if line and not piece.isspace() and columns(line) + columns(piece) > width:
            lines.append(line.rstrip())
            line = ""
        if line or not piece.isspace():
            line += piece
    return [*lines, line.rstrip()] if line.strip() else lines


def columns(text: str) -> int:
    """How many terminal columns `text` takes (a Chinese character two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

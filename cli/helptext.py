"""The language of `--help` and the catalogue lookup every parser's help text goes through.

The language is decided from the command line before any parser is built (`--lang zh` or `--lang=zh`
anywhere in it; `auto` or nothing means English, as everywhere else without a paste to follow), so each
`help=`, `description=` and `epilog=` is rendered once, in that language, and so are argparse's headings
("usage:", "options", `-h`'s line: `cli.main.Parser`). argparse's error messages ("unrecognized
arguments") stay its own English: they come from its gettext domain, not from Pitstop.
"""

from __future__ import annotations

from typing import Any

from pitstop.core.i18n import CatalogueError, Lang, normalize_lang, render_pair
from pitstop.core.messages.cli_help import MESSAGES

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


def h(key: str, **params: Any) -> str:
    """The help text `cli_help.<key>` in the chosen language."""
    full = f"cli_help.{key}"
    if full not in MESSAGES:
        raise CatalogueError(f"no message {full!r} in the catalogue")
    return render_pair(full, MESSAGES[full], _chosen[0], **params)

"""argparse's error lines in the reader's language.

argparse formats its messages from English gettext templates before `ArgumentParser.error` sees them
("argument --lang: invalid choice: 'fr' (choose from 'en', 'zh', 'auto')"). `translate` reads such a
line back against the templates of `pitstop.core.messages.cli_args.ARGPARSE` and renders the matching
catalogue message with the same values (an inner `message` is translated in turn); a line no template
matches stays as it is. Loaded only when a command line is wrong.
"""

from __future__ import annotations

import re
from functools import cache

from pitstop.core.i18n import t
from pitstop.core.messages.cli_args import ARGPARSE

_FIELD = re.compile(r"%\((\w+)\)[sr]|%[sr]")


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each template as an anchored pattern with one named group per field, with its key; templates with
    more fixed text first, so that the most specific one wins."""
    found = []
    for template, (key, positional) in ARGPARSE.items():
        names = iter(positional)
        parts, at = [], 0
        for field in _FIELD.finditer(template):
            parts.append(re.escape(template[at : field.start()]))
            parts.append(f"(?P<{field.group(1) or next(names)}>.*?)")
            at = field.end()
        parts.append(re.escape(template[at:]))
        fixed = len(_FIELD.sub("", template))
        found.append((fixed, re.compile("".join(parts), re.DOTALL), key))
    found.sort(key=lambda item: -item[0])
    return tuple((pattern, key) for _, pattern, key in found)


def translate(message: str, lang: str) -> str:
    """argparse's formatted `message` said in `lang` (English: as argparse said it)."""
    if lang != "zh":
        return message
    for pattern, key in _patterns():
        match = pattern.fullmatch(message)
        if match:
            params = match.groupdict()
            if "message" in params:
                params["message"] = translate(params["message"], lang)
            return t(key, lang, **params)
    return message


def error_line(prog: str, message: str, lang: str) -> str:
    """The line `ArgumentParser.error` ends with ("pitstop ask: error: ..."), in `lang`."""
    return t("cli_args.error", lang, prog=prog, message=translate(message, lang))

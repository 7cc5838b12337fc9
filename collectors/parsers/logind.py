"""`systemd-analyze cat-config systemd/logind.conf` (or the file itself) -> effective RemoveIPC."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_SETTING = re.compile(r"^\s*RemoveIPC\s*=\s*(?P<value>\S*)\s*$", re.I)
_COMMENTED = re.compile(r"^\s*[#;]\s*RemoveIPC\s*=", re.I)


@dataclass(frozen=True)
class Logind:
    """`remove_ipc` True/False when set (the last setting wins), None when only the default applies;
    `recognized` when the text has the [Login] section."""

    remove_ipc: bool | None = None
    line: str = ""
    default_line: str = ""
    recognized: bool = False


def parse(text: str) -> Logind:
    """Read `[Login]` settings; drop-ins printed later override earlier files."""
    value = None
    line = default = ""
    section = None
    recognized = False
    for raw in clean_lines(text):
        stripped = raw.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped
            recognized = recognized or section == "[Login]"
        elif section == "[Login]" and (m := _SETTING.match(stripped)) is not None:
            word = m.group("value").lower()
            value = {"yes": True, "true": True, "1": True, "on": True}.get(word, False if word else None)
            line = stripped
        elif _COMMENTED.match(stripped):
            default = default or stripped
    return Logind(value, line, default, recognized)

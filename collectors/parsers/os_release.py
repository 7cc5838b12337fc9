"""`/etc/os-release` -> distribution id and version."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from pitstop.collectors.parsers._text import clean_lines


@dataclass(frozen=True)
class OsRelease:
    """All keys; `id`, `version_id`, `pretty_name` for convenience."""

    fields: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str | None:
        """ID, e.g. ubuntu."""
        return self.fields.get("ID")

    @property
    def version_id(self) -> str | None:
        """VERSION_ID, e.g. 22.04."""
        return self.fields.get("VERSION_ID")

    @property
    def pretty_name(self) -> str | None:
        """PRETTY_NAME."""
        return self.fields.get("PRETTY_NAME")


def parse(text: str) -> OsRelease:
    """KEY=value lines, shell-quoted values unquoted; blank and comment lines skipped."""
    fields = {}
    for raw in clean_lines(text):
        key, eq, value = raw.strip().partition("=")
        if not eq or key.startswith("#"):
            continue
        try:
            fields[key] = " ".join(shlex.split(value))
        except ValueError:
            fields[key] = value.strip("\"'")
    return OsRelease(fields=fields)

"""Records of the incidents layer that other modules of the layer share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pitstop.core.redact import redact
from pitstop.core.terminal import without_controls


@dataclass(frozen=True)
class NewCause:
    """A cause the KB did not know, described by whoever resolved the incident."""

    title: str
    what: str
    fix: str
    symptoms: tuple[str, ...] = ()

    def redacted(self) -> NewCause:
        """The same cause with every field redacted, trimmed and without control or bidi characters
        (they would reach the draft's edit form raw, `core.terminal.without_controls`)."""

        def clean(text: str) -> str:
            return without_controls(redact(text)).strip()

        return NewCause(
            title=clean(self.title),
            what=clean(self.what),
            fix=clean(self.fix),
            symptoms=tuple(s for s in map(clean, self.symptoms) if s),
        )

    def to_json(self) -> dict[str, Any]:
        """Plain data (symptoms as a list)."""
        return {"title": self.title, "what": self.what, "fix": self.fix, "symptoms": list(self.symptoms)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NewCause:
        """The inverse of `to_json`."""
        return cls(
            str(data["title"]),
            str(data["what"]),
            str(data["fix"]),
            tuple(str(s) for s in data.get("symptoms", ())),
        )

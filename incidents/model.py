"""Records of the incidents layer that other modules of the layer share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pitstop.core.redact import redact


@dataclass(frozen=True)
class NewCause:
    """A cause the KB did not know, described by whoever resolved the incident."""

    title: str
    what: str
    fix: str
    symptoms: tuple[str, ...] = ()

    def redacted(self) -> NewCause:
        """The same cause with every field passed through the redactor and trimmed."""
        return NewCause(
            title=redact(self.title).strip(),
            what=redact(self.what).strip(),
            fix=redact(self.fix).strip(),
            symptoms=tuple(s for s in (redact(x).strip() for x in self.symptoms) if s),
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

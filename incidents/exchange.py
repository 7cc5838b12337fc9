"""Share what a site learned: export learned examples and approved drafts, import another site's.

The bundle is JSON (`FORMAT`, version 1). Every item keeps its provenance (what a resolution
taught, only its incident's number), and an import prefixes it with where the bundle came from.
Imported entries arrive as drafts, so that this site's maintainers review them (`pitstop kb
approve`); imported examples attach to entries this site knows, once each. Text is redacted again on
the way in (every string of an entry, and examples).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlite_utils

from pitstop.core.clock import Clock, stamp, utc_now
from pitstop.core.db import immediate
from pitstop.core.errors import BadFile, UsageError, os_reason
from pitstop.core.i18n import Msg, msg
from pitstop.core.redact import redact
from pitstop.core.strings import map_strings
from pitstop.core.terminal import without_controls
from pitstop.kb.schema import Pitfall, validate_entry

if TYPE_CHECKING:
    from pitstop.kb.service import KnowledgeBase

FORMAT = "pitstop-learned"
VERSION = 1
MAX_BUNDLE_BYTES = 64 << 20  # a bundle file larger than this is refused before it is parsed
MAX_ORIGIN = 200  # characters of the origin kept: it is copied into every imported row's provenance
MAX_PROVENANCE = 600  # characters of an item's own provenance kept
MAX_EXAMPLE_CHARS = 16_000  # a resolution here learns at most kb.preprocess.MAX_KEPT_CHARS (12,000)


MAX_DEPTH = 32  # levels of nesting a bundle may have (it needs 6); deeper breaks Python's recursion later


def _too_deep(data: Any) -> bool:
    """True when lists or objects nest more than MAX_DEPTH levels (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _provenance(origin: str, own: Any) -> str:
    """An imported item's provenance: where the bundle came from, then the item's own (redacted, then
    cut, so a cut never leaves half a secret unmasked)."""
    return f"imported from {origin}: {_clip(redact(str(own)), MAX_PROVENANCE)}"


@dataclass(frozen=True)
class ImportReport:
    """What an import added and what it skipped."""

    entries_added: int
    entries_known: int
    examples_added: int
    examples_known: int
    examples_orphaned: int  # their entry is unknown here

    def sentence(self) -> Msg:
        """One line for people."""
        return msg(
            "learning.imported.one" if self.entries_added == 1 else "learning.imported",
            entries=self.entries_added,
            entries_known=self.entries_known,
            examples=self.examples_added,
            examples_known=self.examples_known,
            orphaned=self.examples_orphaned,
        )


def _shared(source: str, provenance: str, incident: int | None) -> str:
    """What an exported example says of where it came from: a resolution's incident number only (its
    channel, thread and resolver stay here); another site's provenance as that site shared it."""
    if source != "incident":
        return provenance
    found = re.search(r"incident #(\d+)", provenance)
    number = incident if incident is not None else found.group(1) if found else None
    return f"incident #{number}" if number is not None else "a resolved incident"


def export_learned(db: sqlite_utils.Database, *, origin: str, clock: Clock = utc_now) -> dict[str, Any]:
    """The bundle: learned examples of reviewed entries, and the entries approved from drafts.

    Mined examples (`kind='mined'`) ship with every install in kb/examples/, so they stay out. What a
    resolution learned says only its incident's number here: the channel, thread and people named in
    this site's own provenance stay at this site.
    """
    examples = [
        {
            "pitfall_id": pid,
            "text": text,
            "source": source,
            "provenance": _shared(source, provenance, incident),
            "created_at": created,
        }
        for pid, text, source, provenance, created, incident in db.execute(
            "SELECT e.pitfall_id, e.text, e.source, e.provenance, e.created_at, e.incident_id FROM examples e"
            " JOIN pitfalls p ON p.id = e.pitfall_id WHERE e.source != 'curated' AND e.kind != 'mined'"
            " AND p.status = 'curated'"
            " ORDER BY e.id"
        )
    ]
    entries = [
        {**json.loads(body), "provenance": f"learned from incident #{incident}"}
        for body, incident in db.execute(
            "SELECT p.body_json, d.incident_id FROM drafts d JOIN pitfalls p ON p.id = d.id"
            " WHERE d.kind = 'new' AND d.status = 'approved' AND p.status = 'curated' ORDER BY d.id"
        )
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "origin": origin,
        "exported_at": stamp(clock()),
        "entries": entries,
        "examples": examples,
    }


def read_bundle(path: Path) -> dict[str, Any]:
    """Parse and check a bundle file; UsageError when it cannot be read, BadFile (exit 5) when it is not a
    bundle this version reads."""
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_BUNDLE_BYTES + 1)
    except OSError as exc:
        raise UsageError(msg("errors.file.unreadable", path=str(path), reason=os_reason(exc))) from None
    if len(raw) > MAX_BUNDLE_BYTES:
        raise BadFile(msg("errors.bundle.too_big", path=str(path), limit=MAX_BUNDLE_BYTES >> 20))
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError included
        raise BadFile(msg("errors.bundle.not_json", path=str(path), error=str(exc))) from None
    except RecursionError:  # arrays or objects nested deeper than the parser's stack
        data = None
    if data is None or _too_deep(data):
        raise BadFile(msg("errors.bundle.not_json", path=str(path), error="nested too deeply")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadFile(msg("errors.bundle.not_bundle", path=str(path)))
    if data.get("version") != VERSION:
        raise BadFile(
            msg("errors.bundle.version", path=str(path), version=data.get("version"), reads=VERSION)
        )
    if not isinstance(data.get("entries"), list) or not isinstance(data.get("examples"), list):
        raise BadFile(msg("errors.bundle.lists", path=str(path)))
    return data


def import_learned(
    kb: KnowledgeBase, db: sqlite_utils.Database, bundle: dict[str, Any], *, clock: Clock = utc_now
) -> ImportReport:
    """Add a bundle's entries (as drafts) and examples (as source 'import'); idempotent."""
    origin = _clip(redact(str(bundle.get("origin") or "another site")), MAX_ORIGIN)
    # what is checked is what is stored: redacted, without control or bidi characters
    entries = [map_strings(e, lambda s: without_controls(redact(s))) for e in bundle["entries"]]
    problems = [
        p
        for i, e in enumerate(entries)
        for p in validate_entry(
            {k: v for k, v in e.items() if k != "status"} if isinstance(e, dict) else e, f"entries[{i}]"
        )
    ]
    if problems:
        raise BadFile(msg("errors.bundle.invalid", problems="\n  ".join(problems)))
    added = known = 0
    now = stamp(clock())
    for data in entries:
        entry = Pitfall.from_dict(
            {
                **data,
                "status": "draft",
                "provenance": _provenance(origin, data.get("provenance", "")),
            }
        )
        if db.execute(  # a name an entry, draft, merge proposal or pending resolution here has is known
            "SELECT 1 FROM pitfalls WHERE id = ?1 UNION ALL SELECT 1 FROM drafts WHERE id = ?1"
            " UNION ALL SELECT 1 FROM resolutions WHERE cause_id = ?1",
            [entry.id],
        ).fetchone():
            known += 1
            continue
        with immediate(db):
            db.execute(
                "INSERT INTO drafts (id, kind, body_json, created_by, created_at) VALUES (?, 'new', ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [entry.id, json.dumps(entry.to_dict(), ensure_ascii=False), f"import:{origin}", now],
            )
        kb.upsert_pitfall(entry)
        added += 1
    counts = {"added": 0, "known": 0, "orphaned": 0}
    for item in bundle["examples"]:
        counts[_import_example(kb, db, item, origin)] += 1
    return ImportReport(added, known, counts["added"], counts["known"], counts["orphaned"])


def _import_example(kb: KnowledgeBase, db: sqlite_utils.Database, item: Any, origin: str) -> str:
    if not isinstance(item, dict) or not str(item.get("text", "")).strip():
        return "orphaned"
    from pitstop.incidents.learning import example_text, pitfall_exists

    pitfall_id = str(item.get("pitfall_id", ""))
    if not pitfall_exists(db, pitfall_id):
        return "orphaned"
    text = redact(str(item["text"])).strip()
    if len(text) > MAX_EXAMPLE_CHARS:  # more than a resolution here teaches: keep what it would keep
        text = example_text(text)
        if not text:
            return "orphaned"
    if db.execute("SELECT 1 FROM examples WHERE pitfall_id = ? AND text = ?", [pitfall_id, text]).fetchone():
        return "known"
    kb.add_example(
        pitfall_id,
        text,
        source="import",
        provenance=_provenance(origin, item.get("provenance", "")),
    )
    return "added"

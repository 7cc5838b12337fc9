"""Signature specificity, stored: which example texts each entry's signatures match.

`Catalog.specificity` weighs a signature by how many example texts of its own entry and of all
searchable entries it matches. Those matches are kept in SQLite (`kb_signatures`, `signature_hits`,
migration m013) and brought up to date whenever content changes (a build, an import, a draft, a
learned example): `refresh` scans only the examples not scanned yet (`examples.signatures_scanned`)
and the signatures not stored yet, with one `signatures.Scanner` pass per text, and drops the rows of
signatures no searchable entry has any more. A deleted example takes its rows with it (foreign key),
and an entry's status is read at count time, so rejecting an entry needs no scan. `weigh` then
counts (own, all) per signature in one query: a process never holds the texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import sqlite_utils

from pitstop.core.db import inserted_id
from pitstop.kb import signatures, store

if TYPE_CHECKING:
    from pitstop.kb.retrieve import Catalog

RULES = "1"  # bump when what counts as a match changes: every stored match is then recomputed
RULES_KEY = "signature_hit_rules"
CHUNK = 5_000  # example rows read (and match rows written) at a time
# From this many example rows one RE2 set of the whole signatures (signatures.Scanner) pays for
# building its automaton (about 2 s of CPU for the bundled signatures, won back from about 35,000
# distinct texts: 10k synthetic entries, 42k rows, took 2.8-4.0 s with it, 2.6 s without; 100k, 20 s
# against 26 s); fewer rows are prefiltered by literals.
WHOLE_SET_TEXTS = 50_000


def _scan(
    db: sqlite_utils.Database, compiled: Sequence[signatures.Compiled], ids: Sequence[int], where: str
) -> set[int]:
    """Store the matches of the signatures `compiled` (ids `ids`, in that order) on the examples `where`
    selects; returns the signature ids that matched any. Identical texts are matched once."""
    texts = db.execute(f"SELECT COUNT(*) FROM examples WHERE {where}").fetchone()[0]
    scanner = signatures.Scanner(compiled, whole=texts >= WHOLE_SET_TEXTS)
    hit: set[int] = set()
    rows: list[tuple[int, int]] = []
    last: tuple[str, list[int]] = ("", [])
    for example_id, text, digest in db.execute(
        f"SELECT id, text, content_hash FROM examples WHERE {where} ORDER BY content_hash"
    ):
        if digest != last[0]:
            last = (digest, [ids[p] for p in scanner.matching(text)])
        rows += [(sig, example_id) for sig in last[1]]
        hit.update(last[1])
        if len(rows) >= CHUNK:
            db.conn.executemany("INSERT OR IGNORE INTO signature_hits VALUES (?, ?)", rows)
            rows = []
    db.conn.executemany("INSERT OR IGNORE INTO signature_hits VALUES (?, ?)", rows)
    return hit


def refresh(db: sqlite_utils.Database, catalog: Catalog) -> set[int] | None:
    """Bring the stored matches up to date with `catalog`'s signatures and every example.

    Returns the ids (`kb_signatures.id`) of the signatures whose matches changed, or None when
    nothing was stored before (every count must be read)."""
    wanted = {(sig.pitfall_id, sig.pattern): sig.regex for sig in catalog.signatures}
    with db.conn:
        db.execute("BEGIN IMMEDIATE")
        fresh = store.get_meta(db, RULES_KEY) != RULES
        if fresh:
            db.execute("DELETE FROM kb_signatures")
            db.execute("UPDATE examples SET signatures_scanned = 0 WHERE signatures_scanned = 1")
            store.set_meta(db, RULES_KEY, RULES)
        stored = {
            (pid, pattern): sid
            for sid, pid, pattern in db.execute("SELECT id, pitfall_id, pattern FROM kb_signatures")
        }
        gone = [sid for key, sid in stored.items() if key not in wanted]
        db.conn.executemany("DELETE FROM kb_signatures WHERE id = ?", [(sid,) for sid in gone])
        new = [key for key in wanted if key not in stored]
        for key in new:
            stored[key] = inserted_id(
                db.execute("INSERT INTO kb_signatures(pitfall_id, pattern) VALUES (?, ?)", key)
            )
        changed = set(gone)
        if new:  # the new signatures over the examples already scanned
            compiled = [wanted[key] for key in new]
            changed |= _scan(db, compiled, [stored[key] for key in new], "signatures_scanned = 1")
            changed |= {stored[key] for key in new}
        if db.execute("SELECT 1 FROM examples WHERE signatures_scanned = 0 LIMIT 1").fetchone():
            keys = list(wanted)
            compiled = [wanted[key] for key in keys]
            changed |= _scan(db, compiled, [stored[key] for key in keys], "signatures_scanned = 0")
            db.execute("UPDATE examples SET signatures_scanned = 1 WHERE signatures_scanned = 0")
    return None if fresh else changed


def counts(db: sqlite_utils.Database, ids: Iterable[int] | None = None) -> dict[int, tuple[int, int]]:
    """(matches in its own entry's texts, matches in all searchable entries' texts) per signature id
    (only those in `ids`, when given); a signature that matches nothing is absent."""
    marks = ""
    params: tuple[int, ...] = ()
    if ids is not None:
        params = tuple(ids)
        marks = f"AND h.signature IN ({','.join('?' * len(params))})"
        if not params:
            return {}
    rows = db.execute(
        "SELECT h.signature, SUM(e.pitfall_id = s.pitfall_id), COUNT(*) FROM signature_hits h "
        "JOIN kb_signatures s ON s.id = h.signature JOIN examples e ON e.id = h.example_id "
        "JOIN pitfalls p ON p.id = e.pitfall_id "
        f"WHERE p.status IN ('curated', 'draft') {marks} GROUP BY h.signature",
        params,
    )
    return {sid: (own, total) for sid, own, total in rows}


def weigh(db: sqlite_utils.Database, catalog: Catalog) -> Catalog:
    """`catalog` with every signature's stored (own, all) match counts, refreshed first; only the
    counts of signatures whose matches changed are read again when `catalog` already has counts."""
    changed = refresh(db, catalog)
    if catalog.hits and changed is not None and not changed:
        return catalog
    sid = {
        (pid, pattern): key
        for key, pid, pattern in db.execute("SELECT id, pitfall_id, pattern FROM kb_signatures")
    }
    ids = [sid[(sig.pitfall_id, sig.pattern)] for sig in catalog.signatures]
    again = None if not catalog.hits or changed is None else changed
    found = counts(db, again)
    old = catalog.hits or tuple((0, 0) for _ in ids)
    hits = tuple(
        found.get(key, (0, 0)) if again is None or key in again else old[i] for i, key in enumerate(ids)
    )
    return replace(catalog, hits=hits)

"""Reads and writes of the KB tables (pitfalls, examples, embeddings, the FTS5 indexes).

SQLite is the truth. A pitfall's curated examples are its title, summary and symptoms (English
and Chinese); incident examples come from resolved incidents. Every write keeps the row-level FTS
rows in step, so search never sees a half-updated entry, and marks the entry's one-document row
(`entries_fts`) stale: `refresh_documents` rewrites it, in the writer's transaction or before the
next query's catalog is loaded.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlite_utils

from pitstop.core.clock import stamp, utc_now
from pitstop.core.db import inserted_id
from pitstop.kb.schema import Pitfall
from pitstop.kb.tokens import document_text, word_text, words_version

if TYPE_CHECKING:
    import numpy as np

FTS_TABLES = ("docs_fts", "words_fts")
SEARCHABLE = ("curated", "draft")
ROW_RULES = 4  # bump when curated_examples() or the FTS rows change, so stored entries are rewritten


@dataclass(frozen=True)
class ExampleRow:
    """One example text with what it belongs to."""

    id: int
    pitfall_id: str
    text: str
    kind: str
    source: str
    incident_id: int | None = None


def now() -> str:
    """The current time in the one stored format (`pitstop.core.clock.stamp`)."""
    return stamp(utc_now())


def text_hash(text: str) -> str:
    """Content hash of one text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def entry_hash(pitfall: Pitfall) -> str:
    """Content hash of a whole entry and of the rules that turn it into rows."""
    return text_hash(f"{ROW_RULES}\0" + json.dumps(pitfall.to_dict(), sort_keys=True, ensure_ascii=False))


def curated_examples(pitfall: Pitfall) -> list[tuple[str, str]]:
    """(kind, text) of the texts that stand for an entry in dense search.

    Chinese title and summary are left out: their English view added nothing on the dev cases
    (see docs/KB.md) and cost a fifth of the build time; they are in both FTS indexes.
    """
    pairs = [("title", pitfall.title), ("summary", pitfall.summary)] + [
        ("symptom", s) for s in (*pitfall.symptoms, *pitfall.symptoms_zh)
    ]
    return list(dict.fromkeys((kind, text.strip()) for kind, text in pairs if text.strip()))


def entry_rowid(pitfall_id: str) -> int:
    """The FTS rowid of an entry's own row: negative, so it never meets an example id (rows by rowid
    are found through the index; a WHERE on the UNINDEXED pitfall_id column would scan the table)."""
    return -1 - int(hashlib.sha256(pitfall_id.encode()).hexdigest()[:15], 16)


def _fts_insert(
    db: sqlite_utils.Database,
    rowid: int,
    pitfall_id: str,
    example_id: int | None,
    fields: tuple[str, str, str, str],
) -> None:
    for table in FTS_TABLES:
        values = fields if table == "docs_fts" else tuple(word_text(f) for f in fields)
        db.execute(
            f"INSERT INTO {table}(rowid, pitfall_id, example_id, title, summary, symptoms, cause) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (rowid, pitfall_id, example_id, *values),
        )


def _fts_delete(db: sqlite_utils.Database, rowid: int) -> None:
    for table in FTS_TABLES:
        db.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))


def _stale(db: sqlite_utils.Database, pitfall_ids: Iterable[str]) -> None:
    """Mark these entries' one-document rows as to be rewritten (`refresh_documents`)."""
    db.conn.executemany(
        "UPDATE pitfalls SET document_stale = 1 WHERE id = ?", [(pid,) for pid in set(pitfall_ids)]
    )


def entry_documents(
    db: sqlite_utils.Database, pitfall_ids: Sequence[str] | None = None
) -> Iterator[tuple[str, str]]:
    """(entry id, text) of the searchable entries among `pitfall_ids` in that order (or all, by id): the
    title, summary and cause in both languages' columns plus every stored example (curated, imported,
    learned). Two reads per DOCUMENT_BATCH entries."""
    for pid, parts in _entry_parts(db, pitfall_ids):
        yield pid, "\n".join(parts)


def _entry_parts(db: sqlite_utils.Database, wanted: Sequence[str] | None) -> Iterator[tuple[str, list[str]]]:
    # Many entries: their status from the status index. Read in the row, it lies past body_json, and
    # reading it took 13x the time of the text columns at 100k entries (bench/RESULTS.md, "The entry
    # index, again"); a few (a learned example's entry) are read in their rows.
    marks = ",".join("?" * len(SEARCHABLE))
    if wanted is None or len(wanted) > DOCUMENT_BATCH:
        searchable = pitfall_ids(db, SEARCHABLE)
    else:
        rows = db.execute(
            f"SELECT id FROM pitfalls WHERE id IN ({','.join('?' * len(wanted))}) AND status IN ({marks})",
            [*wanted, *SEARCHABLE],
        )
        searchable = {row[0] for row in rows}
    order = sorted(searchable) if wanted is None else wanted
    for start in range(0, len(order), DOCUMENT_BATCH):
        chunk = [pid for pid in order[start : start + DOCUMENT_BATCH] if pid in searchable]
        ids = ",".join("?" * len(chunk))
        texts: dict[str, list[str]] = {
            pid: [title, title_zh or "", summary, summary_zh or "", cause]
            for pid, title, title_zh, summary, summary_zh, cause in db.execute(
                f"SELECT id, title, title_zh, summary, summary_zh, cause FROM pitfalls WHERE id IN ({ids})",
                chunk,
            )
        }
        for pid, text in db.execute(
            f"SELECT pitfall_id, text FROM examples WHERE pitfall_id IN ({ids}) ORDER BY id", chunk
        ):
            texts[pid].append(text)
        for pid in chunk:
            yield pid, texts[pid]


def _document(parts: list[str]) -> str:
    """`document_text` of the parts joined, each distinct part split once (an entry's title and summary
    are also two of its curated examples)."""
    return " ".join(" ".join([document_text(part)] * n) for part, n in Counter(parts).items() if part)


DOCUMENT_BATCH = 2_000  # entries whose texts one read of `entry_documents` holds
DOCUMENT_RULES = 2  # bump when entry_documents or tokens.document_text change: every document is rewritten
DOCUMENTS_KEY = "documents_version"


def documents_version() -> str:
    """Identifies how documents are written (their rules and the word index's whole Chinese words)."""
    return f"{DOCUMENT_RULES}:{words_version()}"


def refresh_documents(db: sqlite_utils.Database) -> int:
    """Rewrite the one-document rows of the stale entries (in the caller's transaction): searchable ones
    get their terms (`tokens.document_text`), the others (rejected, retired) lose their row. Every entry
    is stale when the documents were written by other rules (`documents_version`). Returns how many were.

    The rows are written in rowid order, in one statement: FTS5 flushes its pending postings as a new
    segment whenever a rowid is not above the last one, so rows in the order of their (hashed) rowids
    cost 2.7x the CPU of the same rows sorted (bench/RESULTS.md, "The entry index, again")."""
    version = documents_version()
    if get_meta(db, DOCUMENTS_KEY) != version:
        db.execute("UPDATE pitfalls SET document_stale = 1 WHERE document_stale = 0")
        set_meta(db, DOCUMENTS_KEY, version)
    stale = sorted(
        (entry_rowid(pid), pid) for (pid,) in db.execute("SELECT id FROM pitfalls WHERE document_stale = 1")
    )
    if not stale:
        return 0
    db.conn.executemany("DELETE FROM entries_fts WHERE rowid = ?", [(rowid,) for rowid, _ in stale])
    rowids = {pid: rowid for rowid, pid in stale}
    db.conn.executemany(
        "INSERT INTO entries_fts(rowid, pitfall_id, terms) VALUES (?, ?, ?)",
        ((rowids[pid], pid, _document(parts)) for pid, parts in _entry_parts(db, [pid for _, pid in stale])),
    )
    db.execute("UPDATE pitfalls SET document_stale = 0 WHERE document_stale = 1")
    return len(stale)


def documents_stale(db: sqlite_utils.Database) -> bool:
    """Whether any entry's one-document row waits to be rewritten (a read: no write lock)."""
    if get_meta(db, DOCUMENTS_KEY) != documents_version():
        return db.execute("SELECT 1 FROM pitfalls LIMIT 1").fetchone() is not None
    return db.execute("SELECT 1 FROM pitfalls WHERE document_stale = 1 LIMIT 1").fetchone() is not None


def _insert_example(
    db: sqlite_utils.Database,
    pitfall_id: str,
    kind: str,
    text: str,
    source: str,
    incident_id: int | None = None,
    provenance: str = "",
) -> int:
    cursor = db.execute(
        "INSERT INTO examples(pitfall_id, text, kind, source, incident_id, provenance, content_hash, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (pitfall_id, text, kind, source, incident_id, provenance, text_hash(text), now()),
    )
    return inserted_id(cursor)


def upsert_pitfall(db: sqlite_utils.Database, pitfall: Pitfall, status: str | None = None) -> bool:
    """Insert or update one entry with its curated examples and FTS row; False when unchanged.

    Examples whose text is unchanged keep their ids (and so their cached vectors).
    """
    status = status or pitfall.status
    digest = entry_hash(pitfall)
    row = db.execute("SELECT content_hash, status FROM pitfalls WHERE id = ?", (pitfall.id,)).fetchone()
    if row and row[0] == digest and row[1] == status:
        return False
    stamp = now()
    values = (
        pitfall.title,
        pitfall.title_zh,
        pitfall.layer,
        pitfall.severity,
        int(pitfall.benign),
        pitfall.summary,
        pitfall.summary_zh,
        pitfall.cause,
        json.dumps(pitfall.to_dict(), ensure_ascii=False),
        status,
        pitfall.provenance,
        digest,
    )
    if row:
        db.execute(
            "UPDATE pitfalls SET title=?, title_zh=?, layer=?, severity=?, benign=?, summary=?, "
            "summary_zh=?, cause=?, body_json=?, status=?, provenance=?, content_hash=?, updated_at=?, "
            "document_stale=1 WHERE id=?",
            (*values, stamp, pitfall.id),
        )
    else:
        db.execute(
            "INSERT INTO pitfalls(title, title_zh, layer, severity, benign, summary, summary_zh, cause, "
            "body_json, status, provenance, content_hash, id, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, pitfall.id, stamp, stamp),
        )
    wanted = curated_examples(pitfall)
    existing = {
        (kind, text): eid
        for eid, kind, text in db.execute(
            "SELECT id, kind, text FROM examples WHERE pitfall_id = ? AND source = 'curated'", (pitfall.id,)
        )
    }
    for key, eid in existing.items():
        if key not in wanted:
            db.execute("DELETE FROM examples WHERE id = ?", (eid,))
    for kind, text in wanted:
        if (kind, text) not in existing:
            _insert_example(db, pitfall.id, kind, text, "curated")
    rowid = entry_rowid(pitfall.id)
    _fts_delete(db, rowid)
    _fts_insert(
        db,
        rowid,
        pitfall.id,
        None,
        (
            f"{pitfall.title}\n{pitfall.title_zh}",
            f"{pitfall.summary}\n{pitfall.summary_zh}",
            "\n".join((*pitfall.symptoms, *pitfall.symptoms_zh)),
            f"{pitfall.cause}\n{pitfall.cause_zh}".strip(),
        ),
    )
    return True


def add_example(
    db: sqlite_utils.Database,
    pitfall_id: str,
    text: str,
    source: str,
    incident_id: int | None,
    provenance: str = "",
) -> int:
    """Store one non-curated example and its FTS row; returns the example id."""
    example_id = _insert_example(
        db, pitfall_id, "incident" if source == "incident" else source, text, source, incident_id, provenance
    )
    _fts_insert(db, example_id, pitfall_id, example_id, ("", "", text, ""))
    _stale(db, [pitfall_id])
    return example_id


def sync_mined(db: sqlite_utils.Database, wanted: Iterable[tuple[str, str, str]]) -> int:
    """Make the stored mined examples exactly `wanted` (pitfall id, text, source URL); returns how
    many were added. Unchanged ones keep their ids (and so their cached vectors)."""
    want = set(wanted)
    have = {
        (pid, text, source): eid
        for eid, pid, text, source in db.execute(
            "SELECT id, pitfall_id, text, provenance FROM examples WHERE source = 'import' AND kind = 'mined'"
        )
    }
    changed = set()
    for key, eid in have.items():
        if key not in want:
            db.execute("DELETE FROM examples WHERE id = ?", (eid,))
            _fts_delete(db, eid)
            changed.add(key[0])
    added = 0
    for pid, text, source in sorted(want - set(have)):
        eid = _insert_example(db, pid, "mined", text, "import", None, source)
        _fts_insert(db, eid, pid, eid, ("", "", text, ""))
        changed.add(pid)
        added += 1
    _stale(db, changed)
    return added


def set_status(db: sqlite_utils.Database, pitfall_id: str, status: str) -> None:
    """Change an entry's status ('rejected' removes it from search)."""
    db.execute(
        "UPDATE pitfalls SET status = ?, updated_at = ?, document_stale = 1 WHERE id = ?",
        (status, now(), pitfall_id),
    )


def load_pitfall(db: sqlite_utils.Database, pitfall_id: str) -> tuple[Pitfall, str] | None:
    """An entry and its status, or None."""
    row = db.execute("SELECT body_json, status FROM pitfalls WHERE id = ?", (pitfall_id,)).fetchone()
    return (Pitfall.from_dict({**json.loads(row[0]), "status": row[1]}), row[1]) if row else None


def load_pitfalls(db: sqlite_utils.Database, statuses: Sequence[str] = SEARCHABLE) -> list[Pitfall]:
    """Entries with the given statuses, sorted by id."""
    marks = ",".join("?" * len(statuses))
    rows = db.execute(
        f"SELECT body_json, status FROM pitfalls WHERE status IN ({marks}) ORDER BY id", tuple(statuses)
    )
    return [Pitfall.from_dict({**json.loads(body), "status": status}) for body, status in rows]


def searchable_signatures(
    db: sqlite_utils.Database,
) -> tuple[frozenset[str], list[tuple[str, tuple[str, ...]]]]:
    """Ids of the searchable entries, and (id, signature patterns) of those with any, by id, without
    parsing the entries."""
    marks = ",".join("?" * len(SEARCHABLE))
    rows = db.execute(
        f"SELECT id, json_extract(body_json, '$.signatures') FROM pitfalls WHERE status IN ({marks}) "
        "ORDER BY id",
        SEARCHABLE,
    ).fetchall()
    pairs = [(pid, tuple(map(str, json.loads(found)))) for pid, found in rows if found not in (None, "[]")]
    return frozenset(pid for pid, _ in rows), pairs


class StoredEntries(Mapping[str, Pitfall]):
    """Entries by id, each parsed from SQLite when first looked up (a query shows about ten)."""

    KEEP = 10_000  # parsed entries kept; past it the cache starts again

    def __init__(self, ids: frozenset[str], db: Callable[[], sqlite_utils.Database]) -> None:
        self._ids = ids
        self._db = db
        self._parsed: dict[str, Pitfall] = {}

    def __getitem__(self, pitfall_id: str) -> Pitfall:
        found = self._parsed.get(pitfall_id)
        if found is None:
            loaded = load_pitfall(self._db(), pitfall_id) if pitfall_id in self._ids else None
            if loaded is None:
                raise KeyError(pitfall_id)
            if len(self._parsed) >= self.KEEP:
                self._parsed = {}
            found = self._parsed[pitfall_id] = loaded[0]
        return found

    def __contains__(self, pitfall_id: object) -> bool:
        return pitfall_id in self._ids

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._ids))

    def __len__(self) -> int:
        return len(self._ids)


def pitfall_ids(db: sqlite_utils.Database, statuses: Sequence[str] = SEARCHABLE) -> set[str]:
    """Ids of the entries with the given statuses (read from the status index alone)."""
    marks = ",".join("?" * len(statuses))
    rows = db.execute(f"SELECT id FROM pitfalls WHERE status IN ({marks})", tuple(statuses))
    return {row[0] for row in rows}


def examples_by_id(db: sqlite_utils.Database, ids: Iterable[int]) -> dict[int, ExampleRow]:
    """Examples with the given ids."""
    ids = list(ids)
    if not ids:
        return {}
    rows = db.execute(
        "SELECT id, pitfall_id, text, kind, source, incident_id FROM examples "
        f"WHERE id IN ({','.join('?' * len(ids))})",
        ids,
    )
    return {r[0]: ExampleRow(*r) for r in rows}


def example_owners(db: sqlite_utils.Database, ids: Sequence[int]) -> dict[int, tuple[str, int | None]]:
    """(entry id, incident id) of the examples with these ids: what ranking by nearest example needs,
    without reading their texts (`examples_by_id`)."""
    if not ids:
        return {}
    rows = db.execute(
        f"SELECT id, pitfall_id, incident_id FROM examples WHERE id IN ({','.join('?' * len(ids))})", ids
    )
    return {eid: (pitfall_id, incident_id) for eid, pitfall_id, incident_id in rows}


def resolutions_of(
    db: sqlite_utils.Database, incident_ids: Sequence[int]
) -> dict[int, tuple[str, bool, bool]]:
    """(who resolved it, vouched for, offered) of the resolved incidents with these ids: what a learned
    example's incident may add to an answer's confidence. Offered: the cause it was resolved as was
    one of the incident's answers' candidates (not a correction to a cause nobody was shown)."""
    if not incident_ids:
        return {}
    rows = db.execute(
        "SELECT r.incident_id, r.resolved_by, r.vouched, EXISTS (SELECT 1 FROM incident_candidates c"
        " WHERE c.incident_id = r.incident_id AND c.pitfall_id = r.cause_id) FROM resolutions r"
        f" WHERE r.incident_id IN ({','.join('?' * len(incident_ids))})",
        list(incident_ids),
    )
    return {iid: (str(user), bool(vouched), bool(offered)) for iid, user, vouched, offered in rows}


def vouched_drafts(db: sqlite_utils.Database, ids: Sequence[str]) -> set[str]:
    """The drafts among `ids` that a resolution vouched for created (a maintainer's or the operator's
    new cause, `resolutions.vouched`); imported drafts and one channel member's are not."""
    if not ids:
        return set()
    rows = db.execute(
        "SELECT d.id FROM drafts d JOIN resolutions r ON r.incident_id = d.incident_id AND r.cause_id = d.id"
        f" WHERE r.vouched = 1 AND d.id IN ({','.join('?' * len(ids))})",
        list(ids),
    )
    return {row[0] for row in rows}


def embedding_state(db: sqlite_utils.Database, model: str) -> Iterator[tuple[int, str, str | None]]:
    """(example id, text, content hash of its `model` vector or None) for every example, streamed (at
    100k entries the list held 400,000 texts); write the tables only once it is consumed."""
    yield from db.execute(
        "SELECT e.id, e.text, v.content_hash FROM examples e LEFT JOIN embeddings v "
        "ON v.example_id = e.id AND v.model = ? ORDER BY e.id",
        (model,),
    )


def delete_vectors(db: sqlite_utils.Database, example_ids: Sequence[int]) -> None:
    """Drop the vectors of these examples."""
    db.conn.executemany("DELETE FROM embeddings WHERE example_id = ?", [(eid,) for eid in example_ids])


def cached_vectors(db: sqlite_utils.Database, model: str, hashes: Iterable[str]) -> dict[str, bytes]:
    """Vectors already computed by `model` for any example with these content hashes."""
    found: dict[str, bytes] = {}
    hashes = list(dict.fromkeys(hashes))
    for start in range(0, len(hashes), 500):
        chunk = hashes[start : start + 500]
        found.update(
            db.execute(
                f"SELECT content_hash, vector FROM embeddings WHERE model = ? AND content_hash IN "
                f"({','.join('?' * len(chunk))})",
                (model, *chunk),
            ).fetchall()
        )
    return found


def store_vectors(
    db: sqlite_utils.Database, model: str, rows: Sequence[tuple[int, str, bytes]], dim: int
) -> None:
    """Save (example id, content hash, float32 bytes) vectors for `model`."""
    db.conn.executemany(
        "INSERT OR REPLACE INTO embeddings(example_id, model, dim, vector, content_hash) "
        "VALUES (?, ?, ?, ?, ?)",
        [(eid, model, dim, blob, digest) for eid, digest, blob in rows],
    )


def searchable_ids(db: sqlite_utils.Database, model: str, dim: int) -> np.ndarray:
    """Example ids, ascending, of every searchable example embedded by `model` (at `dim`: a model's
    vectors all have its dimension, `store_vectors` writes the embedder's).

    Two reads of indexes, intersected: the examples of searchable entries, and the examples with a
    `model` vector (index `embeddings_hash`). A join read every vector row for its model and dimension:
    at 100,000 entries 7-12 s of CPU instead of about 1 s."""
    import numpy as np

    searchable = db.execute(
        "SELECT id FROM examples WHERE pitfall_id IN "
        f"(SELECT id FROM pitfalls WHERE status IN ({','.join('?' * len(SEARCHABLE))}))",
        SEARCHABLE,
    )
    embedded = db.execute("SELECT example_id FROM embeddings WHERE model = ?", (model,))
    return np.intersect1d(
        np.fromiter((row[0] for row in searchable), dtype=np.int64),
        np.fromiter((row[0] for row in embedded), dtype=np.int64),
        assume_unique=True,
    )


def vectors_of(db: sqlite_utils.Database, model: str, dim: int, ids: np.ndarray) -> np.ndarray:
    """The `model` vectors of these example ids (one row each, in order; zeros where one is gone)."""
    import numpy as np

    out = np.zeros((len(ids), dim), dtype=np.float32)
    where = {int(eid): row for row, eid in enumerate(ids)}
    for start in range(0, len(ids), 500):
        chunk = [int(eid) for eid in ids[start : start + 500]]
        marks = ",".join("?" * len(chunk))
        for eid, blob in db.execute(
            "SELECT example_id, vector FROM embeddings WHERE model = ? AND dim = ? "
            f"AND example_id IN ({marks})",
            (model, dim, *chunk),
        ):
            out[where[eid]] = np.frombuffer(blob, dtype=np.float32)
    return out


def searchable_vectors(
    db: sqlite_utils.Database, model: str, dim: int, ids: np.ndarray, size: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(example ids, vectors) of the examples in `ids` (ascending: `searchable_ids`), `size` ids at a
    time: one range of the embeddings table each, the rows outside `ids` dropped (no join)."""
    import numpy as np

    for start in range(0, len(ids), size):
        wanted = ids[start : start + size]
        rows = db.execute(
            "SELECT example_id, vector FROM embeddings WHERE model = ? AND dim = ? "
            "AND example_id BETWEEN ? AND ? ORDER BY example_id",
            (model, dim, int(wanted[0]), int(wanted[-1])),
        ).fetchall()
        found = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        keep = np.flatnonzero(np.isin(found, wanted, assume_unique=True))
        vectors = np.empty((len(keep), dim), dtype=np.float32)
        for i, row in enumerate(keep.tolist()):
            vectors[i] = np.frombuffer(rows[row][1], dtype=np.float32)
        yield found[keep], vectors


def fingerprint(db: sqlite_utils.Database, model: str, salt: str = "") -> str:
    """A hash of which examples are searchable and what they say: the faiss cache's validity key."""
    digest = hashlib.sha256(f"{model}\0{salt}".encode())
    for eid, content in db.execute(
        "SELECT e.id, e.content_hash FROM examples e JOIN pitfalls p ON p.id = e.pitfall_id "
        "WHERE p.status IN ('curated', 'draft') ORDER BY e.id"
    ):
        digest.update(f"{eid}:{content};".encode())
    return digest.hexdigest()


VOCABULARIES = {"words_fts": "words_vocab", "docs_fts": "docs_vocab"}
COMPACT_ROWS = 20_000  # FTS rows up to which `refresh_lexical` merges the indexes into one segment


def refresh_lexical(db: sqlite_utils.Database) -> None:
    """After a content change: snapshot every term's document count in both FTS indexes (one scan of
    each vocabulary) and, up to COMPACT_ROWS rows, merge each index into one segment.

    Rows written one entry at a time leave an index in about 20 segments, and a query reads every
    term's postings from each: one segment makes a 1k-entry KB's word query 5.7 -> 3.6 ms and its
    trigram query 3.0 -> 0.9 ms, for 0.25 s of CPU. The ranking cannot change (same rows, same
    statistics, same row order). At 100k entries the merge took 32 s of CPU for under 2 ms a query."""
    with db.conn:
        db.execute("BEGIN IMMEDIATE")
        if db.execute("SELECT count(*) FROM words_fts_docsize").fetchone()[0] <= COMPACT_ROWS:
            for fts in FTS_TABLES:
                db.execute(f"INSERT INTO {fts}({fts}) VALUES ('optimize')")
        db.execute("DELETE FROM term_df")
        for fts, vocab in VOCABULARIES.items():
            db.execute(f"INSERT INTO term_df(fts, term, df) SELECT ?, term, doc FROM {vocab}", (fts,))


def term_df(db: sqlite_utils.Database, fts: str, terms: Sequence[str]) -> dict[str, int]:
    """Document counts of `terms` in index `fts` from the snapshot (newer terms are missing: rare)."""
    if not terms:
        return {}
    marks = ",".join("?" * len(terms))
    rows = db.execute(f"SELECT term, df FROM term_df WHERE fts = ? AND term IN ({marks})", (fts, *terms))
    return dict(rows.fetchall())


def get_meta(db: sqlite_utils.Database, key: str) -> str | None:
    """A value from kb_meta."""
    row = db.execute("SELECT value FROM kb_meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta(db: sqlite_utils.Database, key: str, value: str) -> None:
    """Set a value in kb_meta."""
    db.execute("INSERT OR REPLACE INTO kb_meta(key, value) VALUES (?, ?)", (key, value))


WORDS_KEY = "words_version"


def reindex_words(db: sqlite_utils.Database) -> bool:
    """Rewrite the word index from the trigram index's stored text, and every entry document, when
    `word_text` changed since they were written (kb.tokens.words_version); True when it did. An empty
    index only records the version. One transaction; then `refresh_lexical`."""
    version = words_version()
    if get_meta(db, WORDS_KEY) == version:
        return False
    if db.execute("SELECT 1 FROM words_fts LIMIT 1").fetchone() is None:
        set_meta(db, WORDS_KEY, version)
        db.conn.commit()
        return False
    with db.conn:
        db.execute("BEGIN IMMEDIATE")
        rows = db.execute(
            "SELECT rowid, pitfall_id, example_id, title, summary, symptoms, cause FROM docs_fts"
        ).fetchall()
        db.execute("DELETE FROM words_fts")
        db.conn.executemany(
            "INSERT INTO words_fts(rowid, pitfall_id, example_id, title, summary, symptoms, cause) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(r[0], r[1], r[2], *(word_text(f or "") for f in r[3:])) for r in rows],
        )
        refresh_documents(db)  # the entry documents hold the same words (`documents_version`)
        set_meta(db, WORDS_KEY, version)
    refresh_lexical(db)
    return True


ADMITTED_KEY = "admitted_signatures"


def admitted_signatures(db: sqlite_utils.Database) -> frozenset[str]:
    """Admission keys of the signatures that passed kb.signatures' probes on this database."""
    return frozenset(json.loads(get_meta(db, ADMITTED_KEY) or "[]"))


def record_admitted(db: sqlite_utils.Database, keys: Collection[str]) -> None:
    """Add admission keys (in one transaction with what is already recorded)."""
    with db.conn:
        db.execute("BEGIN IMMEDIATE")
        known = admitted_signatures(db)
        if not known.issuperset(keys):
            set_meta(db, ADMITTED_KEY, json.dumps(sorted(known.union(keys))))

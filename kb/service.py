"""`KnowledgeBase`: the one object the CLI, the bot and the collectors use to query the KB.

Opening loads the bundled entry files into SQLite when they changed (content hash), then the
faiss cache beside the database (`<db>.faiss` + `<db>.faiss.json`) when it matches SQLite's
content and the model; otherwise missing vectors are embedded (cached in SQLite by content hash,
so only changed text is embedded) and the index is rebuilt. The model loads on first use.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from pitstop.core.db import open_db
from pitstop.core.errors import NotFound, UsageError
from pitstop.core.i18n import msg
from pitstop.kb import specificity, store
from pitstop.kb.embed import Embedder
from pitstop.kb.feedback import FeedbackAdjuster
from pitstop.kb.glossary import VERSION as GLOSSARY_VERSION
from pitstop.kb.glossary import DenseView, dense_view
from pitstop.kb.index import BATCH, IndexMeta, VectorIndex
from pitstop.kb.loader import SyncReport, sync_entries
from pitstop.kb.onnx_embed import OnnxEmbedder, default_embedder
from pitstop.kb.retrieve import MODES, Answer, Catalog, Retriever, Tuning
from pitstop.kb.schema import PITFALLS_DIR, Pitfall

if TYPE_CHECKING:
    pass

EXAMPLE_SOURCES = ("curated", "incident", "import")
# SQLite's page cache per KB connection, in KiB (its default is 2,000). At 100,000 entries a word query
# ranks about 4,000 FTS rows, each looking up its size and positions: with 16 MiB of cached pages one
# one-line ask takes 12% less CPU (bench/RESULTS.md, "The 100k KB, round 6"). An upper bound: a
# small KB caches only what it has.
CACHE_KIB = 16_384


@dataclass(frozen=True)
class Neighbour:
    """An entry close in meaning to some text."""

    pitfall_id: str
    similarity: float
    text: str  # the nearest example


class KnowledgeBase:
    """Pitfall entries in SQLite plus the hybrid retriever over them."""

    def __init__(
        self,
        db_path: Path,
        entries_dir: Path | None,
        embedder: Embedder | OnnxEmbedder,
        tuning: Tuning | None = None,
    ) -> None:
        self.db_path = Path(db_path)
        self.index_path = Path(f"{self.db_path}.faiss")
        self.entries_dir = entries_dir
        self.embedder = embedder
        self._local = threading.local()
        self._lock = threading.RLock()
        self._catalog: Catalog | None = None
        self._warm = False  # a long-lived process: build what pays off over many queries
        self._index: VectorIndex | None = None
        self.retriever = Retriever(
            self._db,
            self._get_catalog,
            self._get_index,
            embedder,
            tuning,
            adjustments=FeedbackAdjuster(self._db, embedder),
        )
        self.last_sync: SyncReport | None = None

    @classmethod
    def open(
        cls,
        db_path: str | Path,
        *,
        entries_dir: Path | None = PITFALLS_DIR,
        embedder: Embedder | OnnxEmbedder | None = None,
        tuning: Tuning | None = None,
    ) -> KnowledgeBase:
        """Open the KB at `db_path`, loading the bundled entries if they changed since the last load.

        `entries_dir=None` skips the bundled files (a KB built from `upsert_pitfall` alone).
        Without `embedder`, the ONNX export of the model (kb.onnx_embed) embeds.
        Invalid entry files raise UsageError listing every problem.
        """
        kb = cls(Path(db_path), entries_dir, embedder or default_embedder(), tuning)
        if entries_dir is not None:
            kb.build()
        return kb

    def _db(self) -> sqlite_utils.Database:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = open_db(self.db_path)
            db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        return db

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection to the KB database."""
        return self._db()

    def close(self) -> None:
        """Close this thread's database connection."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # --- loading ---

    def build(self, force: bool = False) -> SyncReport:
        """Load the bundled entry files into SQLite if they changed (always with `force`)."""
        if self.entries_dir is None:
            raise UsageError(msg("errors.kb.no_entry_files"))
        reindexed = store.reindex_words(self._db())  # first: on a new database it only records the rules
        try:
            report = sync_entries(self._db(), self.entries_dir, force=force)
        except ValueError as exc:
            raise UsageError(msg("errors.kb.bad_entries", error=str(exc))) from None
        self.last_sync = report
        if reindexed or not report.skipped:
            self._invalidate()
            self._get_catalog()  # what the signatures match is stored now, not at the first query
        return report

    def _invalidate(self) -> None:
        with self._lock:
            self._catalog = None
            self._index = None

    def _get_catalog(self) -> Catalog:
        with self._lock:
            if self._catalog is None:
                db = self._db()
                if store.documents_stale(db):  # entries written before m014, or by other document rules
                    with db.conn:
                        db.execute("BEGIN IMMEDIATE")
                        store.refresh_documents(db)
                known = store.admitted_signatures(db)
                catalog = Catalog.from_store(self._db, known)
                if not known.issuperset(catalog.admitted):
                    store.record_admitted(db, catalog.admitted)
                self._catalog = specificity.weigh(db, catalog)
                if self._warm:
                    self._catalog.prefilter()
            return self._catalog

    def _get_index(self) -> VectorIndex:
        with self._lock:
            if self._index is None:
                self._index = self._load_or_build_index()
            return self._index

    def _embed_missing(self) -> int:
        """Embed examples whose vector is missing or stale, reusing vectors of identical text.

        Chinese examples are embedded through their English view (kb.glossary); an example with
        nothing left to embed has no vector and is found by the lexical signals only.
        """
        db, model = self._db(), self.embedder.name
        todo: list[tuple[int, DenseView]] = []
        empty: list[int] = []
        for eid, text, have in store.embedding_state(db, model):
            view = dense_view(text)
            if view is None and have is not None:
                empty.append(eid)
            elif view is not None and view.digest != have:
                todo.append((eid, view))
        vectors, fresh = self._vectors([view for _, view in todo])
        rows = [(eid, view.digest, vectors[view.digest]) for eid, view in todo]
        with db.conn:
            db.execute("BEGIN IMMEDIATE")
            store.delete_vectors(db, empty)
            store.store_vectors(db, model, rows, self.embedder.dim)
        return fresh

    def _vectors(self, views: Sequence[DenseView]) -> tuple[dict[str, bytes], int]:
        """float32 bytes per view digest, reusing vectors already in SQLite; also how many were new."""
        cached = store.cached_vectors(self._db(), self.embedder.name, (v.digest for v in views))
        todo = list({v.digest: v.text for v in views if v.digest not in cached}.items())
        encoded = self.embedder.encode([text for _, text in todo])
        fresh = {digest: vec.tobytes() for (digest, _), vec in zip(todo, encoded, strict=True)}
        return {**cached, **fresh}, len(todo)

    def _fingerprint(self) -> str:
        return store.fingerprint(self._db(), self.embedder.name, salt=GLOSSARY_VERSION)

    def _load_or_build_index(self) -> VectorIndex:
        db, model, dim = self._db(), self.embedder.name, self.embedder.dim
        fingerprint = self._fingerprint()
        cached = VectorIndex.load(self.index_path, model, dim, fingerprint)
        if cached is not None:
            return cached
        self._embed_missing()
        store.refresh_lexical(db)  # content changed: the lexical cost estimates (and segments) too
        ids = store.searchable_ids(db, model, dim)
        index = VectorIndex.build_batched(
            len(ids),
            dim,
            lambda rows: store.vectors_of(db, model, dim, ids[rows]),
            store.searchable_vectors(db, model, dim, ids, BATCH),
            model,
            fingerprint,
        )
        index.save(self.index_path)
        return index

    def index_meta(self) -> IndexMeta:
        """What the current vector index holds (building it if needed)."""
        return self._get_index().meta

    def warm(self) -> None:
        """Load everything a query needs now (catalog, index, model) instead of on the first query, and
        keep the catalog's signature prefilter built from now on (a long-lived process's)."""
        self._warm = True
        self._get_catalog().prefilter()
        self._get_index()
        self.embedder.encode(["warm up"])

    # --- queries ---

    def ask(self, text: str, top: int = 5, mode: str = "hybrid") -> Answer:
        """Rank known root causes for a paste (see kb.retrieve); UsageError on empty/unusable text."""
        if not isinstance(text, str):
            raise UsageError(msg("errors.paste.not_text"))
        if mode not in MODES:
            raise UsageError(msg("errors.kb.unknown_mode", mode=mode, modes=", ".join(MODES)))
        return self.retriever.ask(text, top=max(1, int(top)), mode=mode)

    def nearest(self, text: str, top: int = 5, statuses: Sequence[str] = ("curated",)) -> list[Neighbour]:
        """Entries closest in meaning to `text` (dense similarity of the nearest example), best first."""
        view = dense_view(text)
        if view is None:
            return []
        hits = self._get_index().search(self.embedder.encode([view.text]), 200)
        examples = store.examples_by_id(self._db(), [eid for eid, _ in hits])
        wanted = store.pitfall_ids(self._db(), tuple(statuses))
        found: dict[str, Neighbour] = {}
        for eid, similarity in hits:
            example = examples.get(eid)
            if example and example.pitfall_id in wanted and example.pitfall_id not in found:
                found[example.pitfall_id] = Neighbour(example.pitfall_id, float(similarity), example.text)
        return list(found.values())[:top]

    def get(self, pitfall_id: str) -> Pitfall:
        """One entry (any status); NotFound when unknown."""
        found = store.load_pitfall(self._db(), pitfall_id)
        if found is None:
            raise NotFound(msg("errors.kb.no_pitfall", id=pitfall_id))
        return found[0]

    def all(self, statuses: Sequence[str] = ("curated", "draft")) -> list[Pitfall]:
        """Searchable entries (curated and draft), sorted by id."""
        return store.load_pitfalls(self._db(), tuple(statuses))

    # --- writes ---

    def add_example(
        self,
        pitfall_id: str,
        text: str,
        source: str = "incident",
        incident_id: int | None = None,
        provenance: str = "",
    ) -> int:
        """Store an example of an entry, embed it and add it to the index (no rebuild); returns its id."""
        import numpy as np

        text = text.strip()
        if not text:
            raise UsageError(msg("errors.kb.example_empty"))
        if source not in EXAMPLE_SOURCES or source == "curated":
            raise UsageError(msg("errors.kb.example_source", source=source))

        self.get(pitfall_id)
        index = self._get_index()
        view = dense_view(text)  # exactly what a build would embed for this text
        vectors = self._vectors([view])[0] if view else {}
        db = self._db()
        with self._lock, db.conn:
            db.execute("BEGIN IMMEDIATE")
            example_id = store.add_example(db, pitfall_id, text, source, incident_id, provenance)
            store.refresh_documents(db)
            if view:
                row = (example_id, view.digest, vectors[view.digest])
                store.store_vectors(db, self.embedder.name, [row], self.embedder.dim)
        ids = np.array([example_id] if view else [], dtype=np.int64)
        added = (  # no view: nothing to add, but SQLite's new fingerprint is still recorded
            np.frombuffer(vectors[view.digest], dtype=np.float32).reshape(1, -1)
            if view
            else np.empty((0, self.embedder.dim), dtype=np.float32)
        )
        with self._lock:
            index.add(ids, added, self._fingerprint())
            index.save(self.index_path)
            self._catalog = specificity.weigh(db, self._get_catalog())  # the new text's matches
        return example_id

    def upsert_pitfall(
        self, pitfall: Pitfall, examples: Iterable[str] = (), source: str = "incident"
    ) -> None:
        """Insert or update an entry (e.g. a learned 'draft', searchable with Match.draft=True).

        Its title, summary and symptoms become curated examples; `examples` are extra texts stored
        with `source` unless already present. Status 'rejected' removes it from search. The index
        and the stored signature matches (kb.specificity) are refreshed from SQLite on the next query
        (only new text is embedded, only new signatures and texts are matched), so an import of many
        entries pays once.
        """
        db = self._db()
        with self._lock, db.conn:
            db.execute("BEGIN IMMEDIATE")
            store.upsert_pitfall(db, pitfall)
            have = {
                row[0] for row in db.execute("SELECT text FROM examples WHERE pitfall_id = ?", (pitfall.id,))
            }
            for text in dict.fromkeys(t.strip() for t in examples):
                if text and text not in have:
                    store.add_example(db, pitfall.id, text, source, None, pitfall.provenance)
            store.refresh_documents(db)
        self._invalidate()

"""A plain BM25 over the KB's own text: the baseline every retrieval figure is compared with.

One document per searchable entry (`store.entry_documents`, the same text as the product's
entry-level signal): its title, summary, symptoms and cause in both languages plus every stored
example (curated, imported, learned). Terms are lowercased words and CJK character
bigrams, no stopwords (`store.document_terms`); nothing else (no signatures, fusion or glossary, nor
the word index's whole Chinese words).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import sqlite_utils

from pitstop.kb.store import document_terms, entry_documents

K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class BM25:
    """Okapi BM25 over one document per entry."""

    ids: tuple[str, ...]
    counts: tuple[Counter[str], ...]
    lengths: tuple[int, ...]
    idf: dict[str, float]

    @classmethod
    def from_db(cls, db: sqlite_utils.Database) -> BM25:
        """Index the searchable entries and their examples in `db`."""
        texts = dict(entry_documents(db))
        ids = tuple(texts)
        counts = tuple(Counter(document_terms(texts[pid])) for pid in ids)
        df = Counter(term for c in counts for term in c)
        n = len(ids)
        idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        return cls(ids, counts, tuple(sum(c.values()) for c in counts), idf)

    def rank(self, query: str, top: int = 10) -> list[str]:
        """Entry ids by BM25 score of `query`, best first (only entries sharing a term)."""
        terms = [t for t in dict.fromkeys(document_terms(query)) if t in self.idf]
        if not terms:
            return []
        mean = sum(self.lengths) / max(1, len(self.lengths))
        scored = []
        for pid, counts, length in zip(self.ids, self.counts, self.lengths, strict=True):
            norm = K1 * (1 - B + B * length / mean)
            score = sum(self.idf[t] * counts[t] * (K1 + 1) / (counts[t] + norm) for t in terms if t in counts)
            if score > 0:
                scored.append((-score, pid))
        return [pid for _, pid in sorted(scored)[:top]]

"""A plain BM25 over the KB's own text: the baseline every retrieval figure is compared with.

One document per searchable entry: its title, summary, symptoms and cause in both languages plus
every stored example (curated, imported, learned). Terms are lowercased words and CJK character
bigrams, no stopwords; nothing else (no signatures, fusion or glossary, nor the word index's whole
Chinese words).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import sqlite_utils

from pitstop.kb.tokens import WORD, bigram_text, informative

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
        texts: dict[str, list[str]] = {}
        for pid, title, title_zh, summary, summary_zh, cause in db.execute(
            "SELECT id, title, title_zh, summary, summary_zh, cause FROM pitfalls"
            " WHERE status IN ('curated', 'draft') ORDER BY id"
        ):
            texts[pid] = [title, title_zh or "", summary, summary_zh or "", cause]
        for pid, text in db.execute("SELECT pitfall_id, text FROM examples ORDER BY id"):
            if pid in texts:
                texts[pid].append(text)
        ids = tuple(texts)
        counts = tuple(Counter(_terms("\n".join(texts[pid]))) for pid in ids)
        df = Counter(term for c in counts for term in c)
        n = len(ids)
        idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        return cls(ids, counts, tuple(sum(c.values()) for c in counts), idf)

    def rank(self, query: str, top: int = 10) -> list[str]:
        """Entry ids by BM25 score of `query`, best first (only entries sharing a term)."""
        terms = [t for t in dict.fromkeys(_terms(query)) if t in self.idf]
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


def _terms(text: str) -> list[str]:
    """Every word-index term occurrence (`word_terms` keeps distinct ones; BM25 needs counts)."""
    return [t for t in (w.lower() for w in WORD.findall(bigram_text(text))) if informative(t)]

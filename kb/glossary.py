"""A small Chinese -> English glossary of GPU-operations terms, and the English view of Chinese text.

The bundled embedding model only knows English: to it every Chinese sentence looks alike (an
unrelated Chinese question scores 0.6+ against Chinese symptoms). So Chinese text, on both the
entry side and the query side, is embedded through its English view: glossary terms translated
in place, Latin words and codes kept, other Chinese characters dropped.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from pitstop.core.i18n import CJK, detect_lang
from pitstop.kb.store import text_hash
from pitstop.kb.zh_terms import GLOSSARY

_TERMS = sorted(GLOSSARY, key=len, reverse=True)
_LONGEST = re.compile("|".join(re.escape(term) for term in _TERMS))
VIEW_RULES = 2  # bump when english_view/dense_text change, so cached vectors are rebuilt
VERSION = hashlib.sha256(repr((VIEW_RULES, sorted(GLOSSARY.items()))).encode()).hexdigest()[:12]


def english_view(text: str) -> str:
    """`text` with glossary terms replaced by English and remaining Chinese characters dropped."""
    translated = _LONGEST.sub(lambda m: f" {GLOSSARY[m.group(0)]} ", text)
    return re.sub(r"\s+", " ", CJK.sub(" ", translated)).strip()


def dense_text(text: str) -> str:
    """What the English-only model should embed for `text` ('' when no word is left)."""
    view = text if detect_lang(text) == "en" else english_view(text)
    return view if re.search(r"[A-Za-z0-9]", view) else ""


@dataclass(frozen=True)
class DenseView:
    """The text the model embeds for some input, and the hash its stored vector is keyed by."""

    text: str
    digest: str


def dense_view(text: str) -> DenseView | None:
    """The one embedding view of a stored text (examples at build and run time, incident texts).

    None when nothing is left to embed (the text is then found by the lexical signals only).
    """
    view = dense_text(text)
    return DenseView(view, text_hash(view)) if view else None


def translate_terms(text: str) -> list[str]:
    """English renderings of the glossary terms found in `text`, longest match first, no overlaps."""
    found: list[str] = []
    taken = [False] * len(text)
    for term in _TERMS:
        start = text.find(term)
        while start != -1:
            span = range(start, start + len(term))
            if not any(taken[i] for i in span):
                for i in span:
                    taken[i] = True
                found.append(GLOSSARY[term])
            start = text.find(term, start + 1)
    return list(dict.fromkeys(found))

"""Terms for the two FTS5 indexes, built the same way for stored text and for queries.

`words_fts` uses unicode61, which treats a run of Chinese characters as one token; we rewrite
every CJK run as overlapping character bigrams so that two-character words (显存, 降频, 掉卡) match,
plus the known ops words it contains (kb.zh_terms: 宿主机, 带宽上不去), kept whole so that a shared
word counts for more than a stray bigram across two words.
`docs_fts` uses trigrams, so its query terms are substrings of at least three characters.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import cache, lru_cache

from pitstop.kb.zh_terms import GLOSSARY, SEGMENT_WORDS

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
WORD = re.compile(r"[^\W_]+")
MAX_TERMS = 48
MAX_TRIGRAM_TERMS = 24

STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have how i if in into
    is it its just me my no not of on or our so some than that the then there this to too us was we
    were what when which while who why will with you your after again also any all get got only
    one two very would should now here like still even same other more most much out up down""".split()
)

# Chinese function characters and filler bigrams that carry no symptom meaning (query side only).
CJK_FILLER_CHARS = frozenset("的了吗呢吧啊呀么着过")
CJK_FILLER_BIGRAMS = frozenset(
    """时候 一直 什么 怎么 这个 那个 我们 你们 他们 就是 但是 还是 然后 已经 现在 可以 没有 不是
    一个 出现 问题 请问 大家 一下 有点 感觉 好像 如何 这样 那样 里面 之后 之前 以后 以前 还有
    或者 因为 所以""".split()
)


def _split_cjk(text: str, known: re.Pattern[str] | None) -> str:
    """`text` with each CJK run replaced by the `known` words in it (leftmost, longest first, without
    overlaps) and its overlapping character bigrams; a one-character run stays as it is."""

    def split(match: re.Match[str]) -> str:
        run = match.group(0)
        if len(run) == 1:
            return f" {run} "
        whole = known.findall(run) if known is not None else []
        return " " + " ".join([*whole, *(run[i : i + 2] for i in range(len(run) - 1))]) + " "

    return CJK_RUN.sub(split, text)


def bigram_text(text: str) -> str:
    """`text` with each CJK run replaced by its overlapping character bigrams."""
    return _split_cjk(text, None)


@cache
def _known_words() -> re.Pattern[str]:
    """The glossary's Chinese terms and SEGMENT_WORDS as one pattern, longest first."""
    words = sorted({*GLOSSARY, *SEGMENT_WORDS}, key=lambda w: (-len(w), w))
    return re.compile("|".join(map(re.escape, words)))


WORD_RULES = 1  # bump when word_text changes


@cache
def words_version() -> str:
    """Identifies how word_text splits Chinese; the word index is rebuilt when it changes."""
    return hashlib.sha256(f"{WORD_RULES}:{_known_words().pattern}".encode()).hexdigest()[:12]


def word_text(text: str) -> str:
    """`text` with each CJK run replaced by the known words in it and its bigrams (the word index's terms)."""
    return _split_cjk(text, _known_words())


LONG_WORD = re.compile(r"[^\W_]{2,}")  # a WORD of two characters or more
CJK_SPLIT = re.compile(f"({CJK_RUN.pattern})")


@lru_cache(maxsize=1 << 16)
def _cjk_document_terms(run: str) -> str:
    """A CJK run's informative document terms (a run recurs often: in a KB's examples, its titles)."""
    return " ".join(t for t in WORD.findall(word_text(run)) if informative(t))


def document_text(text: str) -> str:
    """Every term occurrence of `text` as one space-separated string: the word index's terms (lowercased
    words, CJK character bigrams and the known whole words) without stopwords, the Chinese terms last
    (BM25 counts terms; the order is not used). kb.baseline counts the same without the whole words.
    Built with whole-text regexes instead of a Python step per term, since every entry's whole text
    goes through it at each build (bench/RESULTS.md, "The entry index, again")."""
    parts = CJK_SPLIT.split(text)  # text, CJK run, text, ...
    words = [t for t in LONG_WORD.findall(" ".join(parts[::2]).lower()) if t not in STOPWORDS]
    return " ".join([*words, *filter(None, map(_cjk_document_terms, parts[1::2]))])


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def word_terms(text: str) -> list[str]:
    """Distinct word-index terms of `text` in order: lowercased words, numbers, CJK bigrams and known
    words, no stopwords."""
    terms = (t.lower() for t in WORD.findall(word_text(text)))
    return _unique(t for t in terms if informative(t))


def select_terms(terms: Sequence[str], preferred: Collection[str], df: Mapping[str, int]) -> list[str]:
    """At most MAX_TERMS of `terms`: the `preferred` ones (from error lines) first, each group rarest first.

    `df` holds document counts; a term missing from it is in no indexed text and goes last.
    """
    if len(terms) <= MAX_TERMS:
        return list(terms)
    return sorted(terms, key=lambda t: (t not in preferred, t not in df, df.get(t, 0)))[:MAX_TERMS]


def informative(term: str) -> bool:
    """False for stopwords, one-letter words and Chinese filler."""
    if CJK_RUN.match(term):
        return term not in CJK_FILLER_BIGRAMS and not CJK_FILLER_CHARS.intersection(term)
    return len(term) > 1 and term not in STOPWORDS


def trigram_terms(text: str) -> list[str]:
    """Substrings for the trigram index: code-like Latin tokens and CJK trigrams, lowercased.

    Code-like (a digit, '_', '.', '-', an inner capital, or 8+ letters: `cudaErrorSystemNotReady`,
    `libnccl.so`, `enp4s0`) because plain words are the word index's job, and a common word's
    trigrams would make the search walk most of the index on a large KB.
    """
    latin = (t.strip(".-+") for t in re.findall(r"[A-Za-z][\w.+-]{3,}", text))
    coded = (t.lower() for t in latin if len(t) >= 8 or re.search(r"[\d_.-]|.[A-Z]", t))
    cjk = (run[i : i + 3] for run in CJK_RUN.findall(text) for i in range(max(0, len(run) - 2)))
    return _unique([*coded, *cjk])[:MAX_TRIGRAM_TERMS]


def match_expression(terms: Iterable[str]) -> str:
    """An FTS5 MATCH expression that ORs the quoted terms."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)

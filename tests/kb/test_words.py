"""The word index's Chinese terms: bigrams plus whole known words, and the rebuild when they change."""

from __future__ import annotations

from dataclasses import replace

from pitstop.core.db import open_db
from pitstop.kb import store
from pitstop.kb.tokens import bigram_text, word_terms, words_version
from tests.kb.entries import make_entry


def test_known_chinese_words_stay_whole_beside_the_bigrams():
    terms = word_terms("宿主机上看不到卡，带宽上不去")
    assert {"宿主机", "看不到卡", "带宽上不去"} <= set(terms)  # known words (kb.glossary)
    assert {"宿主", "主机", "机上", "到卡", "宽上"} <= set(terms)  # every bigram is still there
    assert word_terms("显存") == ["显存"]  # a known two-character word is one query term


def _matches(db, term: str) -> list[int]:
    return [r[0] for r in db.execute("SELECT rowid FROM words_fts WHERE words_fts MATCH ?", (f'"{term}"',))]


def test_a_word_index_written_by_other_rules_is_rebuilt_once(tmp_path):
    db = open_db(tmp_path / "kb.db")
    entry = replace(make_entry("gpu-hidden-in-container", ()), symptoms=("宿主机上看不到卡",))
    store.upsert_pitfall(db, entry)
    rowid = store.entry_rowid(entry.id)
    assert _matches(db, "宿主机") == [rowid]
    # as an older build wrote it: bigrams only, under another version
    db.execute("DELETE FROM words_fts WHERE rowid = ?", (rowid,))
    db.execute(
        "INSERT INTO words_fts(rowid, pitfall_id, example_id, title, summary, symptoms, cause) "
        "VALUES (?, ?, NULL, ?, ?, ?, '')",
        (rowid, entry.id, entry.title, entry.summary, bigram_text("宿主机上看不到卡")),
    )
    store.set_meta(db, store.WORDS_KEY, "older")
    assert _matches(db, "宿主机") == []
    assert store.reindex_words(db) is True
    assert _matches(db, "宿主机") == [rowid] and _matches(db, "宿主") == [rowid]
    assert store.get_meta(db, store.WORDS_KEY) == words_version()
    assert store.term_df(db, "words_fts", ["宿主机"]) == {"宿主机": 1}
    assert store.reindex_words(db) is False  # up to date: nothing rewritten


def test_a_new_word_index_only_records_the_rules(tmp_path):
    db = open_db(tmp_path / "kb.db")
    assert store.get_meta(db, store.WORDS_KEY) is None
    assert store.reindex_words(db) is False  # nothing written yet, so nothing to rewrite
    assert store.get_meta(db, store.WORDS_KEY) == words_version()

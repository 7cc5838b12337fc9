"""The faiss cache beside the database: reused, rebuilt on content or model change, updated incrementally."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from pitstop.kb.embed import Embedder
from pitstop.kb.glossary import dense_view
from pitstop.kb.index import VectorIndex
from pitstop.kb.service import KnowledgeBase

FIXTURES = Path(__file__).parent / "fixtures" / "entries"


class CountingEmbedder:
    """The real session model under a chosen name, counting the texts it embeds."""

    def __init__(self, inner: Embedder, name: str | None = None) -> None:
        self.inner, self.name, self.dim, self.texts = inner, name or inner.name, inner.dim, 0

    def encode(self, texts):
        self.texts += len(texts)
        return self.inner.encode(texts)


@pytest.fixture
def entries(tmp_path: Path) -> Path:
    target = tmp_path / "entries"
    shutil.copytree(FIXTURES, target)
    return target


def _open(tmp_path: Path, entries: Path, embedder) -> KnowledgeBase:
    kb = KnowledgeBase.open(tmp_path / "pitstop.db", entries_dir=entries, embedder=embedder)
    kb.index_meta()
    return kb


def test_cache_is_reused_without_embedding(tmp_path, entries, embedder):
    first = CountingEmbedder(embedder)
    _open(tmp_path, entries, first).close()
    assert first.texts > 0
    assert (tmp_path / "pitstop.db.faiss").is_file() and (tmp_path / "pitstop.db.faiss.json").is_file()
    second = CountingEmbedder(embedder)
    kb = _open(tmp_path, entries, second)
    assert second.texts == 0
    assert kb.index_meta().count == first.texts


def test_changed_entry_rebuilds_and_embeds_only_new_text(tmp_path, entries, embedder):
    _open(tmp_path, entries, CountingEmbedder(embedder)).close()
    path = entries / "fixture-disk-full.yaml"
    symptom = "  - 保存模型的时候报磁盘空间不足\n"
    text = path.read_text(encoding="utf-8").replace(symptom, symptom + "  - df -h shows /data at 100%\n")
    path.write_text(text, encoding="utf-8")
    again = CountingEmbedder(embedder)
    kb = _open(tmp_path, entries, again)
    assert kb.last_sync is not None and kb.last_sync.changed == 1
    assert again.texts == 1
    assert kb.ask("df -h shows /data at 100%", top=1).results[0].id == "fixture-disk-full"


def test_other_model_never_reuses_vectors(tmp_path, entries, embedder):
    base = _open(tmp_path, entries, CountingEmbedder(embedder))
    count = base.index_meta().count
    base.close()
    other = CountingEmbedder(embedder, name="test/other-model")
    kb = _open(tmp_path, entries, other)
    assert other.texts == count
    assert kb.index_meta().model == "test/other-model"
    models = {row[0] for row in kb.db.execute("SELECT DISTINCT model FROM embeddings")}
    assert models == {"test/other-model"}  # one vector per example: the old model's are replaced


def test_add_example_changes_ranking_incrementally(tmp_path, entries, embedder):
    kb = _open(tmp_path, entries, CountingEmbedder(embedder))
    query = "the rack PDU breaker tripped and the node rebooted"
    last = kb.ask(query, top=3).results[-1].id  # the entry that fits worst gets the incident's text
    before = kb.index_meta().count
    example_id = kb.add_example(last, query, incident_id=7)
    assert kb.index_meta().count == before + 1
    top = kb.ask(query, top=1).results[0]
    assert top.id == last
    assert any("incident" in str(why) for why in top.why)
    kb.close()
    reopened = CountingEmbedder(embedder)
    kb = _open(tmp_path, entries, reopened)
    assert reopened.texts == 0 and kb.index_meta().count == before + 1
    row = kb.db.execute("SELECT source, incident_id FROM examples WHERE id = ?", (example_id,)).fetchone()
    assert row == ("incident", 7)


def test_drafts_are_searchable_and_marked(tmp_path, entries, embedder):
    from dataclasses import replace

    kb = _open(tmp_path, entries, CountingEmbedder(embedder))
    draft = replace(
        kb.get("fixture-shm-small"),
        id="draft-ipc-namespace",
        status="draft",
        title="IPC namespace limits shared memory",
        signatures=("ipc namespace",),
        symptoms=("shmget failed: ipc namespace limit reached",),
    )
    kb.upsert_pitfall(draft, examples=["shmget: No space left on device inside the ipc namespace"])
    match = kb.ask("shmget failed: ipc namespace limit reached", top=1).results[0]
    assert (match.id, match.draft) == ("draft-ipc-namespace", True)
    kb.upsert_pitfall(replace(draft, status="rejected"))
    assert "draft-ipc-namespace" not in [m.id for m in kb.ask("ipc namespace shmget", top=5).results]


def test_vectors_in_sqlite_are_unit_length(tmp_path, entries, embedder):
    kb = _open(tmp_path, entries, CountingEmbedder(embedder))
    blob = kb.db.execute("SELECT vector, dim FROM embeddings LIMIT 1").fetchone()
    vector = np.frombuffer(blob[0], dtype=np.float32)
    assert vector.shape == (blob[1],) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-4


@pytest.mark.parametrize(
    "text",
    [
        "NCCL watchdog timeout right after the leaf switch firmware upgrade",
        "升级交换机固件后 NCCL 超时，训练卡住",
    ],
    ids=["english", "chinese"],
)
def test_example_added_at_run_time_is_embedded_as_at_build_time(
    tmp_path, entries, embedder, monkeypatch, text
):
    kb = _open(tmp_path, entries, CountingEmbedder(embedder))
    example_id = kb.add_example("fixture-disk-full", text, incident_id=3)
    view = dense_view(text)
    assert view is not None
    blob, digest = kb.db.execute(
        "SELECT vector, content_hash FROM embeddings WHERE example_id = ?", (example_id,)
    ).fetchone()
    assert digest == view.digest  # the key a build computes for this text
    vector = np.frombuffer(blob, dtype=np.float32)
    assert np.allclose(vector, embedder.encode([view.text])[0], atol=1e-6)  # the view, not the raw text
    if view.text != text:
        assert not np.allclose(vector, embedder.encode([text])[0], atol=1e-3)
    kb.close()

    def no_rebuild(*args, **kwargs):
        raise AssertionError("the index was rebuilt after a restart")

    monkeypatch.setattr(VectorIndex, "build", no_rebuild)
    reopened = CountingEmbedder(embedder)
    kb = _open(tmp_path, entries, reopened)
    assert reopened.texts == 0  # nothing to re-embed: the stored vector is the build-time one
    hits = dict(kb._get_index().search(embedder.encode([view.text]), 3))
    assert hits.get(example_id, 0.0) > 0.999


def test_example_with_nothing_to_embed_keeps_the_cache_valid(tmp_path, entries, embedder, monkeypatch):
    kb = _open(tmp_path, entries, CountingEmbedder(embedder))
    count = kb.index_meta().count
    kb.add_example("fixture-disk-full", "全是中文没有术语", incident_id=4)
    assert kb.index_meta().count == count  # found by the lexical signals only
    kb.close()
    monkeypatch.setattr(VectorIndex, "build", lambda *a, **k: pytest.fail("the index was rebuilt"))
    assert _open(tmp_path, entries, CountingEmbedder(embedder)).index_meta().count == count


def test_large_index_is_approximate_and_agrees_with_exact_search(tmp_path, monkeypatch):
    """Above the threshold the index is IVF with float16 codes, built in batches; its top 10 matches
    exact search, it survives a save and load, and it keeps accepting incremental adds."""
    from pitstop.kb import index as index_module

    monkeypatch.setattr(index_module, "APPROX_THRESHOLD", 1_000)
    monkeypatch.setattr(index_module, "BATCH", 700)  # several batches
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(40, 64)).astype(np.float32)
    vectors = centres[rng.integers(0, 40, 4_000)] + rng.normal(scale=0.3, size=(4_000, 64)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(10, 4_010, dtype=np.int64)
    built = VectorIndex.build(ids, vectors, "m", "f1")
    assert (built.meta.kind, built.meta.count) == ("ivf-fp16", 4_000)
    built.save(tmp_path / "x.faiss")
    loaded = VectorIndex.load(tmp_path / "x.faiss", "m", 64, "f1")
    assert loaded is not None and loaded.meta == built.meta
    queries = vectors[:50] + rng.normal(scale=0.05, size=(50, 64)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    exact = np.argsort(-(queries @ vectors.T), axis=1)[:, :10] + 10
    found = [[eid for eid, _ in loaded.search(q, 10)] for q in queries]
    hits = sum(len(set(row) & set(want.tolist())) for row, want in zip(found, exact, strict=True))
    assert hits / exact.size >= 0.98
    loaded.add(np.array([99_999], dtype=np.int64), queries[:1], "f2")
    assert loaded.search(queries[0], 1)[0][0] == 99_999 and loaded.meta.fingerprint == "f2"

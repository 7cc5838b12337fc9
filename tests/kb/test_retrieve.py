"""Hybrid retrieval over the bundled entries: hand-written queries, explanations, no-match, modes, floor."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pitstop.core.db import open_db
from pitstop.core.errors import UsageError
from pitstop.kb import specificity, store
from pitstop.kb.evaluate import Case, Ranked, evaluate, load_cases
from pitstop.kb.retrieve import Catalog, Retriever
from pitstop.kb.schema import Pitfall
from pitstop.kb.service import KnowledgeBase
from pitstop.kb.tokens import MAX_TERMS, select_terms
from tests.kb.entries import make_entry

HAND_WRITTEN = [  # (paste, expected first entry, confident: only an error string a signature knows is)
    ("Xid 79", "xid79-gpu-fell-off-bus", True),
    ("NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", "xid79-gpu-fell-off-bus", True),
    ("Failed to initialize NVML: Driver/library version mismatch", "nvml-driver-library-mismatch", True),
    ("八卡训练 loss 抖得跟心电图似的 i40e", "nic-driver-outdated-bug", False),
    ("保存 checkpoint 的时候报 No space left on device", "disk-full-or-inodes-exhausted", True),
]


@pytest.mark.parametrize(("text", "expected", "confident"), HAND_WRITTEN)
def test_hand_written_queries_rank_the_right_entry_first(kb, text, expected, confident):
    answer = kb.ask(text, top=3)
    assert answer.results[0].id == expected, [m.id for m in answer.results]
    assert answer.confident is confident


def test_every_match_explains_itself(kb):
    top = kb.ask("Failed to initialize NVML: Driver/library version mismatch").results[0]
    assert any(str(why).startswith("signature /") for why in top.why)
    assert any(str(why).startswith("terms:") and "mismatch" in str(why) for why in top.why)
    assert any(str(why).startswith("nearest ") for why in top.why)
    assert 0.0 < top.score <= 1.0 and top.confidence == "high"
    assert top.fix and top.summary and top.summary_zh and not top.draft


def test_scores_descend_and_are_bounded(kb):
    results = kb.ask("NCCL WARN NET/IB : Got completion from peer with error 12", top=8).results
    scores = [m.score for m in results]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    assert len({m.id for m in results}) == len(results) == 8


def test_chinese_paste_answers_in_chinese(kb):
    answer = kb.ask("八卡训练 loss 抖得跟心电图似的 i40e")
    assert answer.lang == "zh" and answer.results[0].title_zh


@pytest.mark.parametrize(
    "text",
    [
        "How long should I boil an egg so the yolk stays soft?",
        "我周末想去海边烧烤，推荐一下哪里的海鲜便宜",
    ],
)
def test_off_topic_paste_has_no_confident_match(kb, text):
    answer = kb.ask(text)
    assert not answer.confident
    assert all(m.confidence == "low" for m in answer.results)


def test_modes_use_only_their_signal(kb):
    text = "Failed to initialize NVML: Driver/library version mismatch"
    signature = kb.ask(text, mode="signature").results
    assert signature and all(str(w).startswith("signature") for m in signature for w in m.why)
    dense = kb.ask(text, mode="dense").results[0]
    assert all(str(w).startswith("nearest") for w in dense.why)
    assert kb.ask("completely unrelated words about gardening", mode="signature").results == []


def test_json_shape(kb):
    data = kb.ask("Xid 79", top=2).to_json()
    assert data["query"] == "Xid 79" and data["lang"] == "en"
    assert [set(r) >= {"id", "title", "score", "why"} for r in data["results"]] == [True, True]


@pytest.mark.parametrize("text", ["", "   ", "\n\n"])
def test_empty_text_is_a_usage_error(kb, text):
    with pytest.raises(UsageError):
        kb.ask(text)


def test_huge_log_is_answered(kb):
    log = "".join(f"iteration {i} loss 2.{i % 89:02d}\n" for i in range(400_000))
    answer = kb.ask(log + "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n")
    assert answer.truncated and answer.results[0].id == "xid79-gpu-fell-off-bus"


def test_dev_cases_floor(kb, shared_dir):
    cases = load_cases(shared_dir / "eval" / "dev-cases.jsonl")
    report = evaluate(cases, lambda q: [m.id for m in kb.ask(q, top=10).results], "hybrid")
    for lang, metrics in report.by_lang().items():
        assert metrics.recall_at_3 >= 0.9, (lang, metrics, [m.case.id for m in report.misses()])
    assert report.overall.recall_at_1 >= 0.75


def _entry(pitfall_id: str, signatures: tuple[str, ...]) -> Pitfall:
    return make_entry(pitfall_id, signatures, layer="gpu")


def test_signature_rank_follows_the_most_specific_match_not_the_count():
    db = open_db(":memory:")
    catalog = specificity.weigh(
        db,
        Catalog.from_pitfalls(
            [
                _entry("broad", (r"NCCL", r"WARN", r"NCCL WARN")),
                _entry("specific", (r"Got completion from peer with error 12",)),
            ]
        ),
    )
    retriever = Retriever(lambda: db, lambda: catalog, lambda: None, None)
    ranked = retriever.ask("NCCL WARN NET/IB : Got completion from peer with error 12", mode="signature")
    assert [m.id for m in ranked.results] == ["specific", "broad"]


def test_a_signature_shared_with_other_causes_examples_counts_less(tmp_path):
    seen = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
    texts = {
        "module-not-loaded": (seen, "nvidia.ko is not loaded"),
        "dkms-not-built": (seen, "DKMS build failed for kernel 6.8.0-45"),
        "secure-boot": (seen, "Key was rejected by service"),
    }
    signatures = {
        "module-not-loaded": (r"couldn.t communicate with the NVIDIA driver",),
        "dkms-not-built": (r"DKMS build failed for kernel",),
        "secure-boot": (),
    }
    db = open_db(tmp_path / "kb.db")
    entries = [replace(_entry(pid, signatures[pid]), symptoms=texts[pid]) for pid in texts]
    for pitfall in entries:
        store.upsert_pitfall(db, pitfall)
    store.add_example(db, "dkms-not-built", seen, "incident", None)  # a second time in its texts
    catalog = specificity.weigh(db, Catalog.from_pitfalls(entries))
    shared, own = catalog.specificity(0), catalog.specificity(1)  # module-not-loaded's, dkms-not-built's
    assert own == 1.0  # only its own entry's texts show it
    assert shared == pytest.approx(((1 + 1) / (1 + 1 + 3)) ** 0.5)  # 1 own match, 3 elsewhere


def test_a_specific_signature_outranks_a_shared_one_in_the_fusion(tmp_path, embedder):
    shared = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver"
    entries = [
        ("module-not-loaded", r"couldn.t communicate with the NVIDIA driver", [shared]),
        ("dkms-not-built", r"DKMS build failed", [f"{shared} since the kernel update", "DKMS build failed"]),
        ("nouveau", r"nouveau is in use", [f"{shared} on a fresh install", "the nouveau driver is in use"]),
        ("secure-boot", r"Key was rejected", [f"{shared} after enabling it", "modprobe: Key was rejected"]),
    ]
    kb = KnowledgeBase.open(tmp_path / "kb.db", entries_dir=None, embedder=embedder)
    for pid, signature, symptoms in entries:
        kb.upsert_pitfall(Pitfall.from_dict({**_entry(pid, (signature,)).to_dict(), "symptoms": symptoms}))
    answer = kb.ask(f"{shared}. Key was rejected")
    assert answer.results[0].id == "secure-boot", [m.id for m in answer.results]
    assert answer.results[0].confidence != "low"


def test_long_logs_pick_terms_from_error_lines_and_rare_terms_first():
    terms = [f"noise{i}" for i in range(60)] + ["illegal", "memory"]
    df = {**{f"noise{i}": 1 for i in range(60)}, "illegal": 3, "memory": 40}
    chosen = select_terms(terms, {"illegal", "memory"}, df)
    assert len(chosen) == MAX_TERMS and chosen[:2] == ["illegal", "memory"]
    assert select_terms(["b", "a"], set(), {}) == ["b", "a"]  # a short query keeps every term


PACKAGES = (
    "transformers",
    "accelerate",
    "datasets",
    "tokenizers",
    "safetensors",
    "sentencepiece",
    "einops",
    "flash-attn",
    "deepspeed",
    "peft",
    "bitsandbytes",
    "wandb",
    "tensorboard",
    "evaluate",
    "rouge-score",
    "nltk",
    "scipy",
    "pandas",
    "pyarrow",
    "xxhash",
    "multiprocess",
    "dill",
    "fsspec",
    "aiohttp",
    "protobuf",
    "grpcio",
    "ninja",
    "hjson",
    "py-cpuinfo",
    "pydantic",
    "regex",
    "tqdm",
)


def test_buried_error_line_in_a_long_log_is_found_lexically(kb):
    pip = [
        line
        for i, p in enumerate(PACKAGES)
        for line in (
            f"Collecting {p}>={i % 5}.{i}",
            f"  Downloading {p.replace('-', '_')}-{i % 5}.{i}.{i * 3}-py3-none-any.whl ({i * 7 + 3}.{i} MB)",
        )
    ]
    pip.append("Successfully installed " + " ".join(f"{p}-{i % 5}.{i}" for i, p in enumerate(PACKAGES)))
    steps = [
        f"step {i}/20000 loss={2.1 - i / 1e4:.4f} lr=3.0e-04 grad_norm=0.{i % 89:02d} tokens/s=41{i}"
        for i in range(40)
    ]
    buried = (
        "RuntimeError: DataLoader worker (pid 4411) is killed by signal: Bus error. It is "
        "possible that dataloader's workers are out of shared memory. Please try to raise your "
        "shared memory limit."
    )
    log = "\n".join(["setting up the env and training, it dies:", *pip, *steps[:25], buried, *steps[25:]])
    assert len(log.splitlines()) > 100
    ranked = [m.id for m in kb.ask(log, top=3, mode="lexical").results]
    assert ranked[0] == "container-shm-too-small", ranked


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        (
            "Retired Pages\n    Single Bit ECC : 0\n    Double Bit ECC : 2\n    Pending : Yes",
            "retired-pages-pending-pre-ampere",
            "row-remap-pending-reset-required",
        ),
        (
            "Retired Pages\n  Single Bit ECC : N/A\n  Double Bit ECC : N/A\n  Pending Page Blacklist : N/A\n"
            "Remapped Rows\n  Correctable Error : 0\n  Uncorrectable Error : 1\n  Pending : Yes\n"
            "  Remapping Failure Occurred : No",
            "row-remap-pending-reset-required",
            "retired-pages-pending-pre-ampere",
        ),
        ("NVRM: Xid (PCI:0000:41:00): 64, pid=2211, name=python3", "row-remap-failure-rma", None),
        (
            "NVRM: Xid (PCI:0000:3b:00): 64, Dynamic Page Retirement: Fatal error, unable to retire page",
            "retired-pages-pending-pre-ampere",
            None,
        ),
    ],
)
def test_memory_repair_signatures(kb, text, expected, absent):
    ranked = [m.id for m in kb.ask(text, mode="signature").results]
    assert ranked[:1] == [expected] and absent not in ranked, ranked


def test_off_topic_cases_count_when_the_answer_is_not_confident():
    cases = [
        Case("a", "en", "Xid 79", ("xid79-gpu-fell-off-bus",)),
        Case("b", "en", "boil an egg", ()),
        Case("c", "zh", "周末烧烤", ()),
    ]
    report = evaluate(cases, lambda q: ["xid79-gpu-fell-off-bus"], "hybrid", confident=lambda q: "烧烤" in q)
    assert report.overall.n == 1 and report.overall.recall_at_1 == 1.0
    assert (report.off_topic.n, report.off_topic.correct, report.off_topic.accuracy) == (2, 1, 0.5)
    assert [r.case.id for r in report.misses()] == ["c"]
    with pytest.raises(UsageError, match="off-topic"):
        evaluate(cases, lambda q: [], "hybrid")


def test_origin_groups_and_high_precision():
    cases = [
        Case("a", "en", "Xid 79", ("xid79-gpu-fell-off-bus",), origin="en"),
        Case("b", "zh", "掉卡", ("xid79-gpu-fell-off-bus",), origin="zh-post", pure_zh=True),
        Case("c", "zh", "烧烤", (), origin="zh-from-en"),
    ]
    answers = {
        "Xid 79": Ranked(("xid79-gpu-fell-off-bus",), "high"),
        "掉卡": Ranked(("gpu-thermal-slowdown", "xid79-gpu-fell-off-bus"), "medium"),
        "烧烤": Ranked(("cuda-oom-allocator",), "high"),
    }
    report = evaluate(cases, answers.__getitem__, "hybrid")
    groups = report.by_origin()
    assert set(groups) == {"en", "zh-post", "pure-zh"} and groups["pure-zh"].recall_at_3 == 1.0
    assert groups["zh-post"].recall_at_1 == 0.0 and report.high_precision == (1, 2)
    assert (report.off_topic.n, report.off_topic.correct) == (1, 0)

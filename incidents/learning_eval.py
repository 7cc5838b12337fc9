"""`pitstop eval learning`: does resolving incidents make the next answers better?

Every TRAIN case becomes an incident (`record_answer` with the KB's answer, as the bot does) and is
resolved with its first slug through `Incidents.resolve`, the same path as a Slack resolution.
TEST recall is measured before and after, with `kb.evaluate`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pitstop.core.errors import NotFound
from pitstop.incidents.store import Incidents
from pitstop.kb.evaluate import RANK_DEPTH, Case, Metrics, evaluate
from pitstop.kb.service import KnowledgeBase


@dataclass(frozen=True)
class LearningReport:
    """TEST metrics before and after learning from TRAIN."""

    train: int
    learned: int
    skipped: tuple[str, ...]  # TRAIN case ids whose cause the KB does not know
    before: Metrics
    after: Metrics

    def to_json(self) -> dict[str, Any]:
        """`{"before": {"recall_at_1", "recall_at_3", ...}, "after": {...}}` plus the counts."""
        return {
            "before": self.before.__dict__,
            "after": self.after.__dict__,
            "train": self.train,
            "learned": self.learned,
            "skipped": list(self.skipped),
        }


def split_half(cases: Sequence[Case]) -> tuple[list[Case], list[Case]]:
    """Per cause (first slug), the first half of its cases by id (rounded down) to TRAIN, the rest to TEST.

    A cause with one case contributes only to TEST; deterministic for a given file.
    """
    by_cause: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_cause[case.slugs[0]].append(case)
    train: list[Case] = []
    test: list[Case] = []
    for group in by_cause.values():
        group = sorted(group, key=lambda c: c.id)
        half = len(group) // 2
        train += group[:half]
        test += group[half:]
    return sorted(train, key=lambda c: c.id), sorted(test, key=lambda c: c.id)


def run(
    kb: KnowledgeBase, incidents: Incidents, train: Sequence[Case], test: Sequence[Case]
) -> LearningReport:
    """Measure TEST, resolve every TRAIN case as an incident, measure TEST again."""

    def rank(query: str) -> list[str]:
        return [m.id for m in kb.ask(query, top=RANK_DEPTH).results]

    before = evaluate(test, rank, "hybrid").overall
    skipped = []
    for case in train:
        iid = incidents.record_answer(
            channel="eval",
            thread_ts=f"train-{case.id}",
            user="eval",
            text=case.query,
            answer=kb.ask(case.query),
        )
        try:
            incidents.resolve(iid, user="eval", cause_id=case.slugs[0], notes="pitstop eval learning")
        except NotFound:
            skipped.append(case.id)
    after = evaluate(test, rank, "hybrid").overall
    return LearningReport(len(train), len(train) - len(skipped), tuple(skipped), before, after)

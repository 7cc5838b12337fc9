"""`pitstop eval learning`: does resolving incidents make the next answers better?

Every TRAIN case becomes an incident (`record_answer` with the KB's answer, as the bot does) and is
resolved through `Incidents.resolve`, the same path as a Slack resolution: with its first slug, or,
for a case with `"slugs": ["new:KEY"]` and a `"new_cause": {"title", "what", "fix", "symptoms"}`
object, through the new-cause ("none of these") path, which creates a draft. TEST recall is
measured before and after with `kb.evaluate`; a TEST case with `new:KEY` is a hit when the draft
created for KEY is ranked, and the share of those found in the top three is the new-cause hit rate.
TRAIN cases whose cause is neither known nor described are skipped; TEST cases with no slugs are
judged on "no confident match".
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pitstop.core.errors import NotFound, UsageError
from pitstop.core.i18n import msg
from pitstop.incidents.model import NewCause
from pitstop.incidents.store import Incidents
from pitstop.kb.evaluate import RANK_DEPTH, Case, Metrics, Ranked, Report, evaluate
from pitstop.kb.service import KnowledgeBase

NEW = "new:"


@dataclass(frozen=True)
class LearningReport:
    """TEST metrics before and after learning from TRAIN."""

    train: int
    learned: int
    skipped: tuple[str, ...]  # TRAIN case ids whose cause the KB does not know
    before: Metrics
    after: Metrics
    new_causes: Metrics  # after learning, over the TEST cases whose cause was created from TRAIN
    drafts: Mapping[str, str]  # KEY -> the draft id its resolution created (merge proposals excluded)

    def to_json(self) -> dict[str, Any]:
        """`{"before": {"recall_at_1", "recall_at_3", ...}, "after": {...}}` plus the counts."""
        return {
            "before": self.before.__dict__,
            "after": self.after.__dict__,
            "new_causes": self.new_causes.__dict__,
            "drafts": dict(self.drafts),
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
        by_cause[case.slugs[0] if case.slugs else ""].append(case)
    train: list[Case] = []
    test: list[Case] = []
    for group in by_cause.values():
        group = sorted(group, key=lambda c: c.id)
        half = len(group) // 2
        train += group[:half]
        test += group[half:]
    return sorted(train, key=lambda c: c.id), sorted(test, key=lambda c: c.id)


def _new_cause(case: Case) -> NewCause:
    data = case.new_cause
    if not data or not data.get("title") or not data.get("what"):
        raise UsageError(msg("errors.learning.new_cause", id=case.id, slug=case.slugs[0]))
    return NewCause(
        str(data["title"]),
        str(data["what"]),
        str(data.get("fix") or ""),
        tuple(str(s) for s in data.get("symptoms") or ()),
    )


def _resolve(incidents: Incidents, kb: KnowledgeBase, case: Case, vouched: bool) -> tuple[bool, str | None]:
    """Resolve one TRAIN case: (resolved, the draft id a new cause created, if any)."""
    iid = incidents.record_answer(
        channel="eval", thread_ts=f"train-{case.id}", user="eval", text=case.query, answer=kb.ask(case.query)
    )
    cause = case.slugs[0]
    try:
        if cause.startswith(NEW):
            done = incidents.resolve(
                iid, user="eval", new_cause=_new_cause(case), notes="eval learning", vouched=vouched
            )
        else:
            done = incidents.resolve(
                iid, user="eval", cause_id=cause, notes="pitstop eval learning", vouched=vouched
            )
    except NotFound:
        return False, None
    resolution = done.resolution
    return True, resolution.cause_id if resolution and resolution.kind == "draft" else None


def run(
    kb: KnowledgeBase,
    incidents: Incidents,
    train: Sequence[Case],
    test: Sequence[Case],
    *,
    vouched: bool = True,
) -> LearningReport:
    """Measure TEST, resolve every TRAIN case as an incident, measure TEST again. `vouched`: the
    TRAIN cases are resolved as a maintainer would (False: as one channel member who is not)."""

    def rank(query: str) -> Ranked:
        answer = kb.ask(query, top=RANK_DEPTH)
        label = answer.results[0].confidence if answer.results else ""
        return Ranked(tuple(m.id for m in answer.results), label)

    def measured(drafts: Mapping[str, str]) -> Report:
        cases = [dataclasses.replace(c, slugs=tuple(drafts.get(s, s) for s in c.slugs)) for c in test]
        return evaluate(cases, rank, "hybrid")

    before = measured({})
    skipped: list[str] = []
    drafts: dict[str, str] = {}
    for case in train:
        resolved, draft = _resolve(incidents, kb, case, vouched) if case.slugs else (False, None)
        if not resolved or (case.slugs[0].startswith(NEW) and draft is None):
            skipped.append(case.id)  # unknown cause, or a new cause that became a merge proposal
        elif draft is not None:
            drafts.setdefault(case.slugs[0], draft)
    after = measured(drafts)
    fresh = [r for c, r in zip(test, after.results, strict=True) if any(s.startswith(NEW) for s in c.slugs)]
    return LearningReport(
        train=len(train),
        learned=len(train) - len(skipped),
        skipped=tuple(skipped),
        before=before.overall,
        after=after.overall,
        new_causes=Metrics.of(fresh),
        drafts=drafts,
    )

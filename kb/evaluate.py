"""Retrieval evaluation: recall@1, recall@3 and MRR over labelled cases, per language and origin.

A case is a JSON line `{"id", "lang", "query", "slugs": [...]}` (the format of
`../shared/eval/dev-cases.jsonl`), optionally with `origin` (en | zh-post | zh-from-en) and
`pure_zh` (Chinese with no English error text), as in `bench/eval/real-v2.jsonl`; it is a hit at k
when any of its slugs is among the top k ids. A case whose cause is not in the KB (`"slugs": []`)
is right when the answer is "no confident match"; that share is reported on its own and the recall
figures cover the other cases only. "high" precision is the share of answers whose first entry was
labelled high that were right (a not-in-KB case answered "high" counts as wrong).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitstop.core.errors import BadFile, UsageError
from pitstop.core.i18n import msg
from pitstop.core.yamlio import read_text_file

RANK_DEPTH = 10


@dataclass(frozen=True)
class Case:
    """One labelled query."""

    id: str
    lang: str
    query: str
    slugs: tuple[str, ...]
    origin: str = ""  # en | zh-post | zh-from-en ('' in older files: taken from lang)
    pure_zh: bool = False
    new_cause: Mapping[str, Any] | None = field(default=None, compare=False)  # for `eval learning`

    @property
    def groups(self) -> tuple[str, ...]:
        """The origin groups this case is reported under (pure Chinese is also its own group)."""
        origin = self.origin or ("en" if self.lang == "en" else "zh")
        return (origin, "pure-zh") if self.pure_zh else (origin,)

    @property
    def off_topic(self) -> bool:
        """True when no entry fits: the right answer is "no good match"."""
        return not self.slugs


@dataclass(frozen=True)
class CaseResult:
    """Where a case's first correct entry ranked (0 = not in the top RANK_DEPTH), and the confidence."""

    case: Case
    ranked: tuple[str, ...]
    confident: bool = False
    confidence: str = ""  # the first entry's label (high | medium | low), '' when not judged

    @property
    def rank(self) -> int:
        """1-based rank of the first correct id, 0 when missing."""
        return next((i for i, pid in enumerate(self.ranked, start=1) if pid in self.case.slugs), 0)


@dataclass(frozen=True)
class Metrics:
    """Recall@1, recall@3 and MRR over some cases."""

    n: int
    recall_at_1: float
    recall_at_3: float
    mrr: float

    @classmethod
    def of(cls, results: Sequence[CaseResult]) -> Metrics:
        """Metrics of `results` (zeros when empty)."""
        n = len(results)
        if not n:
            return cls(0, 0.0, 0.0, 0.0)
        ranks = [r.rank for r in results]
        return cls(
            n=n,
            recall_at_1=round(sum(1 for r in ranks if r == 1) / n, 3),
            recall_at_3=round(sum(1 for r in ranks if 1 <= r <= 3) / n, 3),
            mrr=round(sum(1 / r for r in ranks if r) / n, 3),
        )


@dataclass(frozen=True)
class OffTopic:
    """How many off-topic cases got the right answer: not confident."""

    n: int
    correct: int

    @property
    def accuracy(self) -> float:
        """Share of off-topic cases answered without confidence (0.0 when there are none)."""
        return round(self.correct / self.n, 3) if self.n else 0.0


@dataclass(frozen=True)
class Ranked:
    """What one answer gives the evaluation: ids best first and the first entry's confidence."""

    ids: tuple[str, ...]
    confidence: str = ""

    @property
    def confident(self) -> bool:
        """False for "no confident match" (a low first entry, or nothing)."""
        return bool(self.ids) and self.confidence not in ("", "low")


@dataclass(frozen=True)
class Report:
    """Results of one mode over a case file."""

    mode: str
    results: tuple[CaseResult, ...]

    @property
    def on_topic(self) -> tuple[CaseResult, ...]:
        """Results of the cases that name acceptable entries."""
        return tuple(r for r in self.results if not r.case.off_topic)

    @property
    def overall(self) -> Metrics:
        """Metrics over every on-topic case."""
        return Metrics.of(self.on_topic)

    @property
    def off_topic(self) -> OffTopic:
        """Off-topic cases and how many were answered without confidence."""
        judged = [r for r in self.results if r.case.off_topic]
        return OffTopic(len(judged), sum(1 for r in judged if not r.confident))

    def by_lang(self) -> dict[str, Metrics]:
        """Metrics per case language (on-topic cases)."""
        langs = sorted({r.case.lang for r in self.on_topic})
        return {lang: Metrics.of([r for r in self.on_topic if r.case.lang == lang]) for lang in langs}

    def by_origin(self) -> dict[str, Metrics]:
        """Metrics per origin group (en, zh-post, zh-from-en, pure-zh; on-topic cases)."""
        groups = sorted({g for r in self.on_topic for g in r.case.groups})
        return {g: Metrics.of([r for r in self.on_topic if g in r.case.groups]) for g in groups}

    @property
    def high_precision(self) -> tuple[int, int]:
        """(right, answered) over the cases whose first entry was labelled high."""
        high = [r for r in self.results if r.confidence == "high"]
        return sum(1 for r in high if r.rank == 1), len(high)

    def misses(self, k: int = 3) -> list[CaseResult]:
        """On-topic cases whose entry is not in the top `k`, then off-topic cases answered confidently."""
        wrong = [r for r in self.results if r.case.off_topic and r.confident]
        return [r for r in self.on_topic if not 1 <= r.rank <= k] + wrong

    def to_json(self) -> dict[str, Any]:
        """The report as plain data, with every case's top ids."""
        return {
            "mode": self.mode,
            "overall": self.overall.__dict__,
            "by_lang": {lang: m.__dict__ for lang, m in self.by_lang().items()},
            "by_origin": {g: m.__dict__ for g, m in self.by_origin().items()},
            "off_topic": {"n": self.off_topic.n, "accuracy": self.off_topic.accuracy},
            "high": dict(zip(("right", "answered"), self.high_precision, strict=True)),
            "misses": [
                {"id": r.case.id, "slugs": list(r.case.slugs), "rank": r.rank, "top3": list(r.ranked[:3])}
                for r in self.misses()
            ],
            "cases": [{"id": r.case.id, "ranked": list(r.ranked)} for r in self.results],
        }


def load_cases(path: Path) -> list[Case]:
    """Read a JSONL case file; BadFile (exit 5) naming the line when one is malformed."""
    lines = read_text_file(Path(path), msg("security.what.eval_cases")).splitlines()
    cases = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            cases.append(
                Case(
                    id=str(data["id"]),
                    lang=str(data.get("lang") or "en"),
                    query=str(data["query"]),
                    slugs=tuple(str(s) for s in data["slugs"]),
                    origin=str(data.get("origin") or ""),
                    pure_zh=bool(data.get("pure_zh", False)),
                    new_cause=data.get("new_cause") if isinstance(data.get("new_cause"), dict) else None,
                )
            )
        except (ValueError, KeyError, TypeError, RecursionError) as exc:  # (RecursionError: `[` * 100,000)
            error = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise BadFile(msg("errors.eval.bad_line", path=str(path), line=number, error=error)) from None
    if not cases:
        raise BadFile(msg("errors.eval.no_cases", path=str(path)))
    return cases


def evaluate(
    cases: Sequence[Case],
    rank: Callable[[str], Sequence[str] | Ranked],
    mode: str,
    confident: Callable[[str], bool] | None = None,
) -> Report:
    """Run `rank(query)` over the cases: ids, or a `Ranked` that also carries the confidence.

    With plain ids, `confident(query)` judges the off-topic cases.
    """
    results = []
    for case in cases:
        found = rank(case.query)
        if isinstance(found, Ranked):
            results.append(CaseResult(case, found.ids[:RANK_DEPTH], found.confident, found.confidence))
            continue
        if confident is None and case.off_topic:
            raise UsageError(msg("errors.eval.off_topic"))

        judged = confident(case.query) if confident and case.off_topic else False
        results.append(CaseResult(case, tuple(found)[:RANK_DEPTH], confident=judged))
    return Report(mode, tuple(results))

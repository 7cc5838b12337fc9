"""Retrieval evaluation: recall@1, recall@3 and MRR over labelled cases, overall and per language.

A case is a JSON line `{"id", "lang", "query", "slugs": [...]}` (the format of
`../shared/eval/dev-cases.jsonl`); it is a hit at k when any of its slugs is among the top k ids.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitstop.errors import UsageError

RANK_DEPTH = 10


@dataclass(frozen=True)
class Case:
    """One labelled query."""

    id: str
    lang: str
    query: str
    slugs: tuple[str, ...]


@dataclass(frozen=True)
class CaseResult:
    """Where a case's first correct entry ranked (0 = not in the top RANK_DEPTH)."""

    case: Case
    ranked: tuple[str, ...]

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
class Report:
    """Results of one mode over a case file."""

    mode: str
    results: tuple[CaseResult, ...]

    @property
    def overall(self) -> Metrics:
        """Metrics over every case."""
        return Metrics.of(self.results)

    def by_lang(self) -> dict[str, Metrics]:
        """Metrics per case language."""
        langs = sorted({r.case.lang for r in self.results})
        return {lang: Metrics.of([r for r in self.results if r.case.lang == lang]) for lang in langs}

    def misses(self, k: int = 3) -> list[CaseResult]:
        """Cases whose correct entry is not in the top `k`."""
        return [r for r in self.results if not 1 <= r.rank <= k]

    def to_json(self) -> dict[str, Any]:
        """The report as plain data, with every case's top ids."""
        return {
            "mode": self.mode,
            "overall": self.overall.__dict__,
            "by_lang": {lang: m.__dict__ for lang, m in self.by_lang().items()},
            "misses": [
                {"id": r.case.id, "slugs": list(r.case.slugs), "rank": r.rank, "top3": list(r.ranked[:3])}
                for r in self.misses()
            ],
            "cases": [{"id": r.case.id, "ranked": list(r.ranked)} for r in self.results],
        }


def load_cases(path: Path) -> list[Case]:
    """Read a JSONL case file; UsageError naming the line when one is malformed."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
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
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{path}:{number}: not a case line ({exc})") from None
    if not cases:
        raise UsageError(f"{path} holds no cases")
    return cases


def evaluate(cases: Sequence[Case], rank: Callable[[str], Sequence[str]], mode: str) -> Report:
    """Run `rank(query) -> ids` over the cases."""
    return Report(mode, tuple(CaseResult(case, tuple(rank(case.query))[:RANK_DEPTH]) for case in cases))

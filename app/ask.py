"""The ask use case, written once: a paste's ranked causes as an `AnswerCard`.

Slack and the console reach it through `flows.answer` (which also records the incident and offers the
checks), `pitstop ask` directly; all three render the card (`app.render` as text, `bot.render.blocks`
for Slack).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pitstop.app.cards import AnswerCard, Cause
from pitstop.core.i18n import t

if TYPE_CHECKING:
    from pitstop.kb.retrieve import Answer, Match
    from pitstop.kb.schema import CheckRef
    from pitstop.kb.service import KnowledgeBase

TOP_CAUSES = 3


def ask(
    kb: KnowledgeBase, text: str, *, lang: str | None = None, top: int = TOP_CAUSES, mode: str = "hybrid"
) -> tuple[Answer, AnswerCard]:
    """The KB's ranked causes for a paste and their card in `lang` (None: the paste's language).

    UsageError when the paste holds nothing to search for.
    """
    result = kb.ask(text, top=top, mode=mode)
    return result, answer_card(result, lang or result.lang)


def answer_card(
    result: Answer,
    lang: str,
    *,
    incident: int | None = None,
    host: str | None = None,
    host_choices: tuple[str, ...] = (),
) -> AnswerCard:
    """The card of an answer in the reader's language, with what they can do next."""
    return AnswerCard(
        lang=lang,
        causes=tuple(cause(rank, m, lang) for rank, m in enumerate(result.results, start=1)),
        incident=incident,
        host=host,
        host_choices=host_choices,
        confident=result.confident,
        truncated=result.truncated,
    )


def cause(rank: int, match: Match, lang: str) -> Cause:
    """One ranked match in the reader's language."""
    zh = lang == "zh"
    return Cause(
        rank=rank,
        pitfall=match.id,
        title=(match.title_zh if zh and match.title_zh else match.title),
        confidence=t(f"common.confidence.{match.confidence}", lang),
        why=tuple(match.reasons_in(lang)),
        details=tuple(match.why),
        summary=(match.summary_zh if zh and match.summary_zh else match.summary),
        checks=tuple(check_text(ref, lang) for ref in match.checks),
        fix=(match.fix_zh if zh and match.fix_zh else match.fix) or "",
        draft=bool(match.draft),
        benign=bool(match.benign),
        layer=match.layer,
        score=match.score,
    )


def check_text(ref: CheckRef, lang: str) -> str:
    """What a check reference looks at and what decides it, in the reader's words and language."""
    from pitstop.collectors.checks.texts import description

    if ref.describe:
        return ref.describe.get(lang) or ref.describe["en"]
    return description(ref.check, lang) or ref.check

"""The answer as text, written once: `pitstop ask` prints it, the console shows it (with its buttons as
commands, `bot.render.text`) and Slack sends it as a message's fallback text (`bot.render.blocks`)."""

from __future__ import annotations

import textwrap

from pitstop.app.cards import AnswerCard, Cause
from pitstop.core.i18n import t
from pitstop.core.redact import redact

SUMMARY_CHARS = 240
INDENT = "   "
HANGING = INDENT + "  "  # a wrapped line's continuation


def clip(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def answer_text(card: AnswerCard, *, verbose: bool = False, width: int | None = None) -> str:
    """Ranked causes, each with its id, confidence, summary, why in words, the checks that would decide it
    and the first fix step; `verbose` adds the signals behind the ranking. `width` wraps the lines (a
    terminal's); without it every line stays whole. Redacted: the answer quotes the paste."""
    lang = card.lang
    if not card.causes:
        return redact(t("answer.none", lang))
    out = [f"{t('answer.heading', lang)}:"]
    if not card.confident:
        out.append(t("answer.no_confident", lang))
    if card.truncated:
        out.append(t("answer.truncated", lang))
    for cause in card.causes:
        out += ["", *_cause_lines(cause, lang, verbose, width)]
    return redact("\n".join(out))


def _cause_lines(cause: Cause, lang: str, verbose: bool, width: int | None) -> list[str]:
    marks = (("draft", cause.draft), ("benign", cause.benign))
    flags = "".join(f" [{t(f'answer.flag.{name}', lang)}]" for name, on in marks if on)
    meta = t(
        "answer.meta",
        lang,
        id=cause.pitfall,
        confidence=cause.confidence,
        layer=cause.layer or "-",
        score=f"{cause.score:.2f}",
    )
    body = [meta]
    if cause.summary:
        body.append(clip(redact(" ".join(cause.summary.split())), SUMMARY_CHARS))
    body += [t("answer.why", lang, reason=reason) for reason in cause.why]
    body += [t("answer.check", lang, description=check) for check in cause.checks]
    if cause.fix:
        body.append(t("answer.fix", lang, step=cause.fix))
    if verbose:
        body += [t("answer.details", lang, detail=detail) for detail in cause.details]
    head = f"{cause.rank}. {cause.title}{flags}"
    if width is None:
        return [head, *(INDENT + line for line in body)]
    lines = textwrap.wrap(head, width, subsequent_indent=INDENT)
    for line in body:
        lines += textwrap.wrap(line, width, initial_indent=INDENT, subsequent_indent=HANGING) or [INDENT]
    return lines

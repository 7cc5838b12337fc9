"""Render the content model for a terminal: the same content as `blocks`, with buttons as commands."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TextIO

from pitstop.app import render
from pitstop.app.cards import AnswerCard, DraftCard, Notice, ResolutionForm
from pitstop.app.render import SUMMARY_CHARS, clip
from pitstop.bot.render.labels import label
from pitstop.core.i18n import t
from pitstop.core.redact import redact
from pitstop.core.terminal import printable

if TYPE_CHECKING:
    from pitstop.app.flows import Diagnosis


def answer_text(card: AnswerCard) -> str:
    """The console reply to a pasted error: the answer text (`app.render`), then its buttons as commands."""
    lang = card.lang
    out = [render.answer_text(card)]
    if card.incident is not None:
        out.append(
            f"  [:this N] {label(lang, 'this')}   [:notit N] {label(lang, 'not_it')}   "
            f"[:resolve SLUG | :resolve-new] {label(lang, 'resolve')}"
        )
    if card.host:
        out.append(f"  [:run {card.host}] {label(lang, 'run', host=card.host)}")
    elif card.host_choices:
        out.append(f"  [:run HOST] {label(lang, 'pick_host')} " + ", ".join(card.host_choices[:20]))
    return redact("\n".join(out))


def diagnosis_text(result: Diagnosis) -> str:
    """The console's finished diagnosis: a heading, the report's text (`app.digest.render_text`, the one
    `pitstop diagnose` prints), then the resolution command."""
    card = result.card
    head = label(card.lang, "diagnosed", target=card.target, done=len(card.hosts), total=len(card.hosts))
    out = [head, result.text]
    if card.incident is not None:
        out.append(f"  [:resolve SLUG | :resolve-new] {label(card.lang, 'resolve')}")
    return redact("\n".join(out))


def notice_text(notice: Notice) -> str:
    """A one-line message."""
    return redact(notice.text)


def resolution_text(form: ResolutionForm) -> str:
    """The choices the console offers for `:resolve`."""
    lines = [t("console.resolve.how", form.lang)]
    lines += [f"  {c.pitfall}: {c.title}" + (f" ({c.note})" if c.note else "") for c in form.choices]
    return redact("\n".join(lines))


def stats_text(figures: Any, days: int, lang: str = "en") -> str:
    """The App Home figures for the terminal, saying what each counts."""
    median = figures.resolution_median_s
    out = [
        label(
            lang,
            "stats.line",
            days=days,
            incidents=figures.incidents,
            open=figures.open,
            resolved=figures.resolved,
            no_action=getattr(figures, "no_action", 0),
            expired=getattr(figures, "expired", 0),
            median=label(lang, "stats.unknown")
            if median is None
            else label(lang, "stats.minutes", n=f"{median / 60:.0f}"),
        )
    ]
    for key, counts in (
        ("stats.top_causes", figures.top_causes),
        ("stats.hosts", figures.top_hosts),
        ("stats.layers", figures.layers),
    ):
        out.append(f"  {label(lang, key)}: " + (", ".join(f"{c.label} ({c.count})" for c in counts) or "-"))
    return redact("\n".join(out))


def drafts_text(cards: tuple[DraftCard, ...], lang: str = "en") -> str:
    """Drafts waiting for review, with the console commands that decide them."""
    if not cards:
        return t("drafts.none", lang)
    out = [t("drafts.list", lang)]
    for card in cards:
        what = (
            t("drafts.line.merge", lang, target=card.target)
            if card.kind == "merge"
            else t("drafts.line.new", lang)
        )
        out.append(
            "  " + t("drafts.line", lang, id=card.id, title=card.title, what=what, incident=card.incident)
        )
        if card.summary:
            out.append("     " + clip(redact(" ".join(card.summary.split())), SUMMARY_CHARS))
    return redact("\n".join(out))


_STYLES = (
    (re.compile(r"^\s*\d+\. .*$", re.M), "bold"),
    (re.compile(r"^CONFIRMED [^\n]*|\bconfirmed\b|已确认", re.M), "bold red"),
    (re.compile(r"^ruled out [^\n]*|\bruled out\b|已排除", re.M), "green"),
    (re.compile(r"^inconclusive [^\n]*|\binconclusive\b|无法判断", re.M), "yellow"),
    (re.compile(r"^\s*\[:[^\n]*$", re.M), "cyan"),
)


def show(text: str, out: TextIO) -> None:
    """Print `text` wrapped to the terminal's width; colour only on a terminal and never with NO_COLOR
    (rich reads both); into a pipe or file the lines stay whole. Control characters (from a host, a
    paste, a resolution) are shown as escapes, never obeyed."""
    from rich.console import Console
    from rich.text import Text

    text = printable(text)
    console = Console(file=out, highlight=False, emoji=False)
    if not console.is_terminal:
        out.write(text + "\n")
        out.flush()
        return
    styled = Text(text)
    if console.color_system is not None:
        for pattern, style in _STYLES:
            styled.highlight_regex(pattern, style)
    console.print(styled, overflow="fold")

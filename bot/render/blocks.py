"""Render the content model as Slack Block Kit within Slack's limits.

Every string that came from a person, the KB or a host is redacted, then escaped (`&`, `<`, `>`, and
control and bidi characters shown as `\\uXXXX` by core.terminal.printable), then cut to fit: at most
50 blocks per message and 3,000 characters per section text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pitstop.app.cards import (
    AnswerCard,
    CauseFindings,
    Choice,
    DetailsCard,
    DiagnosisCard,
    DraftCard,
    HomeCard,
    HostState,
    Notice,
    ResolutionForm,
)
from pitstop.app.render import SUMMARY_CHARS, answer_text, clip
from pitstop.bot import ids
from pitstop.bot.render.labels import VERDICT_ICONS, label
from pitstop.collectors.hostlist import compress
from pitstop.core.i18n import catalogue, render, t
from pitstop.core.redact import redact
from pitstop.core.terminal import printable

MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_FALLBACK = 3000
MAX_OPTIONS = 100
EVIDENCE_LINES = 6
MODAL_SHORT = frozenset({"modal_title", "save", "cancel"})  # Slack allows 24 characters

Block = dict[str, Any]
_USER_ID = re.compile(r"[UW][A-Z0-9]{2,20}")


@dataclass(frozen=True)
class SlackMessage:
    """Fallback text plus blocks, ready for chat.postMessage / chat.update."""

    text: str
    blocks: tuple[Block, ...]

    def kwargs(self) -> dict[str, Any]:
        """The `text` and `blocks` arguments of a Web API call."""
        return {"text": self.text, "blocks": list(self.blocks)}


def escape(text: str) -> str:
    """Escape the three characters Slack's mrkdwn reserves, and show control and bidi characters (an
    override that reorders an evidence line) as their `\\uXXXX` escapes."""
    return printable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def clean(text: str) -> str:
    """Redact then escape text from outside (KB, paste, host output)."""
    return escape(redact(text))


def clean_clip(text: str, limit: int) -> str:
    """Redact, cut to `limit` characters, then escape: a cut never leaves half of a secret unmasked."""
    return escape(clip(redact(text), limit))


def section(mrkdwn: str) -> Block:
    """A section block whose (already escaped) text fits Slack's 3,000-character limit; a cut that
    would leave a code block open closes it."""
    text = clip(mrkdwn, MAX_SECTION)
    if text.count("```") % 2:
        text = clip(mrkdwn, MAX_SECTION - 3) + "```"
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def context(mrkdwn: str) -> Block:
    """A small grey line."""
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": clip(mrkdwn, MAX_SECTION)}]}


def button(text: str, action_id: str, value: str, style: str | None = None) -> dict[str, Any]:
    """A button element."""
    element: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": printable(clip(text, 75)), "emoji": True},
        "action_id": action_id,
        "value": value,
    }
    if style:
        element["style"] = style
    return element


def code(lines: Iterable[str]) -> str:
    """A mrkdwn code block; triple backticks inside are broken so they cannot close it."""
    body = "\n".join(clean(line).replace("```", "`\u200b``") for line in lines)
    return f"```{body}```"


def fit(blocks: list[Block], lang: str) -> tuple[Block, ...]:
    """Keep at most MAX_BLOCKS blocks, replacing the overflow by one context line; a trailing actions
    block (the buttons, *Record resolution* among them) is always kept."""
    if len(blocks) <= MAX_BLOCKS:
        return tuple(blocks)
    tail = [blocks[-1]] if blocks[-1].get("type") == "actions" else []
    body = blocks[: len(blocks) - len(tail)]
    kept = body[: MAX_BLOCKS - 1 - len(tail)]
    return (*kept, context(escape(label(lang, "more", n=len(body) - len(kept)))), *tail)


def _fallback(text: str) -> str:
    return clip(clean(text), MAX_FALLBACK)


def answer_message(card: AnswerCard) -> SlackMessage:
    """The thread reply to a pasted error."""
    lang = card.lang
    fallback = clip(escape(answer_text(card)), MAX_FALLBACK)  # the text renderer's, redacted
    if not card.causes:
        return SlackMessage(fallback, (section(escape(t("answer.none", lang))),))
    blocks: list[Block] = [section(f"*{escape(t('answer.heading', lang))}*")]
    notes = [
        key
        for key, on in (("answer.no_confident", not card.confident), ("answer.truncated", card.truncated))
        if on
    ]
    if notes:  # the notes the text answer opens with
        blocks.append(context("\n".join(escape(t(key, lang)) for key in notes)))
    for cause in card.causes:
        head = f"*{cause.rank}. {clean(cause.title)}*  _{escape(cause.confidence)}_"
        if cause.draft:
            head += f"  :construction: _{escape(t('answer.flag.draft', lang))}_"
        if cause.benign:
            head += f"  _{escape(t('answer.flag.benign', lang))}_"
        lines = [head]
        if cause.summary:
            lines.append(clean_clip(" ".join(cause.summary.split()), SUMMARY_CHARS))
        if cause.why:
            lines.append(f"*{label(lang, 'why')}:* " + clean("; ".join(cause.why)))
        if cause.checks:
            lines.append(f"*{label(lang, 'check')}:* " + clean("; ".join(cause.checks)))
        if cause.fix:
            lines.append(f"*{label(lang, 'fix')}:* " + clean(cause.fix))
        blocks.append(section("\n".join(lines)))
        if card.incident is not None:
            value = ids.pack(i=card.incident, p=cause.pitfall)
            blocks.append(
                {
                    "type": "actions",
                    "block_id": f"cause-{cause.rank}",
                    "elements": [
                        button(label(lang, "this"), ids.ACTION_THIS, value, "primary"),
                        button(label(lang, "not_it"), ids.ACTION_NOT_IT, value),
                        button(t("flows.details.button", lang), ids.ACTION_DETAILS, value),
                    ],
                }
            )
    blocks.append(_next_steps(card))
    return SlackMessage(fallback, fit(blocks, lang))


def _next_steps(card: AnswerCard) -> Block:
    lang = card.lang
    elements: list[dict[str, Any]] = []
    if card.host:
        elements.append(
            button(
                label(lang, "run", host=card.host),
                ids.ACTION_RUN,
                ids.pack(i=card.incident, h=card.host),
                "primary",
            )
        )
    elif card.host_choices:  # type-ahead over the whole inventory (listeners/options/hosts.py)
        elements.append(
            {
                "type": "external_select",
                "action_id": ids.ACTION_PICK_HOST,
                "min_query_length": 0,
                "placeholder": {"type": "plain_text", "text": label(lang, "pick_host")},
            }
        )
    if card.incident is not None:
        elements.append(button(label(lang, "resolve"), ids.ACTION_RESOLVE, ids.pack(i=card.incident)))
    if not elements:
        return context(escape(label(lang, "no_verdicts")))
    return {"type": "actions", "block_id": ids.pack(i=card.incident), "elements": elements}


def host_options(choices: Iterable[tuple[str, str]], incident: int | None) -> list[dict[str, Any]]:
    """Options for the host picker: (shown text, target) pairs, at most MAX_OPTIONS."""
    return [_option(text, ids.pack(i=incident, h=target)) for text, target in list(choices)[:MAX_OPTIONS]]


def _option(text: str, value: str) -> dict[str, Any]:
    return {"text": {"type": "plain_text", "text": printable(clip(text, 75))}, "value": value}


HOSTLIST_CHARS = 600  # a compressed host list longer than this is cut (the file has every name)


def _hosts(names: Iterable[str], limit: int = HOSTLIST_CHARS) -> str:
    """A compressed host list in inline code, cut (outside the code) when very long."""
    expr = compress(names)
    return f"`{escape(clip(expr, limit))}`"


def _not_checked(card: DiagnosisCard) -> list[str]:
    """One line per status: `• unreachable (3): gpu[01-03]: the first host's error`."""
    by_status: dict[str, list[HostState]] = {}
    for h in card.hosts:
        if h.status not in ("ok", "pending"):
            by_status.setdefault(h.status, []).append(h)
    lines = []
    for status, hosts in by_status.items():
        what = t("fleet.slack.not_checked", card.lang, status=label_status(status, card.lang), n=len(hosts))
        error = f": {clean_clip(render(hosts[0].error, card.lang), 200)}" if hosts[0].error else ""
        lines.append(f"• {escape(what)} {_hosts(h.host for h in hosts)}{error}")
    return lines


def label_status(status: str, lang: str) -> str:
    """A host status in words ("unreachable", "whose evidence could not be read")."""
    key = f"fleet.status.{status}"
    return t(key, lang) if key in catalogue() else status


def _odd_section(card: DiagnosisCard) -> Block:
    """The hosts that differ from their peers, as many as fit one section; the rest are counted."""
    lines = [f"*{escape(t('fleet.slack.odd_title', card.lang, n=len(card.odd)))}*"]
    size = len(lines[0])
    for i, sentence in enumerate(card.odd):
        line = f"• {clean_clip(sentence, 600)}"
        if size + len(line) + 80 > MAX_SECTION:
            lines.append(escape(t("fleet.slack.odd_more", card.lang, n=len(card.odd) - i)))
            break
        lines.append(line)
        size += len(line) + 1
    return section("\n".join(lines))


def diagnosis_message(card: DiagnosisCard) -> SlackMessage:
    """The one /diagnose message: progress while hosts run; at the end the hosts that differ from their
    peers, then verdicts per cause (confirmed first) with counts and compressed host lists, the hosts not
    checked one line per status, and the *Record resolution* button. Always within 50 blocks and 3,000
    characters a section; what does not fit is counted and lies in the attached report file."""
    lang = card.lang
    done = sum(1 for h in card.hosts if h.status != "pending")
    key = "diagnosed" if card.done else "diagnosing"
    head = label(lang, key, target=clip(redact(card.target), 200), done=done, total=len(card.hosts))
    lines = [f"*{clean(head)}*"]
    if card.job:
        lines.append(clean_clip(card.job, 1000))
    lines += _not_checked(card)
    blocks: list[Block] = [section("\n".join(lines))]
    if card.odd:
        blocks.append(_odd_section(card))
    actions = (
        {
            "type": "actions",
            "block_id": "next",
            "elements": [button(label(lang, "resolve"), ids.ACTION_RESOLVE, ids.pack(i=card.incident))],
        }
        if card.done and card.incident is not None
        else None
    )
    room = MAX_BLOCKS - len(blocks) - (actions is not None) - 1  # one context line for what is left out
    causes = card.causes if len(card.causes) <= room + 1 else card.causes[:room]
    blocks += [section(_cause_findings(cause, lang)) for cause in causes]
    left = card.causes[len(causes) :]
    if left:
        confirmed = sum(c.findings[0][1].verdict == "confirmed" for c in left)
        blocks.append(context(escape(t("fleet.slack.more_causes", lang, n=len(left), confirmed=confirmed))))
    if card.done and not card.causes and len(lines) == 1 and not card.odd:
        blocks.append(context(escape(label(lang, "no_verdicts"))))
    if actions is not None:
        blocks.append(actions)
    return SlackMessage(_fallback(head), fit(blocks, lang))


def _cause_findings(cause: CauseFindings, lang: str) -> str:
    """One cause: its verdicts with host counts and compressed lists, the first host's reason and as
    much of its evidence as fits (whole code blocks only)."""
    by_verdict: dict[str, list[str]] = {}
    for host, verdict in cause.findings:
        by_verdict.setdefault(verdict.verdict, []).append(host)
    best = cause.findings[0][1]
    icon = VERDICT_ICONS.get(best.verdict, "")
    parts = [f"{label(lang, v)} ({len(hosts)}): {_hosts(hosts, 400)}" for v, hosts in by_verdict.items()]
    benign = f" ({label(lang, 'benign')})" if best.benign else ""
    text = f"{icon} *{clean_clip(cause.title, 200)}*{benign}\n" + " · ".join(parts)
    if best.reason:
        text += f"\n_{clean_clip(render(best.reason, lang), 600)}_"
    for evidence in best.evidence[:2]:
        block = f"\n`{clean_clip(evidence.command, 200)}`\n" + code(
            clip(redact(line), 300) for line in evidence.lines[:EVIDENCE_LINES]
        )
        if len(text) + len(block) > MAX_SECTION:
            break
        text += block
    return text


DETAIL_CHARS = 400  # one signal line (a long regex, a long example) is cut there


def details_message(card: DetailsCard) -> SlackMessage:
    """The "Details" reply (ephemeral): the raw signals behind one cause's rank, as code."""
    lang = card.lang
    head = t("flows.details.title", lang, title=clip(card.title, 200), incident=card.incident)
    blocks: list[Block] = [section(f"*{clean(head)}*"), context(escape(t("flows.details.explain", lang)))]
    if card.lines:
        blocks.append(section(code(clip(render(line, lang), DETAIL_CHARS) for line in card.lines)))
    else:
        blocks.append(section(escape(t("flows.details.none", lang))))
    return SlackMessage(_fallback(head), fit(blocks, lang))


def notice_message(notice: Notice) -> SlackMessage:
    """A one-line reply (ephemeral refusals, confirmations)."""
    icon = ":white_check_mark: " if notice.ok else ":warning: "
    who = f"<@{notice.mention}> " if _USER_ID.fullmatch(notice.mention) else ""
    return SlackMessage(_fallback(notice.text), (section(icon + who + clean(notice.text)),))


def cause_options(choices: Iterable[Choice]) -> list[dict[str, Any]]:
    """Options for the cause picker (external_select / options load)."""
    out = []
    for choice in list(choices)[:MAX_OPTIONS]:
        text = choice.title if not choice.note else f"{choice.title} ({choice.note})"
        out.append(_option(redact(text), choice.pitfall))
    return out


def resolution_modal(form: ResolutionForm, metadata: str) -> dict[str, Any]:
    """The "Record resolution" modal: pick a known cause (searchable) or describe a new one."""
    lang = form.lang

    def plain(key: str) -> dict[str, str]:
        return {"type": "plain_text", "text": clip(label(lang, key), 24 if key in MODAL_SHORT else 150)}

    select: dict[str, Any] = {
        "type": "external_select",
        "action_id": ids.CAUSE_SELECT,
        "min_query_length": 0,
        "placeholder": plain("search"),
    }
    if form.choices:
        select["initial_option"] = cause_options(form.choices[:1])[0]
    return {
        "type": "modal",
        "callback_id": ids.VIEW_RESOLUTION,
        "private_metadata": metadata,
        "title": plain("modal_title"),
        "submit": plain("save"),
        "close": plain("cancel"),
        "blocks": [
            {
                "type": "input",
                "block_id": ids.FIELD_CAUSE[0],
                "optional": True,
                "element": select,
                "label": plain("known_cause"),
            },
            context(escape(label(lang, "or_new"))),
            _text_input(ids.FIELD_NEW_TITLE, plain("new_title"), multiline=False),
            _text_input(ids.FIELD_NEW_WHAT, plain("new_what")),
            _text_input(ids.FIELD_NEW_FIX, plain("new_fix")),
            _text_input(ids.FIELD_NEW_SYMPTOMS, plain("new_symptoms")),
            _text_input(ids.FIELD_NOTES, plain("notes")),
        ],
    }


def _text_input(field: tuple[str, str], text: dict[str, str], multiline: bool = True) -> Block:
    return {
        "type": "input",
        "block_id": field[0],
        "optional": True,
        "label": text,
        "element": {"type": "plain_text_input", "action_id": field[1], "multiline": multiline},
    }


def draft_blocks(card: DraftCard) -> list[Block]:
    """A draft's content, then its review buttons while pending (or how it was decided)."""
    lang = card.lang
    kind = (
        t("drafts.kind.merge", lang, target=f"`{escape(card.target or '')}`")
        if card.kind == "merge"
        else escape(t("drafts.kind.new", lang))
    )
    lines = [f"*{clean(card.title)}*  ({kind}, `{escape(card.id)}`)"]
    if card.summary:
        lines.append(clean_clip(" ".join(card.summary.split()), SUMMARY_CHARS))
    if card.symptoms:
        lines.append(
            f"*{t('drafts.symptoms', lang)}:* " + clean_clip("; ".join(card.symptoms), SUMMARY_CHARS)
        )
    if card.fix:
        lines.append(f"*{t('drafts.fix', lang)}:* " + clean_clip("; ".join(card.fix), SUMMARY_CHARS))
    out: list[Block] = [section("\n".join(lines))]
    outcome = clean(render(card.outcome, lang))
    if card.status != "draft":
        status = (
            t(f"drafts.status.{card.status}", lang)
            if card.status in ("approved", "rejected")
            else card.status
        )
        decided = (
            t("drafts.decided", lang, status=escape(status), who=f"<@{card.decided_by}>")
            if _USER_ID.fullmatch(card.decided_by or "")
            else escape(t("drafts.decided_anon", lang, status=status))
        )
        out.append(context(f"{decided} {outcome}".strip()))
        return out
    value = ids.pack(d=card.id)
    elements = [button(t("drafts.approve", lang), ids.ACTION_APPROVE, value, "primary")]
    if card.kind == "new":
        elements.append(button(t("drafts.edit", lang), ids.ACTION_EDIT, value))
    elements.append(button(t("drafts.reject", lang), ids.ACTION_REJECT, value, "danger"))
    out.append({"type": "actions", "block_id": f"draft-{card.id}"[:255], "elements": elements})
    if outcome:
        out.append(context(outcome))
    return out


def draft_message(card: DraftCard) -> SlackMessage:
    """The review message posted in the thread when a resolution created a draft or merge proposal."""
    head = section(escape(t("drafts.review", card.lang)))
    return SlackMessage(
        _fallback(t("drafts.fallback", card.lang, title=card.title)),
        fit([head, *draft_blocks(card)], card.lang),
    )


def draft_edit_modal(card: DraftCard, metadata: str) -> dict[str, Any]:
    """The "Edit" modal: the draft's title, summary, symptoms and fix, pre-filled."""
    lang = card.lang
    current = {
        "title": card.title,
        "summary": card.summary,
        "symptoms": "\n".join(card.symptoms),
        "fix": "\n".join(card.fix),
    }
    inputs = []
    for block_id, action_id, name, is_list in ids.DRAFT_FIELDS:
        element: dict[str, Any] = {"type": "plain_text_input", "action_id": action_id, "multiline": is_list}
        if current[name]:
            element["initial_value"] = redact(current[name])[:3000]
        inputs.append(
            {
                "type": "input",
                "block_id": block_id,
                "label": {"type": "plain_text", "text": t(f"drafts.field.{name}", lang)},
                "element": element,
            }
        )

    def short(text: str) -> dict[str, str]:
        return {"type": "plain_text", "text": clip(text, 24)}

    return {
        "type": "modal",
        "callback_id": ids.VIEW_DRAFT_EDIT,
        "private_metadata": metadata,
        "title": short(t("drafts.modal_title", lang)),
        "submit": short(label(lang, "save")),
        "close": short(label(lang, "cancel")),
        "blocks": inputs,
    }


LANG_CHOICES = ("auto", "en", "zh")


def _language_select(card: HomeCard) -> Block:
    """The answer-language setting: a static_select whose choice `listeners/actions/set_language` stores."""
    options = [_option(t(f"home.lang.{c}", card.lang), ids.pack(l=c)) for c in LANG_CHOICES]
    return {
        "type": "section",
        "block_id": "lang",
        "text": {"type": "mrkdwn", "text": f"*{escape(t('home.lang.label', card.lang))}*"},
        "accessory": {
            "type": "static_select",
            "action_id": ids.ACTION_LANG,
            "options": options,
            "initial_option": options[LANG_CHOICES.index(card.choice)],
        },
    }


def home_view(card: HomeCard) -> dict[str, Any]:
    """The App Home tab: the language setting, incident figures over the last `days` days, pending drafts."""
    lang, figures = card.lang, card.figures
    lines = [
        f"*{escape(t('home.title', lang, days=card.days))}*",
        escape(
            t(
                "home.figures",
                lang,
                incidents=figures.incidents,
                open=figures.open,
                resolved=figures.resolved,
                median=_duration(figures.resolution_median_s, lang),
            )
        ),
    ]
    body: list[Block] = [_language_select(card), section("\n".join(lines))]
    for key, counts in (
        ("home.top_causes", figures.top_causes),
        ("home.top_hosts", figures.top_hosts),
        ("home.layers", figures.layers),
    ):
        rows = "\n".join(f"• {clean(c.label)}: {c.count}" for c in counts) or "—"
        body.append(section(f"*{escape(t(key, lang))}*\n{rows}"))
    if card.drafts:
        body.append(section(f"*{escape(t('home.drafts', lang, n=len(card.drafts)))}*"))
        for draft in card.drafts:
            body.extend(draft_blocks(draft))
    body.append(context(escape(t("home.hint", lang))))
    return {"type": "home", "blocks": list(fit(body, lang))}


def _duration(seconds: float | None, lang: str) -> str:
    if seconds is None:
        return t("bot.stats.unknown", lang)
    if seconds < 7200:
        return t("bot.stats.minutes", lang, n=f"{seconds / 60:.0f}")
    return t("home.hours", lang, n=f"{seconds / 3600:.1f}")

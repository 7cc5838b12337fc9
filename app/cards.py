"""What a person is shown, wherever: built by `app.flows`, rendered by `bot.render` (blocks, text)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # `pitstop ask` imports the cards without loading the collectors
    from pitstop.collectors.model import Verdict
    from pitstop.core.i18n import Msg


@dataclass(frozen=True)
class Cause:
    """One candidate root cause in an answer."""

    rank: int
    pitfall: str
    title: str
    confidence: str
    why: tuple[str, ...]  # in the reader's words and language
    summary: str
    checks: tuple[str, ...]
    fix: str
    draft: bool = False
    details: tuple[Msg, ...] = ()  # the signals behind `why`: regexes, terms (Details button, --verbose)
    benign: bool = False
    layer: str = ""
    score: float = 0.0  # the fused ranking score


@dataclass(frozen=True)
class AnswerCard:
    """The reply to a pasted error: ranked causes plus what the reader can do next."""

    lang: str
    causes: tuple[Cause, ...]
    incident: int | None
    host: str | None = None
    host_choices: tuple[str, ...] = ()
    confident: bool = True  # False: no cause matched a known error signature; the causes are guesses
    truncated: bool = False  # a long paste of which only the error-bearing lines were searched


@dataclass(frozen=True)
class DetailsCard:
    """The signals behind one cause's rank in an answer (Slack's "Details" button)."""

    lang: str
    incident: int
    pitfall: str
    title: str
    lines: tuple[Msg | str, ...]  # signature regexes and what they matched, shared terms, nearest examples;
    # a str: stored before details were messages


@dataclass(frozen=True)
class HomeCard:
    """The App Home tab for one person: their language setting, pending drafts, incident figures."""

    lang: str  # the tab's language: the person's choice, else English
    choice: str  # "en" | "zh" | "auto" (follow the paste)
    days: int
    figures: Any  # incidents.stats.Stats
    drafts: tuple[DraftCard, ...] = ()


@dataclass(frozen=True)
class HostState:
    """Where one host stands in a running diagnosis."""

    host: str
    status: str  # "pending", "ok", "unreachable", "auth_failed", "host_key_mismatch", "error"
    error: str | Msg = ""  # a Msg renders in the card's language


@dataclass(frozen=True)
class CauseFindings:
    """All hosts' verdicts on one cause, the strongest first."""

    pitfall: str
    title: str
    findings: tuple[tuple[str, Verdict], ...]  # (host, its verdict)


@dataclass(frozen=True)
class DiagnosisCard:
    """A diagnosis in progress or finished: host states, then verdicts grouped by cause."""

    lang: str
    target: str
    hosts: tuple[HostState, ...]
    causes: tuple[CauseFindings, ...] = ()
    done: bool = False
    incident: int | None = None
    odd: tuple[str, ...] = ()  # one sentence per host that differs from its peers, in `lang`
    job: str = ""  # the job line when the target was a job


@dataclass(frozen=True)
class Notice:
    """A short sentence for one person: a refusal, an error, an acknowledgement."""

    text: str
    ok: bool = False
    mention: str = ""  # a Slack user id to address the notice to, when it goes to a channel


@dataclass(frozen=True)
class Choice:
    """One selectable cause in the resolution form."""

    pitfall: str
    title: str
    note: str = ""  # "confirmed on gpu-node-3", "candidate 1", ...


@dataclass(frozen=True)
class ResolutionForm:
    """What the "Record resolution" modal (or the console prompt) offers."""

    incident: int
    choices: tuple[Choice, ...]
    lang: str = "en"


@dataclass(frozen=True)
class DraftCard:
    """A draft pitfall or a merge proposal waiting for (or past) a maintainer's review."""

    id: str
    kind: str  # "new" | "merge"
    status: str  # "draft" | "approved" | "rejected"
    title: str
    summary: str = ""
    symptoms: tuple[str, ...] = ()
    fix: tuple[str, ...] = ()
    target: str | None = None  # the entry a merge proposal would add examples to
    incident: int | None = None
    decided_by: str | None = None
    outcome: str | Msg = ""  # the sentence of the last decision
    lang: str = "en"

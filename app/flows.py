"""The use cases, written once: ask, diagnose, resolve, feedback and draft review.

Slack listeners, the console and the CLI call these same functions and only render the cards
(`app.cards`) they return; they raise `PitstopError`s that `bot.errors.describe` turns into text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pitstop.app.ask import TOP_CAUSES, ask
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
from pitstop.app.diagnose import authorized_hosts, authorized_job_host
from pitstop.app.digest import digest, job_line, render_text
from pitstop.app.hosts import mentioned_hosts
from pitstop.app.services import Services
from pitstop.core.errors import NotAllowed, NotFound, PitstopError, UsageError
from pitstop.core.i18n import Msg, msg, render, t

if TYPE_CHECKING:
    from pitstop.app.diagnose import DiagnoseReport, HostReport
    from pitstop.collectors.inventory import Host
    from pitstop.collectors.jobs import JobInfo
    from pitstop.collectors.model import Verdict

ODD_LIMIT = 4  # differing facts named per host in chat (the attached report has all)
MAX_HOST_CHOICES = 100
VERDICT_ORDER = {"confirmed": 0, "ruled_out": 1, "inconclusive": 2}


def answer(services: Services, text: str, *, channel: str, thread_ts: str, user: str) -> AnswerCard:
    """Ask the KB about a paste, open/update the thread's incident, and offer checks on a host."""
    if not text.strip():
        raise UsageError(msg("flows.empty_paste"))
    result, card = ask(services.kb, text, lang=services.incidents.user_lang(user), top=TOP_CAUSES)
    iid = services.incidents.record_answer(
        channel=channel, thread_ts=thread_ts, user=user, text=text, answer=result
    )
    names = list(services.inventory.hosts)
    named = mentioned_hosts(text, names)
    return replace(
        card,
        incident=iid,
        host=named[0] if named else None,
        host_choices=() if named else tuple(sorted(names)[:MAX_HOST_CHOICES]),
    )


def set_language(services: Services, user: str, choice: str) -> Notice:
    """Store `user`'s answer language: en, zh, or auto (follow the paste); the notice is in the
    language chosen (English for auto, as the App Home tab then is)."""
    from pitstop.core.i18n import normalize_lang

    if choice not in ("auto", "") and normalize_lang(choice) is None:
        raise UsageError(msg("common.lang.choose"))
    chosen = services.incidents.set_user_lang(user, choice or "auto")
    if chosen is None:
        return Notice(t("common.lang.set_auto", "en"), ok=True)
    return Notice(t("common.lang.set", chosen, name=t(f"common.lang.{chosen}", chosen)), ok=True)


def reader_lang(services: Services, user: str, paste_lang: str) -> str:
    """The language `user` chose (App Home, console `:lang`), else the paste's."""
    return services.incidents.user_lang(user) or paste_lang


def incident_reader_lang(services: Services, user: str, incident: int | None) -> str:
    """The language `user` chose, else that of the incident's paste (English with no such incident)."""
    chosen = services.incidents.user_lang(user)
    if chosen or incident is None:
        return chosen or "en"
    try:
        return services.incidents.get(incident).lang
    except NotFound:
        return "en"


def home(services: Services, user: str, days: int) -> HomeCard:
    """`user`'s App Home tab: in the language they chose (English when they follow the paste)."""
    chosen = services.incidents.user_lang(user)
    lang = chosen or "en"
    figures = stats(services, days, lang)
    return HomeCard(lang, chosen or "auto", days, figures, pending_drafts(services, lang=lang))


def details(services: Services, incident: int, pitfall: str, *, user: str) -> DetailsCard:
    """The signals behind `pitfall`'s rank in `incident`'s answer, for the "Details" button."""
    record = services.incidents.get(incident)
    lang = reader_lang(services, user, record.lang)
    lines = services.incidents.candidate_details(incident, pitfall)
    if lines is None:
        raise NotFound(msg("flows.details.unknown", pitfall=pitfall, incident=incident))
    return DetailsCard(lang, incident, pitfall, title_of(services, pitfall, lang), lines)


@dataclass(frozen=True)
class Diagnosis:
    """A finished diagnosis: the card to show, the report as text (the CLI's and the console's) and the
    file for the thread (that text, the JSON report and every command's output)."""

    card: DiagnosisCard
    text: str
    outputs: str
    down: tuple[HostState, ...]


class Progress:
    """Tracks host states while a diagnosis runs and reports each change to `on_change`."""

    def __init__(
        self, target: str, lang: str, hosts: Iterable[str], on_change: Callable[[DiagnosisCard], None]
    ) -> None:
        self._target, self._lang, self._on_change = target, lang, on_change
        self._states = {h: HostState(h, "pending") for h in hosts}
        self._lock = threading.Lock()

    def card(self) -> DiagnosisCard:
        """The current progress card."""
        with self._lock:
            return DiagnosisCard(self._lang, self._target, tuple(self._states.values()))

    def __call__(self, report: Any, done: int = 0, total: int = 0) -> None:
        """The `progress` callback of `collectors.diagnose.diagnose`: one host's report arrived."""
        if report.host not in self._states:
            return
        with self._lock:
            self._states[report.host] = host_state(report)
        self._on_change(self.card())


def host_state(host: HostReport) -> HostState:
    """A host's line in the card; a reachable host whose evidence could not be read says so."""
    if host.status == "ok" and host.evidence_status == "unreadable":
        why = tuple(msg("reasons.read.of", collector=c, why=w) for c, w in host.unread.items())
        return HostState(host.host, "unreadable", msg("reasons.all", reasons=why))
    return HostState(host.host, str(host.status), host.error)


def diagnose(
    services: Services,
    hosts: tuple[Host, ...],
    target: str,
    error_text: str | None,
    *,
    user: str,
    channel: str,
    thread_ts: str | None,
    origin: str,
    on_progress: Callable[[DiagnosisCard], None],
    lang: str | None = None,
    job: JobInfo | None = None,
) -> Diagnosis:
    """Check `hosts` (already authorized by `authorize(target)`), reporting progress; record the incident.
    The cards are in `lang` (default: `user`'s choice, else the error text's language).

    With `job` (a resolved `JobInfo`), its nodes instead, once the policy allows them, over its time
    span (`authorized_job_request`); `hosts` is then ignored.
    """
    from pitstop.app.diagnose import DiagnoseRequest, authorized_job_request
    from pitstop.kb.preprocess import detect_lang

    lang = lang or reader_lang(services, user, detect_lang(error_text) if error_text else "en")
    request = DiagnoseRequest(
        hosts=target,
        error_text=error_text or None,
        since=None,
        requester=user,
        origin=f"{origin}:{channel}",
        selected=hosts,
    )
    if job is not None:
        request = authorized_job_request(
            job, services.inventory, services.policy, request, user=user, channel=channel, origin=origin
        )
        hosts = request.selected
    progress = Progress(target, lang, (h.name for h in hosts), on_progress)
    report = services.run_diagnose(request, progress)
    iid = None
    if thread_ts:
        iid = services.incidents.record_diagnosis(
            channel=channel,
            thread_ts=thread_ts,
            user=user,
            hosts=[h.name for h in hosts],
            verdicts=[(h.host, v) for h in report.hosts for v in h.shown],
            text=error_text,
            lang=detect_lang(error_text) if error_text else lang,
        )
    card = diagnosis_card(report, target, lang, iid, lambda pitfall: title_of(services, pitfall, lang))
    text = render_text(report, lang)
    down = tuple(s for s in card.hosts if s.status != "ok")
    return Diagnosis(card, text, report_file(report, lang, text), down)


def diagnosis_card(
    report: Any, target: str, lang: str, incident: int | None, title: Callable[[str], str]
) -> DiagnosisCard:
    """The finished card of a report: host states, verdicts grouped per cause, the odd hosts, the job."""
    return DiagnosisCard(
        lang,
        target,
        tuple(host_state(h) for h in report.hosts),
        _group_by_cause(report, title),
        done=True,
        incident=incident,
        odd=tuple(o.describe(lang, limit=ODD_LIMIT) for o in digest(report).odd),
        job=job_line(report.job, lang) if report.job else "",
    )


def report_file(report: DiagnoseReport, lang: str, text: str | None = None) -> str:
    """The attached file: the whole verdict report as text (`text` when already rendered) and as JSON,
    then every command's output."""
    from pitstop.app.diagnose import report_json

    return "\n\n".join(
        (
            text if text is not None else render_text(report, lang),
            f"===== {t('fleet.slack.report_json', lang)} =====",
            report_json(report),
            f"===== {t('fleet.slack.raw_outputs', lang)} =====",
            outputs_text(report),
        )
    )


def authorize_job(services: Services, job_id: str, *, user: str, channel: str, origin: str) -> Host:
    """The Slurm controller host, if `job_id` is a job id and the policy lets `user` ask that host."""
    return authorized_job_host(
        services.inventory, services.policy, job_id, user=user, channel=channel, origin=origin
    )


def authorize(services: Services, target: str, *, user: str, channel: str, origin: str) -> tuple[Host, ...]:
    """The inventory hosts named by `target`, if the policy lets `user` check them; else NotAllowed."""
    return authorized_hosts(
        services.inventory, services.policy, target, user=user, channel=channel, origin=origin
    )


def _group_by_cause(report: DiagnoseReport, title: Callable[[str], str]) -> tuple[CauseFindings, ...]:
    findings: dict[str, list[tuple[str, Verdict]]] = {}
    for host in report.hosts:
        for v in host.shown:
            findings.setdefault(v.pitfall, []).append((host.host, v))
    groups = []
    for pitfall, items in findings.items():
        items.sort(key=lambda f: (VERDICT_ORDER.get(f[1].verdict, 3), f[0]))
        groups.append(CauseFindings(pitfall, title(pitfall), tuple(items)))
    # Confirmed first; within a verdict, the report's order (the KB's ranking of the candidates).
    groups.sort(key=lambda g: VERDICT_ORDER.get(g.findings[0][1].verdict, 3))
    return tuple(groups)


def title_of(services: Services, pitfall: str, lang: str) -> str:
    """A pitfall's title in `lang`, or its id when the KB does not know it."""
    try:
        entry = services.kb.get(pitfall)
    except Exception:  # noqa: BLE001 - an unknown id still deserves a line
        return pitfall
    title_zh = getattr(entry, "title_zh", "")
    return title_zh if lang == "zh" and title_zh else getattr(entry, "title", pitfall)


def outputs_text(report: DiagnoseReport) -> str:
    """Every command's full output, per host: the file posted in the thread (redacted as it is sent)."""
    lines: list[str] = []
    for host in report.hosts:
        error = f": {render(host.error, report.lang)}" if host.error else ""
        lines.append(f"===== {host.host} ({host.status}{error}) =====")
        for result in host.commands:
            lines.append(f"$ {' '.join(result.argv)}   [{result.outcome}, exit {result.exit}]")
            lines.append(result.stdout.rstrip())
            if result.stderr.strip():
                lines.append("[stderr] " + result.stderr.rstrip())
            if result.message:
                lines.append(f"[{render(result.message, report.lang)}]")

            lines.append("")
    return "\n".join(lines)


def search_hosts(
    services: Services, query: str, limit: int = MAX_HOST_CHOICES, lang: str = "en"
) -> list[tuple[str, str]]:
    """Host-picker options for what was typed: a host-list expression or group naming several inventory
    hosts first (`gpu[01-04] (4 hosts)`), then host names starting with it, then containing it."""
    q = query.strip()
    out: list[tuple[str, str]] = []
    if q:
        try:
            named = services.inventory.select(q)
        except PitstopError:
            named = ()
        if len(named) > 1:
            out.append((t("flows.hosts", lang, expr=q, n=len(named)), q))
    low = q.lower()
    names = sorted(services.inventory.hosts)
    starts = [n for n in names if n.lower().startswith(low)]
    inside = [n for n in names if low in n.lower() and not n.lower().startswith(low)]
    out += [(n, n) for n in starts + inside]
    return out[:limit]


def feedback(services: Services, incident: int, *, user: str, pitfall: str, helpful: bool) -> Notice:
    """Record "This was it" / "Not it" for one cause."""
    services.incidents.feedback(incident, user=user, pitfall_id=pitfall, helpful=helpful)
    lang = reader_lang(services, user, services.incidents.get(incident).lang)
    key = "flows.feedback.this" if helpful else "flows.feedback.not_it"
    return Notice(t(key, lang, pitfall=pitfall, incident=incident), ok=True)


def resolution_form(services: Services, incident: int, user: str = "") -> ResolutionForm:
    """The choices for resolving `incident` (in `user`'s language): confirmed verdicts first, then the
    KB's candidates."""
    record = services.incidents.get(incident)
    lang = reader_lang(services, user, record.lang)
    choices: dict[str, Choice] = {}
    for host, v in record.verdicts:
        if v.verdict == "confirmed" and v.pitfall not in choices:
            choices[v.pitfall] = Choice(
                v.pitfall, title_of(services, v.pitfall, lang), t("flows.choice.confirmed", lang, host=host)
            )
    for c in record.candidates:
        if c.pitfall_id not in choices:
            choices[c.pitfall_id] = Choice(
                c.pitfall_id,
                title_of(services, c.pitfall_id, lang),
                t("flows.choice.candidate", lang, rank=c.rank),
            )
    return ResolutionForm(incident, tuple(choices.values()), lang)


def search_causes(
    services: Services, query: str, incident: int | None, lang: str = "en"
) -> tuple[Choice, ...]:
    """Causes for the picker: the incident's choices when `query` is empty, else KB-wide matches."""
    query = query.strip()
    if not query:
        return resolution_form(services, incident).choices if incident is not None else ()
    needle = query.lower()
    found: dict[str, Choice] = {}
    for entry in services.kb.all():
        if needle in entry.id.lower() or needle in entry.title.lower() or needle in (entry.title_zh or ""):
            found[entry.id] = Choice(
                entry.id, entry.title_zh if lang == "zh" and entry.title_zh else entry.title
            )
    for match in services.kb.ask(query, top=10).results:
        found.setdefault(match.id, Choice(match.id, match.title))
    return tuple(found.values())


def resolve(
    services: Services,
    incident: int,
    *,
    user: str,
    cause_id: str | None = None,
    new_cause: Any = None,
    notes: str = "",
    vouched: bool = False,
) -> Notice:
    """Record how an incident ended (one path for Slack and the console); the KB learns from it.
    `vouched`: `user` is a maintainer or the operator (`Incidents.resolve`). The notice, in `user`'s
    language, says what the KB learned."""
    record = services.incidents.resolve(
        incident, user=user, cause_id=cause_id, new_cause=new_cause, notes=notes, vouched=vouched
    )
    return resolved_notice(record, reader_lang(services, user, record.lang))


def resolved_notice(record: Any, lang: str) -> Notice:
    """What a resolved incident's resolution says to the channel, in `lang`: what the KB learned."""
    resolution = record.resolution
    kind = resolution.kind if resolution else "existing"
    if resolution is not None and resolution.learn_state == "pending":
        kind = "pending"
    elif kind == "existing" and not record.error_text.strip():
        kind = "empty"
    cause = resolution.cause_id if resolution else None
    return Notice(t(f"flows.resolved.{kind}", lang, incident=record.id, cause=cause), ok=True)


def stats(services: Services, days: int = 30, lang: str = "en") -> Any:
    """Incident figures (`kb.stats.Stats`) of the last `days` days, on the incidents' own connection;
    the top causes named in `lang`."""
    from datetime import timedelta

    from pitstop.core.clock import utc_now
    from pitstop.incidents.stats import compute

    now = utc_now()
    figures = compute(services.incidents.db, since=now - timedelta(days=days), now=now)
    named = tuple(replace(c, label=title_of(services, c.key, lang)) for c in figures.top_causes)
    return replace(figures, top_causes=named)


def _draft_card(draft: Any, lang: str, outcome: str | Msg = "") -> DraftCard:
    body = draft.body
    new = body.get("new_cause") or {}
    fix = body.get("fix") if draft.kind == "new" else new.get("fix")
    return DraftCard(
        id=draft.id,
        kind=draft.kind,
        status=draft.status,
        title=draft.title,
        summary=str(body.get("summary") or new.get("what") or ""),
        symptoms=tuple(str(s) for s in (body.get("symptoms") or new.get("symptoms") or ())),
        fix=tuple(str(f) for f in ([fix] if isinstance(fix, str) else fix or ()) if f),
        target=draft.target_id,
        incident=draft.incident_id,
        decided_by=draft.decided_by,
        outcome=outcome,
        lang=lang,
    )


def _incident_lang(services: Services, incident: int | None) -> str:
    """The language of the thread a draft came from (its incident's paste), else English."""
    if incident is None:
        return "en"
    try:
        return services.incidents.get(incident).lang
    except NotFound:
        return "en"


def pending_drafts(
    services: Services, incident: int | None = None, lang: str | None = None
) -> tuple[DraftCard, ...]:
    """Drafts and merge proposals waiting for review (only those of `incident` when given), in `lang`
    (default: the language of each draft's incident)."""
    from pitstop.incidents.drafts import list_drafts

    found = list_drafts(services.kb.db)
    return tuple(
        _draft_card(d, lang or _incident_lang(services, d.incident_id))
        for d in found
        if incident is None or d.incident_id == incident
    )


def draft(services: Services, draft_id: str, outcome: str | Msg = "") -> DraftCard:
    """One draft as a card in its incident's language (NotFound when unknown)."""
    from pitstop.incidents.drafts import get_draft

    found = get_draft(services.kb.db, draft_id)
    return _draft_card(found, _incident_lang(services, found.incident_id), outcome)


def require_maintainer(allowed: bool) -> None:
    """Refuse draft reviews to people who are not maintainers."""
    if not allowed:
        raise NotAllowed(msg("drafts.maintainers_only"))


def approve_draft(services: Services, draft_id: str, *, user: str) -> DraftCard:
    """Approve a draft (its entry file is written for review in git) or a merge proposal."""
    from pitstop.incidents import drafts

    extra = {"directory": services.pitfalls_dir} if services.pitfalls_dir is not None else {}
    kb = services.kb
    sentence = drafts.approve(kb, kb.db, draft_id, user=user, **extra)  # type: ignore[arg-type]
    return draft(services, draft_id, sentence)


def reject_draft(services: Services, draft_id: str, *, user: str) -> DraftCard:
    """Reject a draft (it leaves search) or a merge proposal."""
    from pitstop.incidents import drafts

    kb = services.kb
    return draft(services, draft_id, drafts.reject(kb, kb.db, draft_id, user=user))


def edit_draft(services: Services, draft_id: str, changes: Mapping[str, Any], *, user: str) -> DraftCard:
    """Change a pending draft's fields (title, summary, symptoms, fix, ...); it must stay a valid entry."""
    from pitstop.incidents import drafts

    drafts.edit(services.kb, services.kb.db, draft_id, changes)
    return draft(services, draft_id, msg("drafts.edited", id=draft_id, user=user))

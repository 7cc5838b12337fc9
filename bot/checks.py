"""Run checks from Slack: one message posted, updated as hosts finish, outputs attached in its thread."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from slack_bolt import Respond
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from pitstop.app import flows
from pitstop.app.cards import DiagnosisCard, HostState, Notice
from pitstop.app.outbox import Entry, QueueFull
from pitstop.bot.delivery import Delivery
from pitstop.bot.deps import Deps
from pitstop.bot.errors import describe, reporting
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import ThrottledUpdater, tell, upload_text
from pitstop.collectors.hostlist import compress
from pitstop.core.i18n import detect_lang, t

KIND = "diagnose"  # outbox rows: checks to run and post, from /diagnose or a "Run checks" click
TRANSIENT = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"}
)


def start_checks(
    deps: Deps,
    client: WebClient,
    *,
    key: str,
    target: str,
    error_text: str | None,
    user: str,
    channel: str,
    thread_ts: str | None,
    lang: str | None = None,
    response_url: str | None = None,
    job: str | None = None,
) -> None:
    """Authorize, then store a diagnosis of `target` (or of Slurm job `job`'s nodes) in the outbox under
    the delivery `key` (`trigger_key`: a replayed request finds its row and runs nothing).

    Notices go to `user` alone (through `response_url` when given, else ephemeral), at most one per
    request. A refusal raises (`NotAllowed`, `UsageError`): the listener lets it reach the app's error
    handler, and nothing is stored.
    """
    lang = flows.reader_lang(deps.services, user, lang or (detect_lang(error_text) if error_text else "en"))

    # Authorize before storing, so one user's refused requests never fill the shared queue.
    if job is not None:  # the controller now; the job's nodes once they are known
        flows.authorize_job(deps.services, job, user=user, channel=channel, origin="slack")
        hosts: tuple[Any, ...] = ()
    else:
        hosts = flows.authorize(deps.services, target, user=user, channel=channel, origin="slack")
    request = _Request(target, error_text, user, channel, thread_ts, lang, job, response_url)
    try:
        deps.services.jobs.put(KIND, key, {**asdict(request), "hosts": [h.name for h in hosts]})
    except QueueFull as exc:
        _privately(client, request, describe(exc, lang))


@dataclass(frozen=True)
class _Request:
    target: str
    error_text: str | None
    user: str
    channel: str
    thread_ts: str | None
    lang: str | None
    job: str | None
    response_url: str | None  # a 30-minute capability Slack gave a slash command; kept until the row is done


def _privately(client: WebClient, r: _Request, text: str) -> None:
    """Tell the requester alone: through the command's response_url, else an ephemeral message."""
    if r.response_url is None:
        tell(client, r.channel, r.user, text, thread_ts=r.thread_ts)
    else:
        Respond(response_url=r.response_url)(
            response_type="ephemeral", replace_original=False, **blocks.notice_message(Notice(text)).kwargs()
        )


def checks_entry(deps: Deps, client: WebClient, entry: Entry) -> None:
    """Run one stored diagnosis: one message posted (or, on a retried row, the one posted before the
    crash), updated as hosts finish, the outputs attached in its thread once."""
    work = dict(entry.payload)
    hosts = tuple(deps.services.inventory.get(name) for name in work.pop("hosts"))
    r = _Request(**work)
    out = Delivery(client, entry, r.channel)

    def privately(text: str) -> None:
        _privately(client, r, text)

    lang = r.lang or "en"
    if r.job is not None:
        first = blocks.notice_message(Notice(t("fleet.slack.resolving", lang, job=r.job), ok=True))
    else:
        first = blocks.diagnosis_message(
            DiagnosisCard(lang, r.target, tuple(HostState(h.name, "pending") for h in hosts))
        )
    try:
        ts = out.post(first, thread_ts=r.thread_ts, part="card")
    except SlackApiError as exc:
        if exc.response.get("error") in TRANSIENT:
            raise  # the outbox tries again later (and finds the message if Slack did post it)
        privately(t("chat.cannot_post", lang, error=exc.response.get("error")))
        return
    updater = ThrottledUpdater(client, r.channel, ts, deps.update_interval_s)

    def check() -> flows.Diagnosis:
        target, chosen, info = r.target, hosts, None
        if r.job is not None:
            info = deps.services.resolve_job("slurm", r.job, requester=r.user, origin=f"slack:{r.channel}")
            target = f"job {r.job}"  # flows.diagnose checks the job's nodes once the policy allows them
        return flows.diagnose(
            deps.services,
            chosen,
            target,
            r.error_text,
            user=r.user,
            channel=r.channel,
            thread_ts=r.thread_ts or ts,
            origin="slack",
            on_progress=lambda card: updater.update(blocks.diagnosis_message(card)),
            lang=r.lang,
            job=info,
        )

    # The posted message must not stay "running" forever: a failure replaces it with the sentence.
    result = reporting(check, lambda text: updater.finish(blocks.notice_message(Notice(text))), lang)
    if result is None:
        return
    updater.finish(blocks.diagnosis_message(result.card))
    lang = result.card.lang
    name, thread = f"pitstop-{ts}.txt", r.thread_ts or ts
    if result.outputs and not out.has_file(thread, name):
        upload_text(client, r.channel, thread, result.outputs, name, t("fleet.slack.file_title", lang))
    if result.down:  # one notice for all of them, never one per host
        down = compress(s.host for s in result.down)
        privately(t("fleet.slack.down_notice", lang, n=len(result.down), hosts=down))

"""Run checks from Slack: one message posted, updated as hosts finish, outputs attached in its thread."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import Respond
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from pitstop.app import flows
from pitstop.app.cards import DiagnosisCard, HostState, Notice
from pitstop.app.diagnose import DiagnoseRequest, job_request
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reporting
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import ThrottledUpdater, post, tell, upload_text
from pitstop.collectors.hostlist import compress
from pitstop.core.i18n import detect_lang, t


def start_checks(
    deps: Deps,
    client: WebClient,
    *,
    target: str,
    error_text: str | None,
    user: str,
    channel: str,
    thread_ts: str | None,
    lang: str | None = None,
    respond: Respond | None = None,
    job: str | None = None,
) -> None:
    """Queue a diagnosis of `target` (or of Slurm job `job`'s nodes); notices go to `user` alone
    (`respond` when given, else ephemeral), at most one per request.

    A refusal raises (`NotAllowed`, `UsageError`): the listener lets it reach the app's error handler.
    """

    lang = flows.reader_lang(deps.services, user, lang or (detect_lang(error_text) if error_text else "en"))

    def privately(text: str) -> None:
        if respond is None:
            tell(client, channel, user, text, thread_ts=thread_ts)
        else:
            respond(
                response_type="ephemeral",
                replace_original=False,
                **blocks.notice_message(Notice(text)).kwargs(),
            )

    # Authorize before queueing, so one user's refused requests never fill the shared job queue.
    if job is not None:  # the controller now; the job's nodes once they are known
        flows.authorize_job(deps.services, job, user=user, channel=channel, origin="slack")
        hosts: tuple[Any, ...] = ()
    else:
        hosts = flows.authorize(deps.services, target, user=user, channel=channel, origin="slack")
    request = _Request(target, error_text, user, channel, thread_ts, lang, job)
    if not deps.services.jobs.submit(_run, deps, client, hosts, request, privately):
        privately(t("chat.busy_checks", lang))


@dataclass(frozen=True)
class _Request:
    target: str
    error_text: str | None
    user: str
    channel: str
    thread_ts: str | None
    lang: str | None
    job: str | None


def _run(
    deps: Deps, client: WebClient, hosts: tuple[Any, ...], r: _Request, privately: Callable[[str], None]
) -> None:
    lang = r.lang or "en"
    if r.job is not None:
        first = blocks.notice_message(Notice(t("fleet.slack.resolving", lang, job=r.job), ok=True))
    else:
        first = blocks.diagnosis_message(
            DiagnosisCard(lang, r.target, tuple(HostState(h.name, "pending") for h in hosts))
        )
    try:
        ts = post(client, r.channel, first, thread_ts=r.thread_ts)
    except SlackApiError as exc:
        privately(t("chat.cannot_post", lang, error=exc.response.get("error")))
        return
    updater = ThrottledUpdater(client, r.channel, ts, deps.update_interval_s)

    def check() -> flows.Diagnosis:
        target, chosen, info = r.target, hosts, None
        if r.job is not None:
            info = deps.services.resolve_job("slurm", r.job, requester=r.user, origin=f"slack:{r.channel}")
            target = f"job {r.job}"
            nodes = job_request(info, deps.services.inventory, DiagnoseRequest(hosts="")).hosts
            chosen = flows.authorize(deps.services, nodes, user=r.user, channel=r.channel, origin="slack")
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
    if result.outputs:
        upload_text(
            client,
            r.channel,
            r.thread_ts or ts,
            result.outputs,
            f"pitstop-{ts}.txt",
            t("fleet.slack.file_title", lang),
        )
    if result.down:  # one notice for all of them, never one per host
        down = compress(s.host for s in result.down)
        privately(t("fleet.slack.down_notice", lang, n=len(result.down), hosts=down))

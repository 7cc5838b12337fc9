"""Run checks from Slack: one message posted, updated as hosts finish, outputs attached in its thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt import Respond
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from pitstop.app import flows
from pitstop.app.cards import DiagnosisCard, HostState, Notice
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reporting
from pitstop.bot.render import blocks
from pitstop.bot.slack_io import ThrottledUpdater, post, tell, upload_text


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
) -> None:
    """Queue a diagnosis of `target`; notices go to `user` alone (`respond` when given, else ephemeral).

    A refusal raises (`NotAllowed`, `UsageError`): the listener lets it reach the app's error handler.
    """

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
    hosts = flows.authorize(deps.services, target, user=user, channel=channel, origin="slack")
    if not deps.services.jobs.submit(
        _run, deps, client, hosts, target, error_text, user, channel, thread_ts, lang, privately
    ):
        privately("Pitstop is busy with other checks; try again in a minute.")


def _run(
    deps: Deps,
    client: WebClient,
    hosts: tuple[Any, ...],
    target: str,
    error_text: str | None,
    user: str,
    channel: str,
    thread_ts: str | None,
    lang: str | None,
    privately: Callable[[str], None],
) -> None:
    first = DiagnosisCard(lang or "en", target, tuple(HostState(h.name, "pending") for h in hosts))
    try:
        ts = post(client, channel, blocks.diagnosis_message(first), thread_ts=thread_ts)
    except SlackApiError as exc:
        privately(f"I cannot post here ({exc.response.get('error')}); invite me with /invite @pitstop.")
        return
    updater = ThrottledUpdater(client, channel, ts, deps.update_interval_s)

    def check() -> flows.Diagnosis:
        return flows.diagnose(
            deps.services,
            hosts,
            target,
            error_text,
            user=user,
            channel=channel,
            thread_ts=thread_ts or ts,
            origin="slack",
            on_progress=lambda card: updater.update(blocks.diagnosis_message(card)),
            lang=lang,
        )

    # The posted message must not stay "running" forever: a failure replaces it with the sentence.
    result = reporting(check, lambda text: updater.finish(blocks.notice_message(Notice(text))))
    if result is None:
        return
    updater.finish(blocks.diagnosis_message(result.card))
    if result.outputs:
        upload_text(
            client, channel, thread_ts or ts, result.outputs, f"pitstop-{ts}.txt", "Full command outputs"
        )
    for state in result.down:
        privately(f"{state.host} could not be checked ({state.status}): {state.error}")

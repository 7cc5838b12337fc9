"""`/diagnose HOSTS [error text]` and `/diagnose job ID [error text]`: authorized and stored in the outbox
before the acknowledgement; the checks run in the background."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack
from slack_sdk import WebClient

from pitstop.bot.checks import start_checks
from pitstop.bot.delivery import trigger_key
from pitstop.bot.deps import Deps
from pitstop.bot.errors import reader_lang
from pitstop.core.i18n import t


def parse(text: str) -> tuple[str, str | None]:
    """Split the command text into the host expression and the optional error text."""
    target, _, rest = (text or "").strip().partition(" ")
    return target, (rest.strip() or None)


def diagnose_callback(ack: Ack, command: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Usage on `help` or nothing; otherwise authorize and queue the checks."""
    target, error_text = parse(command.get("text", ""))
    if not target or target in ("help", "-h", "--help"):
        ack(t("chat.diagnose_usage", reader_lang(command, deps)))
        return
    job = None
    if target == "job":  # `/diagnose job 123456 [error text]`: the nodes of a Slurm job
        job, error_text = parse(error_text or "")
        if not job:
            ack(t("fleet.slack.job_usage", reader_lang(command, deps)))
            return
    # Slash commands cannot be typed in threads, so the answer goes where it was typed.
    start_checks(
        deps,
        client,
        key=trigger_key(command),
        target=target,
        error_text=error_text,
        user=command["user_id"],
        channel=command["channel_id"],
        thread_ts=None,
        response_url=command.get("response_url"),  # works even where the bot is not a member
        job=job,
    )
    ack()

"""A message: answered when it is a direct message, mentions the bot, or looks like an error in an
"auto" channel; everything else is ignored."""

from __future__ import annotations

from typing import Any

from slack_bolt import BoltContext
from slack_sdk import WebClient

from pitstop.bot.answer import maybe_answer
from pitstop.bot.deps import Deps


def message_callback(
    event: dict[str, Any],
    context: BoltContext,
    client: WebClient,
    deps: Deps,
) -> None:
    """Answer the message in its thread when it is for the bot."""
    # A direct message is addressed to the bot as much as a mention is.
    mentioned = event.get("channel_type") == "im" or (
        bool(context.bot_user_id) and f"<@{context.bot_user_id}" in (event.get("text") or "")
    )
    maybe_answer(deps, event, context, client, mentioned=mentioned)

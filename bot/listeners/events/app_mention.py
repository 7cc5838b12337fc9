"""An @mention: the paste gets one thread reply."""

from __future__ import annotations

from typing import Any

from slack_bolt import BoltContext
from slack_sdk import WebClient

from pitstop.bot.answer import maybe_answer
from pitstop.bot.deps import Deps


def app_mention_callback(
    event: dict[str, Any],
    context: BoltContext,
    client: WebClient,
    deps: Deps,
) -> None:
    """Answer the mention in its thread."""
    maybe_answer(deps, event, context, client, mentioned=True)

"""The App Home tab: the answer-language setting, pending drafts and the incident figures of the last
`HOME_DAYS` days."""

from __future__ import annotations

from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.app.cards import Notice
from pitstop.bot.deps import Deps
from pitstop.bot.render import blocks

HOME_DAYS = 30


def publish_home(deps: Deps, client: WebClient, user: str, notice: Notice | None = None) -> None:
    """Publish the App Home tab for `user` in their language: `notice` on top, the language setting,
    the incident figures and pending drafts."""
    view = blocks.home_view(flows.home(deps.services, user, HOME_DAYS))
    if notice is not None:
        view["blocks"].insert(0, blocks.notice_message(notice).blocks[0])
    client.views_publish(user_id=user, view=view)


def publish_notice(client: WebClient, user: str, text: str) -> None:
    """Publish an App Home tab holding only `text` (when the real tab cannot be built)."""
    view = {"type": "home", "blocks": list(blocks.notice_message(Notice(text)).blocks)}
    client.views_publish(user_id=user, view=view)

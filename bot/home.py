"""The App Home tab: pending drafts and the incident figures of the last `HOME_DAYS` days."""

from __future__ import annotations

from slack_sdk import WebClient

from pitstop.app import flows
from pitstop.app.cards import Notice
from pitstop.bot.deps import Deps
from pitstop.bot.render import blocks

HOME_DAYS = 30


def publish_home(deps: Deps, client: WebClient, user: str, warning: str = "") -> None:
    """Publish the App Home tab for `user`: `warning` on top, pending drafts and the incident figures."""
    services = deps.services
    view = blocks.home_view(flows.stats(services, HOME_DAYS), HOME_DAYS, flows.pending_drafts(services))
    if warning:
        view["blocks"].insert(0, blocks.notice_message(Notice(warning)).blocks[0])
    client.views_publish(user_id=user, view=view)


def publish_notice(client: WebClient, user: str, text: str) -> None:
    """Publish an App Home tab holding only `text` (when the real tab cannot be built)."""
    view = {"type": "home", "blocks": list(blocks.notice_message(Notice(text)).blocks)}
    client.views_publish(user_id=user, view=view)

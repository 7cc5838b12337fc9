"""Draft review in Slack: "Approve draft", "Edit" (pre-filled modal), "Reject draft"; maintainers only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from pitstop.bot import flows, ids
from pitstop.bot.errors import describe
from pitstop.bot.listeners import Deps
from pitstop.bot.listeners.actions import clicked, where
from pitstop.bot.maintainers import Maintainers
from pitstop.bot.render import blocks
from pitstop.bot.render.model import DraftCard, Notice
from pitstop.bot.slack_io import tell

HOME_DAYS = 30


def draft_id(value: dict[str, Any]) -> str:
    """The draft id a button or modal carries; '' when tampered."""
    return str(value.get("d") or "")


def edit_values(view: dict[str, Any]) -> dict[str, Any]:
    """The edit modal's fields as `kb.drafts.edit` changes (list fields split into lines)."""
    state = (view.get("state") or {}).get("values") or {}
    changes: dict[str, Any] = {}
    for block_id, action_id, name, is_list in ids.DRAFT_FIELDS:
        text = str(((state.get(block_id) or {}).get(action_id) or {}).get("value") or "").strip()
        changes[name] = [line.strip() for line in text.splitlines() if line.strip()] if is_list else text
    return changes


def publish_home(deps: Deps, client: WebClient, user: str, warning: str = "") -> None:
    """Publish the App Home tab for `user`: `warning` on top, pending drafts and the incident figures."""
    services = deps.services
    view = blocks.home_view(flows.stats(services, HOME_DAYS), HOME_DAYS, flows.pending_drafts(services))
    if warning:
        view["blocks"].insert(0, blocks.notice_message(Notice(warning)).blocks[0])
    client.views_publish(user_id=user, view=view)


def register(app: App, deps: Deps) -> None:
    """Register the draft review listeners."""
    services = deps.services
    maintainers = Maintainers(
        services.maintainers,
        lambda group: app.client.usergroups_users_list(usergroup=group).get("users") or (),
    )

    def show(client: WebClient, body: dict[str, Any], card: DraftCard) -> None:
        """Update the message that held the buttons, or the App Home tab they were on."""
        container = body.get("container") or {}
        if container.get("type") == "message":
            channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
            client.chat_update(
                channel=channel, ts=container["message_ts"], **blocks.draft_message(card).kwargs()
            )
        else:
            publish_home(deps, client, body["user"]["id"])

    def decide(decision: Callable[..., DraftCard]) -> Callable[..., None]:
        def listener(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
            ack()
            user = body["user"]["id"]
            try:
                flows.require_maintainer(maintainers.allows(user))
                card = decision(services, draft_id(clicked(body)), user=user)
            except Exception as exc:  # noqa: BLE001 - one sentence to the person who clicked
                refuse(client, body, describe(exc))
                return
            show(client, body, card)

        return listener

    def refuse(client: WebClient, body: dict[str, Any], text: str) -> None:
        channel, thread = where(body)
        if channel:
            tell(client, channel, body["user"]["id"], text, thread_ts=thread)
        else:  # the App Home tab has no channel: republish it with the refusal on top
            publish_home(deps, client, body["user"]["id"], warning=text)

    app.action(ids.ACTION_APPROVE)(decide(flows.approve_draft))
    app.action(ids.ACTION_REJECT)(decide(flows.reject_draft))

    @app.action(ids.ACTION_EDIT)
    def on_edit(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        user = body["user"]["id"]
        try:
            flows.require_maintainer(maintainers.allows(user))
            card = flows.draft(services, draft_id(clicked(body)))
        except Exception as exc:  # noqa: BLE001
            refuse(client, body, describe(exc))
            return
        container = body.get("container") or {}
        metadata = ids.pack(d=card.id, c=container.get("channel_id"), m=container.get("message_ts"))
        client.views_open(trigger_id=body["trigger_id"], view=blocks.draft_edit_modal(card, metadata))

    @app.view(ids.VIEW_DRAFT_EDIT)
    def on_edit_submit(ack: Ack, body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        meta = ids.unpack(view.get("private_metadata"))
        user = body["user"]["id"]
        try:
            flows.require_maintainer(maintainers.allows(user))
            card = flows.edit_draft(services, draft_id(meta), edit_values(view), user=user)
        except Exception as exc:  # noqa: BLE001 - shown in the modal, which stays open
            ack(response_action="errors", errors={ids.DRAFT_FIELDS[0][0]: describe(exc)[:1900]})
            return
        ack()
        if meta.get("c") and meta.get("m"):
            client.chat_update(channel=meta["c"], ts=meta["m"], **blocks.draft_message(card).kwargs())
        else:
            publish_home(deps, client, user)

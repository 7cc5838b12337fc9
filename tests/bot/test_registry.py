"""Conformance: the manifest and the listeners registered on the BUILT app agree; ids are unique;
listener modules are one callback each and never import one another."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml
from slack_bolt import App, BoltResponse
from slack_bolt.request import BoltRequest

from pitstop.bot import ids

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "slack" / "manifest.yaml"
LISTENERS = REPO / "bot" / "listeners"


def manifest() -> dict:
    return yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))


def manifest_events() -> set[str]:
    return {e.split(".")[0] for e in manifest()["settings"]["event_subscriptions"]["bot_events"]}


def manifest_commands() -> set[str]:
    return {c["command"] for c in manifest()["features"]["slash_commands"]}


def event(kind: str) -> dict[str, Any]:
    return {"type": "event_callback", "team_id": "T1", "event": {"type": kind, "user": "U1", "channel": "C1"}}


def command(name: str) -> dict[str, Any]:
    return {"command": name, "text": "", "user_id": "U1", "channel_id": "C1", "team_id": "T1"}


def action(action_id: str) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "user": {"id": "U1"},
        "team": {"id": "T1"},
        "actions": [{"action_id": action_id, "block_id": "b", "type": "button"}],
    }


def view(callback_id: str) -> dict[str, Any]:
    return {
        "type": "view_submission",
        "user": {"id": "U1"},
        "view": {"type": "modal", "callback_id": callback_id},
    }


def options(action_id: str) -> dict[str, Any]:
    return {"type": "block_suggestion", "user": {"id": "U1"}, "action_id": action_id, "value": ""}


def handlers(app: App, body: dict[str, Any]) -> list[Any]:
    """The registered listeners that would run for `body` (Bolt keeps them in `App._listeners`)."""
    request = BoltRequest(body=body, mode="socket_mode")
    return [
        listener
        for listener in app._listeners  # noqa: SLF001 - Bolt has no public accessor for them
        if listener.matches(req=request, resp=BoltResponse(status=200))
    ]


# Everything Slack can send the app: the manifest's events and commands, plus the interactivity
# ids the bot's own messages and modals carry (the manifest routes all interactivity to one URL).
def routed() -> dict[str, dict[str, Any]]:
    return {
        **{f"event {e}": event(e) for e in manifest_events()},
        **{f"command {c}": command(c) for c in manifest_commands()},
        **{f"action {a}": action(a) for a in ids.ACTIONS},
        **{f"view {v}": view(v) for v in (ids.VIEW_RESOLUTION, ids.VIEW_DRAFT_EDIT)},
        f"options {ids.CAUSE_SELECT}": options(ids.CAUSE_SELECT),
        f"options {ids.ACTION_PICK_HOST}": options(ids.ACTION_PICK_HOST),
    }


@pytest.fixture
def app(serve_app) -> App:
    return serve_app().app


def test_everything_the_manifest_subscribes_to_has_exactly_one_listener_on_the_built_app(app):
    counts = {name: len(handlers(app, body)) for name, body in routed().items()}
    assert counts and all(n == 1 for n in counts.values()), counts


def test_every_listener_on_the_built_app_serves_something_slack_sends(app):
    bodies = list(routed().values())
    unrouted = [
        listener
        for listener in app._listeners  # noqa: SLF001
        if not any(handlers_include(app, body, listener) for body in bodies)
    ]
    assert app._listeners and not unrouted  # noqa: SLF001


def handlers_include(app: App, body: dict[str, Any], listener: Any) -> bool:
    return any(found is listener for found in handlers(app, body))


def test_an_unsubscribed_event_finds_no_listener(app):
    assert handlers(app, event("reaction_added")) == []  # the check above can fail


def test_scopes_are_the_minimal_set():
    assert set(manifest()["oauth_config"]["scopes"]["bot"]) == {
        "app_mentions:read",
        "channels:history",
        "groups:history",
        "im:history",
        "chat:write",
        "commands",
        "files:write",
        "usergroups:read",
    }


def test_action_ids_are_unique():
    assert len(set(ids.ACTIONS)) == len(ids.ACTIONS)


def listener_modules() -> list[Path]:
    return sorted(p for p in LISTENERS.glob("*/*.py") if p.name != "__init__.py")


def test_listener_modules_are_grouped_by_kind_and_hold_one_callback_each():
    modules = listener_modules()
    assert {p.parent.name for p in modules} == {"events", "commands", "actions", "views", "options"}
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        callbacks = [
            n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.endswith("_callback")
        ]
        assert callbacks == [f"{path.stem}_callback"], path


def test_no_listener_module_imports_another_listener_module():
    for path in listener_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module] + [
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        ]
        assert not [m for m in imported if m.startswith("pitstop.bot.listeners")], path


def test_listeners_do_not_catch_what_the_error_handler_handles():
    for path in [*listener_modules(), *LISTENERS.glob("*/__init__.py"), LISTENERS / "__init__.py"]:
        assert "except Exception" not in path.read_text(encoding="utf-8"), path

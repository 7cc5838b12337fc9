"""Conformance: every event and command the manifest subscribes to has a listener; ids are unique."""

from __future__ import annotations

from pathlib import Path

import yaml

from pitstop.bot import ids
from pitstop.bot.listeners.commands import COMMANDS
from pitstop.bot.listeners.events import SUBSCRIBED_EVENTS

MANIFEST = Path(__file__).resolve().parents[2] / "slack" / "manifest.yaml"


def manifest() -> dict:
    return yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))


def test_every_subscribed_event_has_a_listener():
    events = {e.split(".")[0] for e in manifest()["settings"]["event_subscriptions"]["bot_events"]}
    assert events == set(SUBSCRIBED_EVENTS)


def test_every_manifest_command_has_a_listener():
    assert {c["command"] for c in manifest()["features"]["slash_commands"]} == set(COMMANDS)


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

"""The lab-only policy `lab up` and `pitstop start` write: the local user, the lab's hosts, nothing more."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pitstop.app.authz import Policy
from pitstop.cli.lab import lab_policy


@dataclass(frozen=True)
class Host:
    name: str
    groups: tuple[str, ...] = ("lab",)


@pytest.mark.parametrize(
    ("user", "origin", "host", "allowed"),
    [
        ("alice", "cli", "gpu-thermal", True),
        ("alice", "console", "raid-writethrough", True),
        ("alice", "slack", "gpu-thermal", False),  # not from Slack
        ("bob", "cli", "gpu-thermal", False),  # not another user
        ("alice", "cli", "prod-gpu-01", False),  # not a host it did not start, even in group "lab"
    ],
)
def test_only_the_local_user_on_the_lab_hosts(user: str, origin: str, host: str, allowed: bool) -> None:
    policy = Policy.from_data(lab_policy("alice", ["gpu-thermal", "raid-writethrough"]), source="test")
    decision = policy.authorize(user=user, hosts=[Host(host)], origin=origin)
    assert decision.allowed is allowed, decision.reason


def test_a_large_lab_is_one_request() -> None:
    names = [f"h100-sxm5-healthy-{i:03d}" for i in range(1, 201)]
    policy = Policy.from_data(lab_policy("alice", names), source="test")
    assert policy.authorize(user="alice", hosts=[Host(n) for n in names], origin="cli").allowed

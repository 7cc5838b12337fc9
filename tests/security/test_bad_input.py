"""Every bad input the hardening issue lists gets one clear sentence and its documented exit status
(`cli_help.main.exit_codes`), never a traceback: each row runs `pitstop` through cli main, or as a
subprocess where stdin or a server is involved."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x00\x80" * 20
USAGE, BAD_FILE, BAD_DB, UNREACHABLE = 2, 5, 6, 7
INVENTORY = "hosts:\n  gpu1: {address: 10.0.0.1}\n"


@dataclass(frozen=True)
class Case:
    """One bad input: the argv (FILE names a file written from `files`), env, stdin, the exit status
    and a fragment of the one-line message."""

    name: str
    argv: tuple[str, ...]
    code: int
    says: str
    files: dict[str, bytes | str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    stdin: bytes | None = None


def inventory_case(name: str, text: str, says: str) -> Case:
    return Case(name, ("inventory", "show", "--inventory", "{inv}"), BAD_FILE, says, {"inv": text})


def policy_case(name: str, text: str | bytes, says: str) -> Case:
    argv = ("policy", "check", "--policy", "{pol}", "--inventory", "{inv}", "gpu1")
    return Case(name, argv, BAD_FILE, says, {"pol": text, "inv": INVENTORY})


CASES = (
    Case("--since overflow (audit)", ("audit", "--since", "99999999d"), USAGE, "--since"),
    Case("--since overflow (stats)", ("stats", "--since", "99999999d"), USAGE, "--since"),
    Case("--since overflow (incidents)", ("incidents", "list", "--since", "99999999d"), USAGE, "--since"),
    Case(
        "--since overflow (diagnose)",
        ("diagnose", "gpu1", "--since", "99999999d", "--inventory", "{inv}"),
        USAGE,
        "--since",
        {"inv": INVENTORY},
    ),
    Case("--top negative", ("ask", "--top", "-1", "Xid 79"), USAGE, "--top"),
    Case(
        "--connect-timeout negative",
        ("diagnose", "gpu1", "--connect-timeout", "-5"),
        USAGE,
        "--connect-timeout",
    ),
    Case("--max-hosts negative", ("diagnose", "gpu1", "--max-hosts", "-1"), USAGE, "--max-hosts"),
    Case("--limit negative (audit)", ("audit", "--limit", "-1"), USAGE, "--limit"),
    Case("--limit negative (incidents)", ("incidents", "list", "--limit", "-3"), USAGE, "--limit"),
    Case("--port out of range", ("serve", "--http", "--port", "70000"), USAGE, "--port"),
    Case(
        "serve --channels garbage",
        ("serve", "--http", "--channels", "==,,=x"),
        USAGE,
        "--channels",
        env={"SLACK_BOT_TOKEN": "xoxb-1-2-x", "SLACK_SIGNING_SECRET": "s"},
    ),
    inventory_case("inventory binary", "", "not UTF-8 text"),
    inventory_case("inventory defaults: [1]", "defaults: [1]\nhosts: {gpu1: {}}\n", "defaults"),
    inventory_case("inventory expect: [1,2]", "hosts:\n  gpu1: {expect: [1, 2]}\n", "expect"),
    inventory_case("inventory groups scalar", "groups: a100\nhosts: {gpu1: {}}\n", "groups"),
    inventory_case(
        "inventory connect_timeout: soon", "connect_timeout: soon\nhosts: {gpu1: {}}\n", "connect_timeout"
    ),
    inventory_case("inventory hosts a list", "hosts: [gpu1, gpu2]\n", "hosts"),
    inventory_case("inventory not a mapping", "- gpu1\n- gpu2\n", "mapping"),
    policy_case("policy binary", BINARY, "not UTF-8 text"),
    policy_case("policy rules: 5", "rules: 5\n", "rules"),
    policy_case("policy rule a string", "rules: [oncall]\n", "rule"),
    policy_case("policy max_hosts negative", "max_hosts: -4\nrules: []\n", "max_hosts"),
    Case(
        "kb check --taxonomy binary",
        ("kb", "check", "--taxonomy", "{tax}"),
        BAD_FILE,
        "not UTF-8",
        {"tax": BINARY},
    ),
    Case(
        "kb check --taxonomy wrong shape",
        ("kb", "check", "--taxonomy", "{tax}"),
        BAD_FILE,
        "taxonomy",
        {"tax": "5"},
    ),
    Case("eval retrieval binary", ("eval", "retrieval", "{cases}"), BAD_FILE, "not UTF-8", {"cases": BINARY}),
    Case(
        "eval retrieval not JSONL", ("eval", "retrieval", "{cases}"), BAD_FILE, "line 1", {"cases": "{nope\n"}
    ),
    Case("inventory import binary", ("inventory", "import", "{ans}"), BAD_FILE, "not UTF-8", {"ans": BINARY}),
    Case(
        "PITSTOP_DB not SQLite",
        ("kb", "list"),
        BAD_DB,
        "not a SQLite database",
        {"db": BINARY},
        {"PITSTOP_DB": "{db}"},
    ),
    Case("PITSTOP_DB a directory", ("kb", "list"), BAD_DB, "is a directory", env={"PITSTOP_DB": "{dir}"}),
    Case(
        "PITSTOP_DB in a missing directory",
        ("kb", "list"),
        BAD_DB,
        "does not exist",
        env={"PITSTOP_DB": "{dir}/nonexistent/dir/x.db"},
    ),
    Case("console binary stdin", ("console",), BAD_FILE, "not UTF-8 text", stdin=BINARY),
    Case("ask binary stdin", ("ask", "-"), USAGE, "binary", stdin=BINARY),
    Case(
        "serve, Slack unreachable",
        ("serve", "--http", "--port", "0"),
        UNREACHABLE,
        "cannot reach Slack",
        env={
            "SLACK_BOT_TOKEN": "xoxb-1-2-x",
            "SLACK_SIGNING_SECRET": "s",
            "SLACK_API_URL": "http://127.0.0.1:9/api/",
        },
    ),
    Case(
        "serve, token refused",
        ("serve", "--http", "--port", "0"),
        UNREACHABLE,
        "invalid_auth",
        env={"SLACK_BOT_TOKEN": "xoxb-1-2-x", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": "{slack}"},
    ),
)
# ruff: noqa: E501 - one case per line reads as a table


@pytest.fixture(scope="module")
def refusing_slack() -> Iterator[str]:
    """A Web API stand-in that refuses every token (auth.test -> invalid_auth)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = json.dumps({"ok": False, "error": "invalid_auth"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/"
    server.shutdown()
    server.server_close()


def _fill(value: str, paths: dict[str, str]) -> str:
    for key, path in paths.items():
        value = value.replace("{" + key + "}", path)
    return value


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_gets_one_clear_message_and_its_exit_status(
    case: Case, tmp_path: Path, refusing_slack: str, monkeypatch: Any, capsys: Any, kb_path: Path
) -> None:
    from tests.bot.conftest import copy_kb

    paths = {"dir": str(tmp_path), "slack": refusing_slack}
    for key, content in case.files.items():
        path = tmp_path / key
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        paths[key] = str(path)
    if case.name == "inventory binary":
        (tmp_path / "inv").write_bytes(BINARY)
    argv = [_fill(a, paths) for a in case.argv]
    env = {
        "PITSTOP_DB": str(tmp_path / "pitstop.db"),
        "HF_HUB_OFFLINE": "1",
        **{k: _fill(v, paths) for k, v in case.env.items()},
    }
    if case.stdin is not None or argv[0] == "serve":
        if "PITSTOP_DB" not in case.env:
            copy_kb(kb_path, tmp_path / "pitstop.db")  # built already: the subprocess only loads it
        done = subprocess.run(
            [sys.executable, "-m", "pitstop.cli", *argv],
            input=case.stdin or b"",
            capture_output=True,
            env={**os.environ, **env},
            timeout=600,
        )
        code, err = done.returncode, done.stderr.decode("utf-8", "replace")
    else:
        from pitstop.cli.main import main

        for key, value in env.items():
            monkeypatch.setenv(key, value)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own refusals
            code = exc.code
        err = capsys.readouterr().err
    assert "Traceback" not in err and 'File "' not in err, err
    assert code == case.code, (code, err)
    messages = [line for line in err.splitlines() if line.startswith("pitstop")]
    assert len(messages) == 1 and case.says in messages[0], err  # one sentence (argparse adds its usage)


def test_a_lone_surrogate_in_a_slack_paste_gets_an_answer(serve_app, shared_dir) -> None:
    from tests.bot.conftest import payload
    from tests.bot.recorder import BOT_USER
    from tests.security.said import said

    bot = serve_app()
    body = payload(shared_dir, "bolt-app-mention.json")
    body["event"]["text"] = (
        f"<@{BOT_USER}> NCCL WARN Cuda failure 'unknown error' \ud800 on gpu-node-3 \udfff"
    )
    assert bot.send(json.dumps(body))[0] == 200  # ensure_ascii: the body carries the \ud800 escape
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    texts = [text for _, text in said(bot.recorder.calls)]
    assert texts and not any("went wrong" in t or "TypeError" in t for t in texts), texts
    assert any("Likely causes" in t or "driver" in t.lower() for t in texts), texts

"""Real outputs of every `--json` command validate against the schemas in docs/JSON.md."""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from pitstop.cli.main import build_parser, main
from pitstop.core.config import local_user
from pitstop.core.db import open_db
from pitstop.incidents.model import NewCause
from pitstop.incidents.store import Incidents
from pitstop.kb.service import KnowledgeBase

PAGE = Path(__file__).resolve().parents[2] / "docs" / "JSON.md"


def page_schemas() -> dict[str, dict]:
    """Every JSON Schema on the page, by its `$id`."""
    blocks = re.findall(r"```json\n(.*?)\n```", PAGE.read_text(encoding="utf-8"), re.S)
    schemas = [json.loads(block) for block in blocks]
    for schema in schemas:
        jsonschema.Draft202012Validator.check_schema(schema)
    return {s["$id"]: s for s in schemas}


def json_commands() -> list[str]:
    """`pitstop <command path>` of every parser with a --json or --jsonl option."""
    found = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        options = {o for a in parser._actions for o in a.option_strings}
        found.extend(f"{path} {flag}" for flag in ("--json", "--jsonl") if flag in options)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, f"{path} {name}")

    walk(build_parser(), "pitstop")
    return found


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, kb_path: Path, embedder) -> dict[str, Path]:
    """A copy of the built KB with one resolved, one open and one draft-making incident; an inventory
    naming localhost, a policy that lets this user run on it, and a small case file."""
    root = tmp_path_factory.mktemp("json")
    db = root / "pitstop.db"
    for path in kb_path.parent.glob(f"{kb_path.name}*"):
        shutil.copy(path, root / path.name.replace(kb_path.name, db.name))
    kb = KnowledgeBase.open(db, embedder=embedder)
    store = Incidents(open_db(db), kb=kb)
    paste = "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus"
    first = store.record_answer(channel="C1", thread_ts="1.0", user="U1", text=paste, answer=kb.ask(paste))
    store.resolve(first, user="U2", cause_id="xid79-gpu-fell-off-bus")
    store.record_answer(
        channel="C1", thread_ts="2.0", user="U1", text="NCCL timeout", answer=kb.ask("NCCL timeout")
    )
    third = store.record_answer(
        channel="C1", thread_ts="3.0", user="U1", text="weird fan noise", answer=kb.ask("fan")
    )
    store.resolve(
        third,
        user="U2",
        new_cause=NewCause("Loose fan shroud", "the shroud rattled", "reseated", ("fan noise",)),
    )
    kb.close()
    (root / "inventory.yaml").write_text("ssh_config: false\nhosts: {'gpu[1-2]': {groups: [a100]}}\n")
    (root / "policy.yaml").write_text(
        yaml.safe_dump(
            {
                "rules": [
                    {
                        "name": "me",
                        "users": [local_user()],
                        "origins": ["cli"],
                        "hosts": ["*", "localhost"],
                    }
                ]
            }
        )
    )
    cases = [
        {"id": "c1", "lang": "en", "query": paste, "slugs": ["xid79-gpu-fell-off-bus"]},
        {"id": "c2", "lang": "zh", "query": "训练跑着跑着一张卡掉了", "slugs": ["xid79-gpu-fell-off-bus"]},
    ]
    (root / "cases.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
    return {"root": root, "db": db}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr().out
    assert code in (0, 10, 11, 12), (argv, code)
    return out


def test_every_json_output_matches_its_documented_schema(world, capsys) -> None:
    schemas = page_schemas()
    root, db = world["root"], str(world["db"])
    inv, policy = str(root / "inventory.yaml"), str(root / "policy.yaml")
    runs = {
        "pitstop ask --json": ["ask", "--json", "--db", db, "NVRM: Xid 79, GPU has fallen off the bus"],
        "pitstop diagnose --json": [
            "diagnose",
            "localhost",
            "--error",
            "NCCL watchdog timeout",
            "--json",
            "--db",
            db,
            "--inventory",
            inv,
            "--policy",
            policy,
        ],
        "pitstop eval retrieval --json": [
            "eval",
            "retrieval",
            str(root / "cases.jsonl"),
            "--json",
            "--db",
            db,
        ],
        "pitstop eval learning --json": [
            "eval",
            "learning",
            "--split",
            str(root / "cases.jsonl"),
            "--json",
        ],
        "pitstop incidents list --json": ["incidents", "list", "--json", "--db", db],
        "pitstop incidents show --json": ["incidents", "show", "1", "--json", "--db", db],
        "pitstop incidents close --json": ["incidents", "close", "2", "--json", "--db", db],
        "pitstop incidents resolve --json": [
            "incidents",
            "resolve",
            "4",
            "--cause",
            "mtu-mismatch",
            "--json",
            "--db",
            db,
        ],
        "pitstop stats --json": ["stats", "--json", "--db", db],
        "pitstop audit --json": ["audit", "--json", "--db", db],
        "pitstop audit --jsonl": ["audit", "--jsonl", "--db", db],
        "pitstop kb list --json": ["kb", "list", "--json", "--db", db],
        "pitstop kb show --json": ["kb", "show", "xid79-gpu-fell-off-bus", "--json", "--db", db],
        "pitstop kb export --json": ["kb", "export", "--json", "--db", db],
        "pitstop kb drafts --json": ["kb", "drafts", "--json", "--db", db],
        "pitstop inventory show --json": ["inventory", "show", "--inventory", inv, "--json"],
        "pitstop policy check --json": [
            "policy",
            "check",
            "gpu1",
            "--json",
            "--inventory",
            inv,
            "--policy",
            policy,
            "--db",
            db,
        ],
    }
    documented = set(re.findall(r"`(pitstop [a-z -]+?--jsonl?)`", PAGE.read_text(encoding="utf-8")))
    # incident 4: a fresh open incident to resolve through the CLI
    Incidents(open_db(world["db"])).record_answer(
        channel="C1", thread_ts="4.0", user="U1", text="mtu", answer=None
    )
    checked = set()
    for command, argv in runs.items():
        out = run(capsys, *argv)
        docs = (
            [json.loads(line) for line in out.splitlines() if line]
            if command.endswith("--jsonl")
            else [json.loads(out)]
        )
        assert docs, command
        one_line = command.endswith("--jsonl")
        assert (
            all(line.startswith('{"schema": ') for line in out.splitlines())
            if one_line
            else (out.startswith('{\n  "schema": '))
        ), f"{command}: not one indented document with its schema first"
        for doc in docs:
            assert doc["schema"] in schemas, f"{command}: {doc['schema']} is not documented in docs/JSON.md"
            jsonschema.validate(doc, schemas[doc["schema"]])
            checked.add(doc["schema"])
    assert main(["kb", "export", "--learned", "--db", db]) == 0
    bundle = json.loads(capsys.readouterr().out)
    jsonschema.validate(bundle, schemas[bundle["schema"]])
    checked.add(bundle["schema"])
    assert checked == set(schemas), f"documented but never produced: {set(schemas) - checked}"
    undocumented = [c for c in json_commands() if c not in documented]
    assert not undocumented, f"--json options without a section in docs/JSON.md: {undocumented}"


def test_the_checker_rejects_a_wrong_document() -> None:
    schemas = page_schemas()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"schema": "pitstop.stats/1", "until": "2026-12-01 11:00"}, schemas["pitstop.stats/1"]
        )


RFC3339 = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$"


def test_every_documented_time_is_rfc_3339_utc() -> None:
    """A field holding a time (`*_at`, `since`, `until`) must match the one timestamp format, or null."""

    def times(node: object, path: str) -> list[tuple[str, object]]:
        found: list[tuple[str, object]] = []
        if isinstance(node, dict):
            for name, field in (node.get("properties") or {}).items():
                if name.endswith("_at") or name in ("since", "until"):
                    found.append((f"{path}.{name}", field))
            for key, value in node.items():
                found += times(value, f"{path}/{key}")
        elif isinstance(node, list):
            found += [item for value in node for item in times(value, path)]
        return found

    fields = [item for sid, schema in page_schemas().items() for item in times(schema, sid)]
    assert len(fields) >= 10
    wrong = []
    for path, field in fields:
        assert isinstance(field, dict)
        choices = field.get("anyOf", [field])
        strings = [c for c in choices if c.get("type") == "string"]
        if not strings or any(c.get("pattern") != RFC3339 for c in strings):
            wrong.append(path)
    assert not wrong, wrong

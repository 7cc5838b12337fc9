"""Every CLI command that prints prose, run in process in English and in Chinese: the Chinese output has
no English prose outside quoted evidence, commands, ids and error text, and the English none of Chinese.

Not here: `kb show` (it prints the entry's stored fields, both languages, as they are), `kb build` and
`eval learning` (each embeds the whole KB again: minutes), `lab up`, `serve` and `start` (sshd, Slack),
and `lab down`, whose only prose without a lab is an error (tests/security covers errors).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml

from pitstop.cli.main import main
from pitstop.collectors.model import Evidence, Verdict
from pitstop.core.config import local_user
from pitstop.core.db import open_db
from pitstop.core.i18n import msg
from pitstop.incidents.model import NewCause
from pitstop.incidents.store import Incidents
from pitstop.kb.service import KnowledgeBase
from tests.bot.conftest import copy_kb
from tests.bot.test_bilingual import ENDONYM, english_prose

pytestmark = [
    pytest.mark.timeout(900),  # the shared KB is built once per session (minutes when loaded)
    pytest.mark.xdist_group("bilingual_cli"),  # one worker runs both languages, then the checker's test
]

PASTES = {
    "en": "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus",
    "zh": "训练跑着跑着一张卡掉了，dmesg 里 GPU has fallen off the bus",
}
NEW_CAUSES = {  # what a person types when the cause is new, in their language (kept as written)
    "en": ("Loose fan shroud", "the shroud rattled", "reseated", ("fan noise",)),
    "zh": ("机柜 UPS 输入电压跌落", "UPS 输入电压间歇性下跌 8%", "把机柜换到另一台 UPS 上", ("掉卡",)),
}
WRITTEN_IN_CHINESE = (PASTES["zh"], *NEW_CAUSES["zh"][:3], *NEW_CAUSES["zh"][3], ENDONYM)
NOTES = "reseated the riser"  # a resolver's notes, shown as written
DEAD_HOST = "gpu-dead-1"  # nothing listens there: diagnose reports it "not checked"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, kb_path: Path, embedder) -> dict[str, object]:
    """A KB copy with incidents in every state (resolved with a known and a new cause, open, with
    verdicts), drafts to edit, approve and reject in each language, a learned bundle, an inventory
    naming one dead host with a policy that lets this user check it, and a small eval case file."""
    root = tmp_path_factory.mktemp("bilingual-cli")
    db = copy_kb(kb_path, root / "pitstop.db")
    kb = KnowledgeBase.open(db, embedder=embedder)
    store = Incidents(open_db(db), kb=kb)

    def opened(n: int, lang: str) -> int:
        paste = PASTES[lang]
        return store.record_answer(
            channel="C1", thread_ts=f"{n}.0", user="U1", text=paste, answer=kb.ask(paste)
        )

    ids: dict[str, int] = {}
    for lang in ("en", "zh"):
        ids[f"known-{lang}"] = known = opened(len(ids), lang)
        store.resolve(known, user="U2", cause_id="xid79-gpu-fell-off-bus", notes=NOTES)
        ids[f"open-{lang}"] = opened(len(ids), lang)
        ids[f"resolve-{lang}"] = opened(len(ids), lang)
        ids[f"close-{lang}"] = opened(len(ids), lang)
        title, what, fix, symptoms = NEW_CAUSES[lang]
        for use in ("approve", "reject"):
            iid = opened(len(ids), lang)
            ids[f"draft-{use}-{lang}"] = iid
            store.resolve(iid, user="U2", new_cause=NewCause(f"{title} {use}", what, fix, symptoms))
    reason = msg("reasons.read.hint.storcli")
    verdict = Verdict(
        "xid79-gpu-fell-off-bus", "inconclusive", reason, (Evidence("dmesg", ("Xid 79",), "dmesg"),)
    )
    for lang in ("en", "zh"):
        ids[f"verdicts-{lang}"] = store.record_diagnosis(
            channel="C1",
            thread_ts=f"diagnosed-{lang}",
            user="U1",
            hosts=[DEAD_HOST],
            verdicts=[(DEAD_HOST, verdict)],
            text=PASTES[lang],
            lang=lang,
        )
    drafts = {key: store.get(iid).resolution.cause_id for key, iid in ids.items() if key.startswith("draft-")}
    kb.close()
    (root / "inventory.yaml").write_text(
        f"ssh_config: false\nhosts:\n  {DEAD_HOST}: {{address: 127.0.0.77, port: 9, groups: [a100]}}\n"
    )
    rule = {"name": "me", "users": [local_user()], "origins": ["cli", "console"], "hosts": ["*"]}
    (root / "policy.yaml").write_text(yaml.safe_dump({"rules": [rule]}))
    cases = [
        {"id": "c1", "lang": "en", "query": PASTES["en"], "slugs": ["xid79-gpu-fell-off-bus"]},
        {"id": "c2", "lang": "zh", "query": "一张卡掉了", "slugs": ["pcie-aer-errors"]},
    ]
    (root / "cases.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
    return {"root": root, "db": db, "ids": ids, "drafts": drafts}


def commands(world: dict[str, object], lang: str) -> dict[str, tuple[list[str], str]]:
    """Each prose-printing command for a reader of `lang`: its argv and the stdin it reads."""
    root, ids, drafts = world["root"], world["ids"], world["drafts"]
    assert isinstance(root, Path) and isinstance(ids, dict) and isinstance(drafts, dict)
    db = ["--db", str(world["db"])]
    hosts = ["--inventory", str(root / "inventory.yaml"), "--policy", str(root / "policy.yaml")]
    bundle = root / "bundle.json"
    return {
        "ask": (["ask", *db, PASTES[lang]], ""),
        "incidents list": (["incidents", "list", *db], ""),
        "incidents show (known cause)": (["incidents", "show", str(ids[f"known-{lang}"]), *db], ""),
        "incidents show (new cause)": (["incidents", "show", str(ids[f"draft-approve-{lang}"]), *db], ""),
        "incidents show (verdicts)": (["incidents", "show", str(ids[f"verdicts-{lang}"]), *db], ""),
        "incidents resolve": (
            ["incidents", "resolve", str(ids[f"resolve-{lang}"]), "--cause", "pcie-aer-errors", *db],
            "",
        ),
        "incidents close": (["incidents", "close", str(ids[f"close-{lang}"]), *db], ""),
        "incidents expire": (["incidents", "expire", "--quiet-days", "30", *db], ""),
        "stats": (["stats", *db], ""),
        "kb list": (["kb", "list", *db], ""),
        "kb check": (["kb", "check"], ""),
        "kb drafts": (["kb", "drafts", "--all", *db], ""),
        "kb edit": (["kb", "edit", drafts[f"draft-approve-{lang}"], "--severity", "high", *db], ""),
        "kb approve": (
            ["kb", "approve", drafts[f"draft-approve-{lang}"], "--dir", str(root / lang), *db],
            "",
        ),
        "kb reject": (["kb", "reject", drafts[f"draft-reject-{lang}"], *db], ""),
        "kb import": (["kb", "import", str(bundle), *db], ""),
        "eval retrieval": (["eval", "retrieval", str(root / "cases.jsonl"), *db], ""),
        "inventory show": (["inventory", "show", DEAD_HOST, "--inventory", str(root / "inventory.yaml")], ""),
        "policy check": (["policy", "check", DEAD_HOST, *hosts, *db], ""),
        "diagnose": (
            ["diagnose", DEAD_HOST, "--error", PASTES[lang], "--connect-timeout", "2", *hosts, *db],
            "",
        ),
        "lab list": (["lab", "list"], ""),
        "console": (["console", *hosts], f"{PASTES[lang]}\n\n:run {DEAD_HOST}\n:this 1\n:resolve\n:quit\n"),
    }


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str
) -> str:
    """Run one command in this process; its stdout and stderr (a failure must still be translated)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    code = main(argv)
    out = capsys.readouterr()
    assert code in (0, 1, 10, 11, 12), (argv, code, out.err)
    return out.out + out.err


@pytest.fixture(scope="module")
def outputs(world) -> dict[str, dict[str, str]]:
    """Every command's output in each language (run once: some commands change the world)."""
    return {}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_cli_command_speaks_the_readers_language(
    world, outputs, lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PITSTOP_DB", str(world["db"]))
    monkeypatch.setenv("COLUMNS", "200")
    bundle = world["root"] / "bundle.json"
    if not bundle.exists():
        assert main(["kb", "export", "--learned", "--origin", "site-b", "--db", str(world["db"])]) == 0
        bundle.write_text(capsys.readouterr().out, encoding="utf-8")
    rendered = {
        name: run(capsys, monkeypatch, ["--lang", lang, *argv], stdin)
        for name, (argv, stdin) in commands(world, lang).items()
    }
    outputs[lang] = rendered
    kb = KnowledgeBase.open(world["db"])
    # what people wrote stays as written: the entries' quoted symptoms, the pastes, an English new cause
    title, what, fix, symptoms = NEW_CAUSES["en"]
    quoted = tuple(s for p in kb.all() for s in (*p.symptoms, *p.signatures))
    quoted += (*PASTES.values(), title, what, fix, *symptoms, NOTES)
    kb.close()
    problems = {}
    for name, body in rendered.items():
        assert body.strip(), name
        if lang == "zh":
            found = english_prose(body, PASTES["zh"], quoted)
        else:
            for text in sorted(WRITTEN_IN_CHINESE, key=len, reverse=True):
                body = body.replace(text, " ")
            found = re.findall(r"[\u4e00-\u9fff]+", body)
        if found:
            problems[name] = found
    assert not problems, problems


def test_the_checker_would_catch_english_left_in_a_chinese_output(outputs) -> None:
    """The test above can fail: most commands' English output is prose the checker finds, so one left
    untranslated in Chinese would be caught; and every Chinese output differs from the English one."""
    if set(outputs) != {"en", "zh"}:
        pytest.skip("needs both languages' runs")
    flagged = [name for name, body in outputs["en"].items() if english_prose(body, PASTES["en"])]
    assert len(flagged) >= len(outputs["en"]) // 2, flagged
    same = [
        name for name in outputs["en"] if name != "lab down" and outputs["en"][name] == outputs["zh"][name]
    ]
    assert not same, same

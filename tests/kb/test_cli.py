"""`pitstop ask`, `pitstop kb ...` and `pitstop eval retrieval` run in-process on the session database."""

from __future__ import annotations

import io
import json
import sys

import pytest

from pitstop.cli.helptext import columns
from pitstop.cli.main import main
from pitstop.kb.schema import load_pitfalls

XID79_LINE = b"NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus\n"
NVML = "Failed to initialize NVML: Driver/library version mismatch"
BAD_STDIN = [(b"   \n", "Nothing to search"), (b"\x00\x01\x02ELF", "binary")]


@pytest.fixture
def run(kb_path, capsys):
    def invoke(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
        try:
            code = main([*argv, "--db", str(kb_path)] if argv[0] in ("ask", "eval") else list(argv))
        finally:
            sys.stdin = sys.__stdin__
        out = capsys.readouterr()
        return code, out.out, out.err

    return invoke


def test_ask_json(run):
    code, out, _ = run("ask", "--json", "--top", "2", NVML)
    data = json.loads(out)
    assert code == 0 and len(data["results"]) == 2
    assert data["results"][0]["id"] == "nvml-driver-library-mismatch"
    assert data["query"].startswith("Failed to initialize NVML")


def test_ask_human_output_in_chinese(run):
    code, out, _ = run("ask", "--top", "1", "八卡训练", "loss", "抖得跟心电图似的", "i40e")
    assert code == 0
    # a description with no error string matches no signature: ranked, but offered as a "maybe"
    assert "没有可信的匹配" in out and "\n1. " in out and "nic-driver-outdated-bug" in out
    assert "依据：" in out and "第一步：" in out
    assert "why:" not in out and "first step" not in out and "confidence" not in out


def test_ask_prints_the_one_answer_text_of_the_ask_use_case(run, kb_path, monkeypatch):
    from pitstop.app.ask import ask
    from pitstop.app.render import answer_text
    from pitstop.kb.service import KnowledgeBase

    monkeypatch.setenv("COLUMNS", "72")
    code, out, _ = run("ask", "--top", "2", "--verbose", NVML)
    kb = KnowledgeBase.open(kb_path)  # as the CLI opens it (its default embedder)
    try:
        _, card = ask(kb, NVML, top=2)
    finally:
        kb.close()
    assert code == 0 and out.rstrip("\n") == answer_text(card, verbose=True, width=72)
    assert "Likely causes:" in out and "details: " in out and max(map(len, out.splitlines())) <= 72


def test_ask_reads_stdin(run):
    code, out, _ = run("ask", "--json", "-", stdin=XID79_LINE)
    assert code == 0 and json.loads(out)["results"][0]["id"] == "xid79-gpu-fell-off-bus"


@pytest.mark.parametrize(("stdin", "message"), BAD_STDIN)
def test_ask_bad_input_is_a_sentence_not_a_traceback(run, stdin, message):
    code, out, err = run("ask", "-", stdin=stdin)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_kb_check_passes_on_the_bundled_entries(shared_dir, capsys):
    code = main(["kb", "check", "--taxonomy", str(shared_dir / "taxonomy.yaml")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.rstrip().endswith("OK")


def test_kb_check_reports_a_missing_taxonomy_and_goes_on(tmp_path, capsys):
    code = main(["kb", "check", "--taxonomy", str(tmp_path / "none.yaml")])
    assert code == 2 and "not found" in capsys.readouterr().err


def test_kb_list_show_export(kb_path, capsys):
    assert main(["kb", "list", "--json", "--db", str(kb_path)]) == 0
    listed = json.loads(capsys.readouterr().out)["entries"]
    assert {"id", "title", "layer", "severity", "status"} <= set(listed[0])
    assert main(["kb", "show", listed[0]["id"], "--db", str(kb_path)]) == 0
    assert f"id: {listed[0]['id']}" in capsys.readouterr().out
    assert main(["kb", "export", "--json", "--db", str(kb_path)]) == 0
    exported = json.loads(capsys.readouterr().out)["entries"]
    assert len(exported) == len(listed)
    assert {"summary_zh", "symptoms", "cause", "fix", "signatures", "references"} <= set(exported[0])
    assert main(["kb", "show", "no-such-entry", "--db", str(kb_path)]) == 3


def test_eval_retrieval_all_modes(run, tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps(
            {
                "id": "t1",
                "lang": "en",
                "query": "Xid 79 GPU has fallen off the bus",
                "slugs": ["xid79-gpu-fell-off-bus"],
            }
        )
        + "\n"
        + json.dumps(
            {
                "id": "t2",
                "lang": "zh",
                "query": "checkpoint 保存时报 No space left on device",
                "slugs": ["disk-full-or-inodes-exhausted"],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    code, out, _ = run("eval", "retrieval", str(cases), "--json", "--mode", "all")
    data = json.loads(out)
    assert code == 0 and set(data["modes"]) == {"hybrid", "dense", "lexical", "signature"}
    assert data["overall"]["recall_at_1"] == 1.0 and set(data["by_lang"]) == {"en", "zh"}
    assert [c["id"] for c in data["cases"]] == ["t1", "t2"] and len(data["cases"][0]["ranked"]) <= 10
    code, out, _ = run("eval", "retrieval", str(cases), "--mode", "all")
    assert code == 0 and out.splitlines()[0].split()[:5] == ["group", "n", "R@1", "R@3", "MRR"]
    code, out, _ = run("eval", "retrieval", str(cases), "--json", "--baseline", "bm25")
    data = json.loads(out)
    assert code == 0 and set(data["modes"]) == {"hybrid", "bm25"}
    assert data["modes"]["bm25"]["overall"]["n"] == 2 and data["modes"]["bm25"]["high"]["answered"] == 0
    assert set(data["by_origin"]) == {"en", "zh"}


def test_eval_retrieval_scores_off_topic_cases(run, tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        "\n".join(
            json.dumps(c, ensure_ascii=False)
            for c in (
                {
                    "id": "t1",
                    "lang": "en",
                    "query": "Xid 79 fell off the bus",
                    "slugs": ["xid79-gpu-fell-off-bus"],
                },
                {"id": "f1", "lang": "en", "query": "How long should I boil an egg?", "slugs": []},
                {
                    "id": "f2",
                    "lang": "zh",
                    "query": "我周末想去海边烧烤，推荐一下哪里的海鲜便宜",
                    "slugs": [],
                },
            )
        )
        + "\n",
        encoding="utf-8",
    )
    code, out, _ = run("eval", "retrieval", str(cases), "--json")
    data = json.loads(out)
    assert code == 0 and data["off_topic"] == {"n": 2, "accuracy": 1.0}
    assert data["overall"]["n"] == 1 and data["overall"]["recall_at_1"] == 1.0 and data["misses"] == []
    code, out, _ = run("eval", "retrieval", str(cases))
    assert code == 0 and "not in KB, answered 'no confident match': hybrid 2/2 (1.000)" in out


def test_eval_retrieval_bad_file(run, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    code, _, err = run("eval", "retrieval", str(bad))
    assert code == 5 and "bad.jsonl:1" in err  # BadFile


def test_kb_build_reports_entries_and_index(kb_path, capsys):
    assert main(["kb", "build", "--db", str(kb_path)]) == 0
    out = capsys.readouterr().out
    assert "loaded 1" in out and "0 changed" in out and "vector index:" in out and "flat" in out


def test_kb_list_says_the_severity_in_the_readers_language(tmp_path, capsys):
    """A Chinese reader reads 严重/高/中/低/提示 (it was `high`, `medium` in every row), in one column."""
    assert main(["kb", "list", "--db", str(tmp_path / "pitstop.db"), "--lang", "zh"]) == 0
    rows = capsys.readouterr().out.splitlines()[:-1]
    by_id = {p.id: p for p in load_pitfalls()}
    words = {"critical": "严重", "high": "高", "medium": "中", "low": "低", "info": "提示"}
    for row in rows:
        cause, layer, severity = row.split()[:3]
        assert severity == words[by_id[cause].severity] and layer == by_id[cause].layer, row
    titles = [by_id[row.split()[0]].title_zh or by_id[row.split()[0]].title for row in rows]
    assert len({columns(row[: row.index(title)]) for row, title in zip(rows, titles, strict=True)}) == 1

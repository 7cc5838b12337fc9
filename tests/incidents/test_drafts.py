"""Drafts: approve into an entry file that `load_pitfalls` accepts, edit, reject, merge proposals."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
import yaml

from pitstop.core.errors import NotFound, UsageError
from pitstop.incidents import drafts
from pitstop.incidents.model import NewCause
from pitstop.kb.schema import load_pitfalls
from pitstop.kb.service import KnowledgeBase
from tests.incidents.learning_support import ABOVE_4G, AV, incidents_for


def resolve_new(
    kb: KnowledgeBase,
    cause: NewCause,
    thread: str,
    text: str = "epochs take twice as long since Monday on gpu-a1, password=hunter2",
) -> str:
    store = incidents_for(kb)
    iid = store.record_answer(channel="C1", thread_ts=thread, user="U1", text=text, answer=kb.ask(text))
    return store.resolve(iid, user="U2", new_cause=cause).resolution.cause_id


def test_approve_writes_an_entry_file_that_the_loader_accepts(fresh_kb, tmp_path):
    draft_id = resolve_new(fresh_kb, AV, "1.0")
    assert [d.id for d in drafts.list_drafts(fresh_kb.db)] == [draft_id]
    out = tmp_path / "pitfalls"
    sentence = drafts.approve(fresh_kb, fresh_kb.db, draft_id, user="maint", directory=out)
    assert str(out / f"{draft_id}.yaml") in str(sentence)

    (entry,) = load_pitfalls(out)
    assert (entry.id, entry.title, entry.status) == (draft_id, AV.title, "curated")
    assert entry.symptoms == AV.symptoms and entry.fix == (AV.fix,)
    assert all(re.search(sig, sym, re.I) for sig, sym in zip(entry.signatures, AV.symptoms, strict=True))
    assert "approved by maint" in entry.provenance and "incident #" in entry.provenance
    assert "hunter2" not in (out / f"{draft_id}.yaml").read_text(encoding="utf-8")
    assert "status" not in yaml.safe_load((out / f"{draft_id}.yaml").read_text(encoding="utf-8"))
    assert fresh_kb.get(draft_id).status == "curated"
    assert not fresh_kb.ask(AV.symptoms[0]).results[0].draft
    record = drafts.get_draft(fresh_kb.db, draft_id)
    assert (record.status, record.decided_by) == ("approved", "maint")
    assert record.file_path == str(out / f"{draft_id}.yaml")
    with pytest.raises(UsageError, match="already approved"):
        drafts.approve(fresh_kb, fresh_kb.db, draft_id, user="maint", directory=out)


def test_edit_changes_the_draft_and_refuses_invalid_values(fresh_kb, tmp_path):
    draft_id = resolve_new(fresh_kb, AV, "2.0")
    drafts.edit(
        fresh_kb,
        fresh_kb.db,
        draft_id,
        {"layer": "storage", "severity": "high", "title_zh": "杀毒软件实时扫描数据集"},
    )
    with pytest.raises(UsageError, match="layer 'bogus'"):
        drafts.edit(fresh_kb, fresh_kb.db, draft_id, {"layer": "bogus"})
    with pytest.raises(UsageError, match="cannot be edited: id"):
        drafts.edit(fresh_kb, fresh_kb.db, draft_id, {"id": "other"})
    assert fresh_kb.get(draft_id).layer == "storage"
    drafts.approve(fresh_kb, fresh_kb.db, draft_id, user="maint", directory=tmp_path / "out")
    (entry,) = load_pitfalls(tmp_path / "out")
    assert (entry.layer, entry.severity, entry.title_zh) == (
        "storage",
        "high",
        "杀毒软件实时扫描数据集",
    )


def test_reject_takes_a_draft_out_of_search(fresh_kb):
    draft_id = resolve_new(fresh_kb, AV, "3.0")
    assert fresh_kb.ask(AV.symptoms[0]).results[0].id == draft_id
    assert str(drafts.reject(fresh_kb, fresh_kb.db, draft_id, user="maint")) == f"rejected '{draft_id}'"
    assert draft_id not in [m.id for m in fresh_kb.ask(AV.symptoms[0], top=10).results]
    assert drafts.list_drafts(fresh_kb.db) == []
    assert drafts.list_drafts(fresh_kb.db, status="rejected")[0].id == draft_id


def test_approving_a_merge_adds_the_examples_to_the_existing_entry(fresh_kb, tmp_path):
    proposal = resolve_new(fresh_kb, ABOVE_4G, "4.0")
    assert proposal == "bios-above-4g-decoding-disabled"
    (draft,) = drafts.list_drafts(fresh_kb.db)
    assert (draft.kind, draft.target_id) == ("merge", "bios-above-4g-decoding-disabled")
    before = fresh_kb.db.execute("SELECT count(*) FROM examples WHERE pitfall_id = ?", [proposal]).fetchone()[
        0
    ]
    sentence = drafts.approve(fresh_kb, fresh_kb.db, draft.id, user="maint", directory=tmp_path)
    assert str(sentence) == "merged into 'bios-above-4g-decoding-disabled': 2 new example(s)"
    assert sentence.render("zh") == "已合并到 'bios-above-4g-decoding-disabled'：新增 2 个示例"
    after = fresh_kb.db.execute("SELECT count(*) FROM examples WHERE pitfall_id = ?", [proposal]).fetchone()[
        0
    ]
    assert after == before + 2 and list(tmp_path.glob("*.yaml")) == []
    resolve_new(
        fresh_kb, ABOVE_4G, "4.1", text="the new racks are slow to boot"
    )  # the merged entry not offered
    (pending,) = drafts.list_drafts(fresh_kb.db)
    with pytest.raises(UsageError, match="merge proposal"):
        drafts.edit(fresh_kb, fresh_kb.db, pending.id, {"title": "x"})


HOSTILE = replace(
    AV, title="On-access antivirus \u202escans\u202c the dataset", fix="Excluded \x1b]8;;x\x1b\\/data"
)


def test_a_new_cause_and_an_edit_keep_no_bidi_or_control_characters(fresh_kb):
    """What a draft holds is what its edit form shows raw (Slack renders an input box as typed)."""
    draft_id = resolve_new(fresh_kb, HOSTILE, "1.1")
    body = drafts.get_draft(fresh_kb.db, draft_id).body
    assert (body["title"], body["fix"]) == (
        "On-access antivirus scans the dataset",
        ["Excluded ]8;;x\\/data"],
    )
    edited = drafts.edit(fresh_kb, fresh_kb.db, draft_id, {"summary": "scans \u2066every\u2069 file\r"})
    assert edited.summary == "scans every file"


def test_an_approved_file_shows_bidi_and_control_characters_as_escapes(fresh_kb, tmp_path):
    """A draft stored before new causes were cleaned may still hold them: the file shows them."""
    draft_id = resolve_new(fresh_kb, AV, "1.2")
    body = {**drafts.get_draft(fresh_kb.db, draft_id).body, "title": HOSTILE.title, "fix": [HOSTILE.fix]}
    fresh_kb.db.execute("UPDATE drafts SET body_json = ? WHERE id = ?", [json.dumps(body), draft_id])
    drafts.approve(fresh_kb, fresh_kb.db, draft_id, user="maint", directory=tmp_path)
    text = (tmp_path / f"{draft_id}.yaml").read_text(encoding="utf-8")
    assert not set(text) & {"\u202e", "\u202c", "\x1b"}, text  # a reviewer's terminal or PR shows them
    assert "\\u202escans\\u202c" in text and "\\u001b]8;;x" in text


def test_approve_never_overwrites_another_file_and_unknown_drafts_are_named(fresh_kb, tmp_path):
    draft_id = resolve_new(fresh_kb, AV, "5.0")
    (tmp_path / f"{draft_id}.yaml").write_text("someone else's entry\n", encoding="utf-8")
    with pytest.raises(UsageError, match="already exists"):
        drafts.approve(fresh_kb, fresh_kb.db, draft_id, user="maint", directory=tmp_path)
    assert drafts.get_draft(fresh_kb.db, draft_id).status == "draft"
    with pytest.raises(NotFound, match="no draft 'nope'"):
        drafts.approve(fresh_kb, fresh_kb.db, "nope", user="maint", directory=tmp_path)

"""Exchange: learned examples and approved drafts travel between sites with provenance, once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.core.errors import UsageError
from pitstop.incidents import drafts
from pitstop.incidents.exchange import export_learned, import_learned, read_bundle
from pitstop.kb.embed import Embedder
from tests.incidents.learning_support import AV, CAUSE, PARAPHRASE, PASTE, copy_kb, incidents_for


@pytest.fixture
def sites(kb_path: Path, embedder: Embedder, tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = copy_kb(kb_path, tmp_path / "a", embedder), copy_kb(kb_path, tmp_path / "b", embedder)
    yield a, b
    a.close()
    b.close()


def learn_at(kb, tmp_path: Path) -> None:
    store = incidents_for(kb)
    iid = store.record_answer(channel="C1", thread_ts="1.0", user="U1", text=PASTE, answer=kb.ask(PASTE))
    store.resolve(iid, user="U2", cause_id=CAUSE)
    iid = store.record_answer(
        channel="C1",
        thread_ts="2.0",
        user="U1",
        text="epochs twice as slow since Monday",
        answer=kb.ask("epochs twice as slow since Monday"),
    )
    draft_id = store.resolve(iid, user="U2", new_cause=AV).resolution.cause_id
    drafts.approve(kb, kb.db, draft_id, user="maint", directory=tmp_path / "entries")


def test_export_then_import_carries_examples_and_entries_with_provenance(sites, tmp_path):
    a, b = sites
    assert b.ask(PARAPHRASE).results[0].id != CAUSE, "precondition: site b does not know this yet"
    learn_at(a, tmp_path)
    bundle = export_learned(a.db, origin="site-a")
    assert [e["id"] for e in bundle["entries"]] == ["on-access-antivirus-scans-the-dataset"]
    assert {x["pitfall_id"] for x in bundle["examples"]} == {
        CAUSE,
        "on-access-antivirus-scans-the-dataset",
    }
    assert all("incident #" in x["provenance"] for x in bundle["examples"])
    shared = json.dumps(bundle)  # this site's channel, thread and people stay here
    assert not any(local in shared for local in ('"C1', "C1 ", "1.0)", "U2", "maint")), shared

    report = import_learned(b, b.db, json.loads(json.dumps(bundle)))
    assert (report.entries_added, report.examples_added, report.examples_orphaned) == (
        1,
        len(bundle["examples"]),
        0,
    )
    entry = b.get("on-access-antivirus-scans-the-dataset")
    assert entry.status == "draft" and entry.provenance.startswith(
        "imported from site-a: learned from incident #"
    )
    assert drafts.get_draft(b.db, entry.id).created_by == "import:site-a"
    row = b.db.execute(
        "SELECT source, provenance FROM examples WHERE pitfall_id = ? AND source = 'import'"
        " AND kind != 'mined'",
        [CAUSE],
    ).fetchone()
    assert row[0] == "import" and row[1].startswith("imported from site-a: incident #")
    assert b.ask(PARAPHRASE).results[0].id == CAUSE

    again = import_learned(b, b.db, bundle)
    assert (again.entries_added, again.entries_known, again.examples_added) == (0, 1, 0)


def test_import_refuses_foreign_or_invalid_bundles_and_skips_unknown_entries(sites, tmp_path):
    _, b = sites
    for text, message in (
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a Pitstop learned bundle"),
        ('{"format": "pitstop-learned", "version": 9}', "version 9"),
    ):
        path = tmp_path / "bundle.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(UsageError, match=message):
            read_bundle(path)
    bad = {
        "format": "pitstop-learned",
        "version": 1,
        "origin": "x",
        "entries": [{"id": "Bad Id"}],
        "examples": [],
    }
    with pytest.raises(UsageError, match="invalid entries"):
        import_learned(b, b.db, bad)
    orphans = {
        "format": "pitstop-learned",
        "version": 1,
        "origin": "x",
        "entries": [],
        "examples": [{"pitfall_id": "not-here", "text": "some error"}],
    }
    assert import_learned(b, b.db, orphans).examples_orphaned == 1


def test_cli_export_learned_and_import(sites, tmp_path, capsys):
    a, b = sites
    learn_at(a, tmp_path)
    assert main(["kb", "export", "--learned", "--origin", "site-a", "--db", str(a.db_path)]) == 0
    bundle_path = tmp_path / "bundle.json"
    bundle_path.write_text(capsys.readouterr().out, encoding="utf-8")
    assert json.loads(bundle_path.read_text(encoding="utf-8"))["origin"] == "site-a"
    assert main(["kb", "import", str(bundle_path), "--db", str(b.db_path)]) == 0
    assert "imported 1 entry as drafts" in capsys.readouterr().out

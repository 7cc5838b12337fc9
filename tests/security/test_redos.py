"""No signature regex can freeze Pitstop: RE2 or a guarded fallback, dangerous patterns refused at every
door (kb check, kb import, draft approval), a time budget per paste, and the bot's /health answering
while pathological pastes are answered in HTTP mode."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitstop.core.errors import UsageError
from pitstop.kb.schema import validate_entry
from pitstop.kb.signatures import PATTERN_TIMEOUT_S, compile_signature, problem
from tests.bot.conftest import copy_kb, payload
from tests.bot.recorder import BOT_USER
from tests.security.redos import PASTES, hostile_entry
from tests.security.scale import examples

BOUND_S = 1.0  # the bound on any answer; a hang, not a speed target (figures: bench_redos.py)
# Answers are timed in CPU seconds of this process (a shared, busy CI machine does not inflate those);
# /health, which must answer while they run, is timed on the wall clock.
REFUSED = (
    r"(?<=x)(a+)+$",
    r"(?<!b)(a|aa)+$",
    r"(?=a)(a*)*b",
    r"(a)\1+$",
    r"a*",
    r"[[[",
    "x" * 1_001,
)


@pytest.fixture(scope="module")
def kb(kb_path: Path, embedder: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from pitstop.kb.service import KnowledgeBase

    kb = KnowledgeBase.open(copy_kb(kb_path, tmp_path_factory.mktemp("redos") / "p.db"), embedder=embedder)
    hostile_entry(kb)
    # Storing the hostile entry changed the KB, so the next ask rebuilds the catalog (signature
    # specificity over every example text, 0.7 s of CPU with 1,135 examples) and the vector index
    # (0.5 s): a content change's cost, paid once, not a paste's. One ordinary ask pays it first; no
    # prefilter is built, so every signature, the hostile ones too, is still searched per paste.
    kb.ask("NCCL WARN unhandled system error", top=5)
    return kb


@pytest.mark.parametrize("pattern", REFUSED)
def test_dangerous_patterns_are_refused_with_the_reason(pattern: str) -> None:
    reason = problem(pattern)
    assert reason and "\n" not in reason
    entry = json.loads(json.dumps(_entry(pattern)))
    assert any(repr(pattern)[:40] in p and reason in p for p in validate_entry(entry, "x.yaml"))


def test_every_curated_signature_is_admitted_and_most_run_on_re2(kb: Any) -> None:
    curated = [s for p in kb.all() if p.status == "curated" for s in p.signatures]
    engines = [compile_signature(s).engine for s in curated]
    assert len(curated) > 300 and engines.count("re2") / len(engines) > 0.95


def test_kb_import_refuses_a_bundle_with_a_dangerous_signature(kb: Any) -> None:
    from pitstop.core.db import open_db
    from pitstop.incidents.exchange import import_learned

    bundle = {"entries": [_entry(r"(?<=x)(a+)+$")], "examples": []}
    with pytest.raises(UsageError, match="repeats a repetition"):
        import_learned(kb, open_db(kb.db_path), bundle)


def test_draft_approval_refuses_a_dangerous_signature(kb: Any, tmp_path: Path) -> None:
    from pitstop.core.db import immediate, open_db
    from pitstop.incidents.drafts import approve

    db = open_db(kb.db_path)
    body = _entry(r"(?<!b)(a|aa)+$")
    with immediate(db):
        db.execute(
            "INSERT INTO drafts (id, kind, body_json, created_by, created_at) VALUES (?, 'new', ?, 'U1', ?)",
            [body["id"], json.dumps(body), "2026-01-01T00:00:00Z"],
        )
    with pytest.raises(UsageError, match="repeats an alternation"):
        approve(kb, db, body["id"], user="U1", directory=tmp_path)
    assert not list(tmp_path.iterdir())


def test_kb_check_reports_a_dangerous_signature(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    import yaml

    from pitstop.cli.main import main

    monkeypatch.setattr("pitstop.kb.schema.PITFALLS_DIR", tmp_path)

    entry = _entry(r"(x+x+)+y(?!z)")
    (tmp_path / f"{entry['id']}.yaml").write_text(yaml.safe_dump(entry), encoding="utf-8")
    code = main(["kb", "check"])
    out = capsys.readouterr()
    assert code != 0 and "repeats a repetition" in out.out + out.err and "Traceback" not in out.err


def test_pathological_pastes_against_pathological_signatures_answer_within_the_bound(kb: Any) -> None:
    worst = 0.0
    for paste in PASTES:
        started = time.process_time()
        _answer(kb, paste)
        worst = max(worst, time.process_time() - started)
    assert worst < BOUND_S, worst


ATOMS = st.sampled_from(["a", r"\w", ".", r"\d", r"\s", " ", "[a-z]", "x", "(?:a|aa)", "[^b]"])
QUANTIFIERS = st.sampled_from(["+", "*", "?", "{2,}", "{1,40}", "+?", ""])


@st.composite
def nested(draw: Any, depth: int = 0) -> str:
    """A random pattern built from nested quantified groups and alternations (ReDoS's raw material)."""
    inner = ATOMS if depth > 2 else st.one_of(ATOMS, nested(depth + 1))
    parts = draw(st.lists(inner, min_size=1, max_size=3))
    body = ("|" if draw(st.booleans()) else "").join(parts)
    return f"({body}){draw(QUANTIFIERS)}"


PREFIXES = st.sampled_from(["", "", "^", "(?<=x)", "(?<!b)", "(?=a)", "error "])
SUFFIXES = st.sampled_from(["$", "b", "!", "", r"\d$", "(?!x)"])
RUNS = st.sampled_from(["a", "x", "0", " ", "ab", "a ", "word "])
HOSTILE_TEXT = st.tuples(RUNS, st.integers(1, 4_000)).map(lambda t: t[0] * t[1]) | st.text(max_size=300)


@settings(max_examples=examples(150), deadline=None, database=None)
@given(pattern=st.tuples(PREFIXES, nested(), SUFFIXES).map("".join), text=HOSTILE_TEXT, tail=SUFFIXES)
def test_generated_patterns_are_refused_or_match_within_the_bound(pattern: str, text: str, tail: str) -> None:
    if problem(pattern):
        return
    compiled = compile_signature(pattern)
    started = time.thread_time()
    compiled.search(text + tail + "!")
    elapsed = time.thread_time() - started
    assert elapsed < (BOUND_S if compiled.engine == "re2" else PATTERN_TIMEOUT_S + 0.2), (pattern, elapsed)


@settings(max_examples=examples(20), deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(text=HOSTILE_TEXT, tail=SUFFIXES)
def test_generated_pastes_answer_within_the_bound(kb: Any, text: str, tail: str) -> None:
    started = time.process_time()
    _answer(kb, text + tail)
    assert time.process_time() - started < BOUND_S


def test_health_answers_while_the_bot_answers_pathological_pastes(serve_app, shared_dir) -> None:
    bot = serve_app()
    hostile_entry(bot.services.kb)
    latencies: list[float] = []
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            started = time.monotonic()
            with urllib.request.urlopen(bot.url + "/health", timeout=10) as response:
                assert response.read() == b"ok"
            latencies.append(time.monotonic() - started)
            time.sleep(0.02)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    for i, paste in enumerate(PASTES):
        body = payload(shared_dir, "bolt-app-mention.json")
        body["event_id"] = f"EvREDOS{i}"
        body["event"].update(
            text=f"<@{BOT_USER}> {paste}", ts=f"1700000000.{i:06d}", event_ts=f"1700000000.{i:06d}"
        )
        assert bot.send(json.dumps(body))[0] == 200
    bot.idle()
    stop.set()
    poller.join(15)
    replies = {c.body.get("thread_ts") for c in bot.recorder.of("chat.postMessage")}
    assert len(replies) == len(PASTES)
    assert latencies and max(latencies) < BOUND_S, max(latencies)


def _entry(pattern: str) -> dict[str, Any]:
    """A valid entry dict whose one extra signature is `pattern`."""
    from pitstop.kb.schema import load_pitfalls

    base = load_pitfalls()[0]
    data = replace(base, id="hostile-entry", signatures=(*base.signatures[:1], pattern)).to_dict()
    data.pop("status", None)
    data.pop("provenance", None)
    return data


def _answer(kb: Any, text: str) -> None:
    """Ask; a paste with nothing to search for is a clear refusal, also an answer."""
    try:
        kb.ask(text, top=5)
    except UsageError as exc:
        assert str(exc).strip()

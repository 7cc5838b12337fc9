"""Rendering: Slack's limits hold for any content, text is escaped and redacted, both renderers agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pitstop.app.cards import (
    AnswerCard,
    Cause,
    CauseFindings,
    Choice,
    DiagnosisCard,
    HostState,
    Notice,
)
from pitstop.bot import ids
from pitstop.bot.render import blocks, text
from pitstop.collectors.model import Evidence, Verdict
from tests.bot.slack_checks import all_text, assert_within_limits

words = st.text(min_size=0, max_size=4000)


def cause(rank: int, title: str, why: str = "w", fix: str = "f", summary: str = "summary") -> Cause:
    return Cause(rank, f"slug-{rank}", title, "high", (why,), summary, ("check this",), fix)


@settings(max_examples=60, deadline=None)
@given(title=words, why=words, fix=words, hosts=st.integers(0, 300))
def test_answer_fits_slack_limits_for_any_content(title, why, fix, hosts):
    card = AnswerCard(
        "en",
        tuple(cause(i, title, why, fix) for i in range(1, 6)),
        7,
        host_choices=tuple(f"h{i}" for i in range(hosts)),
    )
    body = blocks.answer_message(card).kwargs()
    assert_within_limits(body)
    select = [
        e
        for b in body["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
        if e["type"] == "static_select"
    ]
    assert not select or len(select[0]["options"]) <= blocks.MAX_OPTIONS


@settings(max_examples=30, deadline=None)
@given(n_causes=st.integers(0, 120), line=words)
def test_diagnosis_fits_slack_limits_with_many_causes_and_long_evidence(n_causes, line):
    findings = (
        ("gpu1", Verdict("c", "confirmed", "because", (Evidence("nvidia-smi -q", (line,) * 50, ""),))),
    )
    card = DiagnosisCard(
        "en",
        "gpu[1-20]",
        tuple(HostState(f"gpu{i}", "unreachable", line[:200]) for i in range(20)),
        tuple(CauseFindings(f"c{i}", f"Cause {i}", findings) for i in range(n_causes)),
        done=True,
        incident=3,
    )
    body = blocks.diagnosis_message(card).kwargs()
    assert_within_limits(body)
    assert body["blocks"][-1]["elements"][0]["action_id"] == ids.ACTION_RESOLVE  # always kept
    if n_causes > 48:
        assert "more cause(s) (" in body["blocks"][-2]["elements"][0]["text"]


def test_escaping_and_redaction():
    card = AnswerCard("en", (cause(1, "a <b> & c", why="token xoxb-1234567890-abcdefghij"),), 1)
    rendered = all_text(blocks.answer_message(card).kwargs())
    assert "a &lt;b&gt; &amp; c" in rendered and "<b>" not in rendered
    assert "xoxb-1234567890" not in rendered and "[REDACTED]" in rendered
    assert "xoxb-1234567890" not in text.answer_text(card)


def test_chinese_labels_and_the_same_content_in_both_renderers():
    card = AnswerCard(
        "zh", (cause(1, "RAID 卡缓存策略为直写", summary="每次写入都要等磁盘落盘"),), 4, host="gpu-node-3"
    )
    slack, console = all_text(blocks.answer_message(card).kwargs()), text.answer_text(card)
    for expected in (
        "可能的原因",
        "RAID 卡缓存策略为直写",
        "每次写入都要等磁盘落盘",
        "在 gpu-node-3 上检查",
        "就是这个",
    ):
        assert expected in slack and expected in console


def test_notice_mentions_only_real_user_ids():
    assert (
        blocks.notice_message(Notice("done", ok=True, mention="U123ABC"))
        .blocks[0]["text"]["text"]
        .startswith(":white_check_mark: <@U123ABC> ")
    )
    assert "<@" not in blocks.notice_message(Notice("x", mention="<!channel>")).blocks[0]["text"]["text"]


def test_one_answer_text_for_the_cli_the_console_and_slack_fallback():
    from pitstop.app import render

    details = Cause(1, "slug-1", "A cause", "low", ("w",), "s", ("c",), "f", draft=True, benign=True,
                    details=("signature 'xid 79'",), layer="gpu", score=0.5)  # fmt: skip
    card = AnswerCard("en", (details,), 3, host="gpu-node-3", confident=False, truncated=True)
    shared = render.answer_text(card)
    lines = shared.splitlines()
    assert lines[:3] == [
        "Likely causes:",
        "(no confident match in the knowledge base: these are weak guesses)",
        "(long paste: only its error-bearing lines were searched)",
    ]
    assert "1. A cause [draft, not yet reviewed] [benign]" in lines
    assert "   slug-1 · low · layer gpu · score 0.50" in lines
    assert "   why: w" in lines and "   check: c" in lines and "   first step: f" in lines
    assert "details:" not in shared and "   details: signature 'xid 79'" in render.answer_text(
        card, verbose=True
    )
    console = text.answer_text(card)
    assert console.startswith(shared + "\n") and "[:run gpu-node-3]" in console[len(shared) :]
    assert blocks.answer_message(card).text == shared  # nothing to escape here
    slack = all_text({"blocks": list(blocks.answer_message(card).blocks)})  # not the fallback text
    for line in (*lines[1:3], "draft, not yet reviewed", "benign"):
        assert line in slack, line
    confident = all_text({"blocks": list(blocks.answer_message(AnswerCard("en", (details,), 3)).blocks)})
    assert lines[1] not in confident and lines[2] not in confident
    assert render.answer_text(AnswerCard("zh", (), None)).startswith("知识库里没有")


def test_answer_text_wraps_only_when_given_a_width():
    from pitstop.app import render

    card = AnswerCard("en", (cause(1, "t", why="word " * 60),), None)
    assert max(map(len, render.answer_text(card).splitlines())) > 300
    wrapped = render.answer_text(card, width=60).splitlines()
    assert max(map(len, wrapped)) <= 60 and sum(line.startswith("     word") for line in wrapped) >= 4


def test_a_secret_at_a_cut_is_masked_before_the_cut():
    """Texts are cut to Slack's sizes only after redaction, so a token across a cut leaves no half."""
    token = "ghp_FakeClipPat0123456789abcdefghijkl"
    evidence = Evidence("x" * 190 + " " + token, ("y" * 290 + " " + token,), "")
    reason = "z" * 590 + " " + token
    findings = (("gpu1", Verdict("c", "confirmed", reason, (evidence,))),)
    card = DiagnosisCard(
        "en",
        "w" * 190 + " " + token,
        (HostState("gpu1", "ok", ""), HostState("gpu2", "unreachable", "v" * 190 + " " + token)),
        (CauseFindings("c", "t" * 190 + " " + token, findings),),
        done=True,
        job="j" * 990 + " " + token,
    )
    rendered = all_text(blocks.diagnosis_message(card).kwargs())
    assert "ghp_" not in rendered and "[REDACTE" in rendered


def test_plain_text_options_and_buttons_show_control_and_bidi_characters() -> None:
    """A draft's title in the cause picker, a host in the host picker and a button label: plain_text
    sinks that skip mrkdwn escaping still show controls as `\\uXXXX`."""
    hostile = "Fan \x1b]8;;http://evil.example/\x1b\\x\u202etxt\rforged\u2066"
    picked = (
        *blocks.cause_options([Choice("fan-x", hostile)]),
        *blocks.host_options([(hostile, "gpu1")], 1),
        blocks.button(hostile, ids.ACTION_RUN, "v"),
    )
    for element in picked:
        shown = element["text"]["text"]
        assert "\\u202e" in shown and [c for c in shown if c in "\x1b\r\u202e\u2066"] == []

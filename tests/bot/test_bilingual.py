"""A Chinese paste gets a Chinese answer: no English prose outside quoted evidence, commands and ids."""

from __future__ import annotations

import io
import re
from functools import cache

import pytest

from pitstop.app import flows
from pitstop.bot.render import blocks, text
from pitstop.core.i18n import CJK, catalogue
from pitstop.kb.schema import load_pitfalls
from tests.bot.conftest import copy_kb, make_services

pytestmark = pytest.mark.timeout(900)  # building the shared KB on a loaded machine takes minutes

# Two or more English words in a row are prose, unless they are a name or a term Chinese text keeps:
# a run of capitalised words or acronyms (Fabric Manager, NVIDIA CDI, App Home), a term the KB's
# Chinese text (written by people) uses (soft lockup, DataLoader worker, ipmitool sel elist) or a
# `pitstop` command; a list ("lost, off") is not prose either. What is quoted (backticks, quotation
# marks, brackets), flags, paths, ids and identifiers (words with `-_:/.=`) go first. Single words
# (GPU, riser, nvidia-smi) are how Chinese-speaking engineers write too.
PROSE = re.compile(r"(?<![\w-])(?:(?:[A-Za-z]{2,}|a)(?:, | |'))+[A-Za-z]{2,}(?![\w-])")
QUOTED = (
    re.compile(r"`[^`\n]*`"),
    re.compile(r"“[^”]*”|\"[^\"]*\"|'[^']*'|\[[^\]]*\]|\{[^}]*\}|\([^()]*[A-Za-z]{3}[^()]*\)"),
    re.compile(r"\S*[-_:/.=]\S*"),
)
NAME = re.compile(r"[A-Z][A-Za-z0-9]*|\w*[0-9]\w*")  # Fabric, NVIDIA, PCIe, H100
COMMAND = re.compile(r"\bpitstop(?: [a-z]+){0,2}")


@cache
def terms() -> frozenset[str]:
    """The runs of English words that the KB entries' Chinese text keeps (terms, commands, error names)."""
    kept: set[str] = set()
    for pitfall in load_pitfalls():
        own = [pitfall.text(name, "zh") or "" for name in ("title", "summary", "cause")]
        for words in [*own, *pitfall.steps("zh")]:
            if CJK.search(words):
                kept |= set(PROSE.findall(unquoted(words)))
    return frozenset(kept)


def unquoted(text: str) -> str:
    """`text` without its quoted parts, flags, paths and identifiers."""
    for pattern in QUOTED:
        text = pattern.sub(" ", text)
    return text


def is_name(run: str) -> bool:
    """A run of capitalised words, acronyms and model numbers: a product or a term's name."""
    return all(NAME.fullmatch(word) for word in re.split(r", | |'", run))


def texts(node: object) -> list[str]:
    """Every "text" string of a Slack payload (the words a reader sees)."""
    if isinstance(node, dict):
        own = [node["text"]] if isinstance(node.get("text"), str) else []
        return own + [t for key, value in node.items() if not isinstance(value, str) for t in texts(value)]
    if isinstance(node, list | tuple):
        return [t for value in node for t in texts(value)]
    return []


def english_prose(rendered: str, paste: str, errors: tuple[str, ...] = ()) -> list[str]:
    """English prose left after removing the paste, error text (`errors`: the entries' English
    symptoms, which quote the tools' messages), quoted text, commands, ids, flags, names and terms."""
    body = rendered.replace(paste, " ") if paste else rendered
    for line in filter(None, (line.strip() for line in paste.splitlines())):
        body = body.replace(line, " ")
    for error in sorted(errors, key=len, reverse=True):
        for piece in re.split(r"\s*(?:\.\.\.|…|;)\s*", error):
            if len(piece) > 12:
                body = body.replace(piece, " ")
    body = COMMAND.sub(" ", unquoted(body))
    for term in sorted(terms(), key=len, reverse=True):
        body = re.sub(rf"(?<![\w-]){re.escape(term)}(?![\w-])", " ", body)
    return [run for run in PROSE.findall(body) if not is_name(run) and " " in run.replace(", ", "")]


@pytest.fixture
def services(kb_path, embedder, tmp_path):
    services = make_services(copy_kb(kb_path, tmp_path / "zh.db"), embedder)
    yield services
    services.close()


def test_texts_reads_sections_buttons_and_context() -> None:
    message = blocks.notice_message(flows.Notice("a notice")).kwargs()
    assert "a notice" in "".join(texts(message["blocks"]))


def test_the_checker_finds_english_prose() -> None:
    assert english_prose("原因：the driver lost the GPU over PCIe", "")
    # two or three words left in English are caught too, beside the names and terms that may stay
    assert english_prose("状态：not checked", "") == ["not checked"]
    assert english_prose("已关闭：no action needed（Fabric Manager 未运行）", "") == ["no action needed"]
    assert english_prose("用 `pitstop kb list` 或 pitstop kb show 查看；Secure Boot 已开启", "") == []
    assert english_prose("DataLoader worker 被 OOM killer 杀掉", "") == []  # terms the KB's Chinese keeps
    assert not english_prose("驱动通过 PCIe 失去了与 GPU 的联系；运行 `nvidia-smi -q -d ROW_REMAPPER`", "")


def test_no_chinese_message_has_english_prose() -> None:
    """Every catalogue message's Chinese, its parameters left out: the messages no rendering below reaches."""
    found = {key: english_prose(zh, "") for key, (_, zh) in catalogue().items()}
    assert not {key: runs for key, runs in found.items() if runs}


@pytest.mark.parametrize(
    "paste",
    [
        "训练跑着跑着一张卡掉了，dmesg 里 GPU has fallen off the bus",
        "八卡训练 loss 抖得跟心电图似的，换了 i40e 网卡驱动之后好像更严重了",
    ],
)
def test_a_chinese_paste_gets_no_english_prose(services, paste: str) -> None:
    card = flows.answer(services, paste, channel="C1", thread_ts="1.0", user="U1")
    assert card.lang == "zh" and card.causes
    terminal = text.answer_text(card)
    slack = "\n".join(texts(blocks.answer_message(card).kwargs()))
    assert "可能的原因" in terminal
    errors = tuple(s for c in card.causes for s in services.kb.get(c.pitfall).symptoms)
    for rendered in (terminal, slack):
        found = english_prose(rendered, paste, errors)
        assert not found, found


def test_an_english_paste_stays_english(services) -> None:
    card = flows.answer(
        services, "NVRM: Xid 79, GPU has fallen off the bus", channel="C1", thread_ts="2.0", user="U1"
    )
    out = text.answer_text(card)
    assert card.lang == "en" and "Likely causes" in out and not re.search(r"[\u4e00-\u9fff]", out)


# --- every message kind, in both languages -----------------------------------------------------
PASTES = {
    "en": "NVRM: Xid 79, GPU has fallen off the bus",
    "zh": "训练跑着跑着一张卡掉了，dmesg 里 GPU has fallen off the bus",
}
NEW_CAUSES = {  # what a person types into the resolution form, in their language
    "en": ("Rack UPS input sag", "the UPS input voltage dipped 8%", "moved the rack to another UPS"),
    "zh": ("机柜 UPS 输入电压跌落", "UPS 输入电压间歇性下跌 8%", "把机柜换到另一台 UPS 上"),
}
ENDONYM = "中文"  # the language menu names Chinese in Chinese in either language
HOST_ERROR = "ssh: connect to host gpu2 port 22"  # an unreachable host's error, quoted as ssh said it


def every_kind(services, lang: str) -> dict[str, str]:
    """Each message kind a person can see, rendered for a person who chose `lang` (App Home)."""
    from pitstop.app.cards import DiagnosisCard, HostState
    from pitstop.app.diagnose import DiagnoseReport, HostReport
    from pitstop.app.digest import render_text
    from pitstop.bot.console import Console
    from pitstop.bot.errors import describe
    from pitstop.bot.listeners.views.resolution import validate
    from pitstop.bot.payload import incident_of
    from pitstop.collectors.model import Evidence, Verdict
    from pitstop.core.i18n import t
    from pitstop.incidents.model import NewCause

    user, paste = f"U{lang}", PASTES[lang]
    out: dict[str, str] = {"language notice": flows.set_language(services, user, lang).text}
    card = flows.answer(services, paste, channel="C1", thread_ts=f"{lang}.1", user=user)
    cause = card.causes[0].pitfall
    out["answer (Slack)"] = "\n".join(texts(blocks.answer_message(card).kwargs()))
    out["answer (console)"] = text.answer_text(card)
    details = flows.details(services, card.incident, cause, user=user)
    out["details"] = "\n".join(texts(blocks.details_message(details).kwargs()))
    out["feedback notice"] = flows.feedback(
        services, card.incident, user=user, pitfall=cause, helpful=True
    ).text
    form = flows.resolution_form(services, card.incident, user)
    out["resolution form (Slack)"] = "\n".join(texts(blocks.resolution_modal(form, "{}")))
    out["resolution form (console)"] = text.resolution_text(form)
    title, what, fix = NEW_CAUSES[lang]
    new = NewCause(title=title, what=what, fix=fix, symptoms=(paste,))
    out["resolved notice"] = flows.resolve(services, card.incident, user=user, new_cause=new).text
    drafts = flows.pending_drafts(services, card.incident)
    out["draft card"] = "\n".join(texts(blocks.draft_message(drafts[0]).kwargs()))
    out["draft edit modal"] = "\n".join(texts(blocks.draft_edit_modal(drafts[0], "{}")))
    out["drafts (console)"] = text.drafts_text(drafts, lang)
    out["App Home"] = "\n".join(texts(blocks.home_view(flows.home(services, user, 30))))
    decided = flows.reject_draft(services, drafts[0].id, user="W999")
    out["decided draft card"] = "\n".join(texts(blocks.draft_message(decided).kwargs()))
    verdict = Verdict(cause, "confirmed", "", (Evidence("dmesg", ("NVRM: Xid 79",), "dmesg"),))
    report = DiagnoseReport(
        (
            HostReport("gpu1", "ok", verdicts=(verdict,)),
            HostReport("gpu2", "unreachable", HOST_ERROR),
        ),
        lang=lang,
    )
    diagnosis = flows.diagnosis_card(report, "gpu[1-2]", lang, card.incident, lambda p: card.causes[0].title)
    out["diagnosis (Slack)"] = "\n".join(texts(blocks.diagnosis_message(diagnosis).kwargs()))
    finished = flows.Diagnosis(diagnosis, render_text(report, lang), "", ())
    out["diagnosis (console)"] = text.diagnosis_text(finished)
    progress = DiagnosisCard(lang, "gpu[1-2]", (HostState("gpu1", "pending"), HostState("gpu2", "ok")))
    out["diagnosis progress"] = "\n".join(texts(blocks.diagnosis_message(progress).kwargs()))
    errors = []
    for fail in (
        lambda: flows.answer(services, "  ", channel="C1", thread_ts=f"{lang}.2", user=user),
        lambda: flows.details(services, card.incident, "no-such-cause", user=user),
        lambda: flows.require_maintainer(False),
        lambda: incident_of({}),
        lambda: 1 / 0,  # an unexpected error
    ):
        with pytest.raises(Exception) as raised:
            fail()
        errors.append(describe(raised.value, lang))
    form_errors = (
        validate(
            {"cause": "x", "new_title": "y", "new_what": "", "new_fix": "", "new_symptoms": "", "notes": ""},
            lang,
        ),
        validate(
            {"cause": "", "new_title": "y", "new_what": "", "new_fix": "", "new_symptoms": "", "notes": ""},
            lang,
        ),
    )
    errors += [message for found in form_errors for message in found.values()]
    errors += [t(key, lang) for key in ("chat.busy", "chat.busy_checks", "chat.diagnose_usage")]
    out["errors in chat"] = "\n".join(errors)
    console = Console(services, io.StringIO(), user=user)
    out["console"] = "\n".join(
        console.handle(entry) for entry in (":help", ":frobnicate", ":run", ":drafts", ":stats")
    )
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_message_kind_is_rendered_in_the_readers_language(services, lang: str) -> None:
    rendered = every_kind(services, lang)
    assert len(rendered) == 18
    paste = PASTES[lang]
    quoted = tuple(s for p in services.kb.all() for s in (*p.symptoms, *p.signatures)) + (paste, HOST_ERROR)
    problems = {}
    for kind, body in rendered.items():
        assert body.strip(), kind
        if lang == "zh":
            found = english_prose(body, paste, quoted)
        else:
            found = re.findall(r"[\u4e00-\u9fff]+", body.replace(ENDONYM, ""))
        if found:
            problems[kind] = found
    assert not problems, problems


def test_the_kind_checker_fails_on_an_untranslated_notice() -> None:
    """A notice left in English inside a Chinese rendering is caught (the test above can fail)."""
    assert english_prose("谢谢：Thanks, the cause was marked for this incident", PASTES["zh"], ())

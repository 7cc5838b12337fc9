"""A Chinese paste gets a Chinese answer: no English prose outside quoted evidence, commands and ids."""

from __future__ import annotations

import re

import pytest

from pitstop.app import flows
from pitstop.bot.render import blocks, text
from tests.bot.conftest import copy_kb, make_services

pytestmark = pytest.mark.timeout(900)  # building the shared KB on a loaded machine takes minutes

# Four or more plain English words in a row is prose; single terms (GPU, riser, nvidia-smi,
# Surprise Down) are how Chinese-speaking engineers write too.
PROSE = re.compile(r"(?<![\w-])(?:[A-Za-z]{2,}[ ,']){3,}[A-Za-z]{2,}(?![\w-])")
QUOTED = re.compile(
    r"`[^`]*`|“[^”]*”|\"[^\"]*\"|'[^']*'|\[[^\]]*\]|\([^()]*[A-Za-z]{3}[^()]*\)|\S*[-_:/.=]\S*"
)


def texts(node: object) -> list[str]:
    """Every "text" string of a Slack payload (the words a reader sees)."""
    if isinstance(node, dict):
        own = [node["text"]] if isinstance(node.get("text"), str) else []
        return own + [t for key, value in node.items() if key != "text" for t in texts(value)]
    if isinstance(node, list | tuple):
        return [t for value in node for t in texts(value)]
    return []


def english_prose(rendered: str, paste: str, errors: tuple[str, ...] = ()) -> list[str]:
    """English prose left after removing the paste, error text (`errors`: the entries' English
    symptoms, which quote the tools' messages), quoted text, commands, ids and flags."""
    body = rendered.replace(paste, " ") if paste else rendered
    for line in filter(None, (line.strip() for line in paste.splitlines())):
        body = body.replace(line, " ")
    for error in sorted(errors, key=len, reverse=True):
        for piece in re.split(r"\s*(?:\.\.\.|…|;)\s*", error):
            if len(piece) > 12:
                body = body.replace(piece, " ")
    return PROSE.findall(QUOTED.sub(" ", body))


@pytest.fixture
def services(kb_path, embedder, tmp_path):
    services = make_services(copy_kb(kb_path, tmp_path / "zh.db"), embedder)
    yield services
    services.close()


def test_the_checker_finds_english_prose() -> None:
    assert english_prose("原因：the driver lost the GPU over PCIe", "")
    assert not english_prose("驱动通过 PCIe 失去了与 GPU 的联系；运行 `nvidia-smi -q -d ROW_REMAPPER`", "")


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

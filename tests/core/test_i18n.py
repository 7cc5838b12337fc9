"""The message catalogue: both languages for every key, matching parameters, strict rendering."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

from pitstop.core import messages
from pitstop.core.db import open_db
from pitstop.core.i18n import CJK, CatalogueError, catalogue, fields_of, msg, render, resolve_lang, t
from pitstop.core.prefs import set_user_lang, user_lang

PROSE = re.compile(r"[A-Za-z]{3,}")


def untranslated(en: str, zh: str) -> bool:
    """A Chinese template that is the English one, or has English prose but no Chinese at all."""
    strip = re.compile(r"\{[^}]*\}|`[^`]*`|:\w[\w-]*|--[\w-]+|[A-Z]{2,}\w*|https?://\S+|\bpitstop\b")
    return (zh == en and bool(PROSE.search(strip.sub("", en)))) or (
        bool(PROSE.search(strip.sub("", en))) and not CJK.search(zh)
    )


def test_every_key_has_both_languages_and_the_same_parameters() -> None:
    problems = []
    for key, (en, zh) in catalogue().items():
        if not en.strip() or not zh.strip():
            problems.append(f"{key}: a language is empty")
        elif fields_of(en) != fields_of(zh):
            problems.append(f"{key}: parameters differ {sorted(fields_of(en))} vs {sorted(fields_of(zh))}")
        elif untranslated(en, zh):
            problems.append(f"{key}: the Chinese text is not translated: {zh!r}")
    assert not problems, "\n".join(problems)


def test_keys_start_with_their_area() -> None:
    for info in pkgutil.iter_modules(messages.__path__):
        module = importlib.import_module(f"{messages.__name__}.{info.name}")
        wrong = [key for key in module.MESSAGES if not key.startswith(f"{info.name}.")]
        assert not wrong, f"{info.name}: keys must start with '{info.name}.': {wrong}"


def test_the_checker_catches_an_untranslated_message() -> None:
    assert untranslated("GPU {gpu} is hot", "GPU {gpu} is hot")
    assert untranslated("no GPU facts", "no GPU facts (missing)")
    assert not untranslated("GPU {gpu} is hot", "GPU {gpu} 过热")
    assert not untranslated("`{command}`", "`{command}`")


def test_render_fills_parameters_in_each_language() -> None:
    assert t("common.incident", "en", id=12) == "incident #12"
    assert t("common.incident", "zh", id=12) == "事件 #12"
    assert t("common.incident", "fr", id=12) == "incident #12"  # unknown language: English


def test_wrong_parameters_and_unknown_keys_fail_loudly() -> None:
    with pytest.raises(CatalogueError, match="takes"):
        t("common.incident", "en")
    with pytest.raises(CatalogueError, match="takes"):
        t("common.incident", "en", id=1, extra=2)
    with pytest.raises(CatalogueError, match="no message"):
        t("common.nonexistent", "en")
    with pytest.raises(CatalogueError):
        msg("common.incident", number=3)  # checked where it is built


def test_a_message_parameter_renders_in_the_same_language() -> None:
    inner = msg("common.verdict.confirmed")
    outer = msg("common.incident", id=inner)
    assert outer.render("zh") == "事件 #已确认"
    assert str(outer) == "incident #confirmed"
    assert render("plain evidence", "zh") == "plain evidence"


@pytest.mark.parametrize(
    ("text", "override", "expected"),
    [
        ("RuntimeError: CUDA error: an illegal memory access was encountered", None, "en"),
        ("训练跑着跑着一张卡掉了，dmesg 里 GPU has fallen off the bus", None, "zh"),
        ("训练跑着跑着一张卡掉了", "en", "en"),
        ("NCCL timeout", "zh-CN", "zh"),
        ("训练卡住了", "auto", "zh"),
        (None, None, "en"),
    ],
)
def test_language_follows_the_paste_unless_the_reader_chose(
    text: str | None, override: str | None, expected: str
) -> None:
    assert resolve_lang(text, override) == expected


def test_a_users_choice_is_stored_and_cleared(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    assert user_lang(db, "U1") is None
    assert set_user_lang(db, "U1", "zh") == "zh"
    assert user_lang(db, "U1") == "zh"
    set_user_lang(db, "U1", "en")
    assert user_lang(db, "U1") == "en"
    assert user_lang(db, "U2") is None
    set_user_lang(db, "U1", "auto")
    assert user_lang(db, "U1") is None

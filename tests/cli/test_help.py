"""Every command and every option says what it does, in English and in Chinese; `--version`; one `--error`
argument."""

from __future__ import annotations

import argparse
import re

import pytest

from pitstop.cli import helptext
from pitstop.cli.helptext import columns, help_lang, wrap
from pitstop.cli.main import build_parser, main
from pitstop.core.i18n import CJK, catalogue, render_pair
from pitstop.core.messages.cli_help import MESSAGES
from tests.bot.test_bilingual import english_prose

CHOICES = re.compile(r"\{[^}]*\}")  # argparse's `{a,b,c}`: the values an option takes, kept as typed


def walk(parser: argparse.ArgumentParser, path: str = "pitstop"):
    """(command path, parser, its help line) for every command, the top level first."""
    yield path, parser, parser.description
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, child in action.choices.items():
                if name in helps:  # aliases have no help line of their own
                    yield from (
                        (p, c, h if p != f"{path} {name}" else helps[name])
                        for p, c, h in walk(child, f"{path} {name}")
                    )


def test_every_command_and_option_has_help_text() -> None:
    missing = []
    for path, parser, help_line in walk(build_parser()):
        if not help_line:
            missing.append(f"{path}: no help line")
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                continue
            if action.help is None or not str(action.help).strip():
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}: no help")
    assert not missing, "\n".join(missing)


def test_the_top_level_help_describes_the_product_not_the_code() -> None:
    text = build_parser().format_help()
    assert "thin argparse" not in text and "argparse front" not in text
    assert "exit status" in text and "130 interrupted" in text


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert re.fullmatch(r"pitstop \d+\.\d+\.\d+\S*\n", capsys.readouterr().out)


def test_error_takes_one_argument_so_the_host_list_is_not_swallowed() -> None:
    args = build_parser().parse_args(["diagnose", "--error", "NCCL timeout", "gpu-thermal-001"])
    assert args.hosts == "gpu-thermal-001" and args.error == "NCCL timeout"
    args = build_parser().parse_args(["diagnose", "gpu-thermal-001", "--error-file", "-", "--json"])
    assert str(args.error_file) == "-" and args.json


def test_lang_and_verbose_go_before_or_after_the_command() -> None:
    parser = build_parser()
    assert parser.parse_args(["--lang", "zh", "ask", "x"]).lang == "zh"
    assert parser.parse_args(["ask", "x", "--lang", "zh"]).lang == "zh"
    assert parser.parse_args(["ask", "x"]).lang is None
    assert parser.parse_args(["-v", "ask", "x"]).verbose is True
    assert parser.parse_args(["ask", "--verbose", "x"]).verbose is True


def test_an_option_may_sit_between_the_words_of_the_text() -> None:
    parser = build_parser()
    args = parser.parse_args(["ask", "NCCL", "--json", "timeout"])
    assert args.text == ["NCCL", "timeout"] and args.json
    args = parser.parse_args(["ask", "Xid", "--top", "3", "79", "--lang", "zh", "fallen"])
    assert args.text == ["Xid", "79", "fallen"] and args.top == 3 and args.lang == "zh"
    args = parser.parse_args(["eval", "learning", "train.jsonl", "--json", "test.jsonl"])
    assert [str(f) for f in args.files] == ["train.jsonl", "test.jsonl"] and args.json


def test_options_between_words_still_reject_what_is_unknown_or_extra(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (
        ["ask", "NCCL", "--bogus", "timeout"],
        ["diagnose", "--error", "NCCL", "timeout", "gpu-thermal-001"],  # --error takes one argument
    ):
        with pytest.raises(SystemExit) as stop:
            build_parser().parse_args(argv)
        assert stop.value.code == 2
        assert "unrecognized arguments" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "lang"),
    [
        (["--lang", "zh", "ask", "x"], "zh"),
        (["ask", "x", "--lang=zh"], "zh"),
        (["--lang", "zh", "ask", "--lang", "en"], "en"),
        (["--lang", "auto", "--help"], "en"),
        (["ask", "--help"], "en"),
    ],
)
def test_the_help_language_comes_from_the_command_line(argv: list[str], lang: str) -> None:
    assert help_lang(argv) == lang


def test_every_help_key_is_used_and_exists_in_both_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    used: set[str] = set()

    def recording(key: str, pair: tuple[str, str], lang: str, /, **params: object) -> str:
        used.add(key)
        return render_pair(key, pair, lang, **params)

    monkeypatch.setattr(helptext, "render_pair", recording)
    build_parser().format_help()  # the "usage:" prefix is rendered when help is printed
    assert used == set(MESSAGES)
    for key in used:
        en, zh = catalogue()[key]
        assert en.strip() and CJK.search(zh), key


def test_every_command_helps_in_chinese_without_english_prose(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    found = []
    for path, _, _ in walk(build_parser()):
        for lang_option in (["--lang", "zh"], ["--lang=zh"]):
            with pytest.raises(SystemExit) as stop:
                main([*lang_option, *path.split()[1:], "--help"])
            assert stop.value.code == 0
            out = capsys.readouterr().out
            assert CJK.search(out), path
            found += [
                f"{path}: wider than 80 columns: {line}" for line in out.splitlines() if columns(line) > 80
            ]
            found += [f"{path}: {prose}" for prose in english_prose(CHOICES.sub(" ", out), "")]
    assert not found, "\n".join(found)


def test_english_help_stays_english(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["diagnose", "--help"])
    out = capsys.readouterr().out
    assert not CJK.search(out) and "exit status: 0 nothing confirmed" in out


def test_chinese_help_wraps_between_characters_and_keeps_brackets_with_their_words() -> None:
    lines = wrap("文件或标准输入无法读取、是二进制或格式不对（inventory、policy）；6 PITSTOP_DB 不可用", 20)
    assert all(columns(line) <= 20 for line in lines) and len(lines) > 2
    assert (
        "".join(lines).replace(" ", "")
        == "文件或标准输入无法读取、是二进制或格式不对（inventory、policy）；6PITSTOP_DB不可用"
    )
    assert not any(line.endswith("（") or line.startswith(("、", "；")) for line in lines)

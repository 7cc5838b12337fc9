"""argparse's own error lines in the reader's language: every message template the installed argparse has
is in `cli_args.ARGPARSE` (a Python upgrade that adds one fails here), each reads back to its catalogue
message, and real wrong command lines end with exit status 2 and a Chinese line under `--lang zh`."""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import pytest

from pitstop.cli.argerrors import translate
from pitstop.cli.main import main
from pitstop.core.i18n import catalogue, fields_of, t
from pitstop.core.messages.cli_args import ARGPARSE

_FIELD = re.compile(r"%\((\w+)\)[sr]|%[sr]")


def argparse_templates() -> set[str]:
    """Every message argparse passes to `_()` or `ngettext()`, read from its source."""
    found: set[str] = set()
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in ("_", "ngettext"):
            continue
        texts = node.args[:2] if node.func.id == "ngettext" else node.args[:1]
        for arg in texts:
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "pop":
                arg = arg.args[1]  # `_(kwargs.pop('title', 'subcommands'))`: the default is the message
            assert isinstance(arg, ast.Constant), f"argparse line {node.lineno}: a message form not read here"
            if arg.value is not None:
                found.add(arg.value)
    return found


def test_every_argparse_template_is_in_the_table() -> None:
    templates = argparse_templates()
    assert len(templates) >= 30
    assert templates - set(ARGPARSE) == set(), "argparse messages without a catalogue key"
    assert set(ARGPARSE) - templates == set(), "table rows argparse no longer has"


def test_each_row_names_a_message_with_the_templates_fields() -> None:
    for template, (key, positional) in ARGPARSE.items():
        fields = [m.group(1) for m in _FIELD.finditer(template)]
        assert len(positional) == fields.count(None), template
        names = iter(positional)
        wanted = {name or next(names) for name in fields}
        assert key in catalogue(), key
        assert fields_of(catalogue()[key][0]) == wanted, (template, key)


@pytest.mark.parametrize("template", sorted(ARGPARSE))
def test_each_template_reads_back_to_its_message(template: str) -> None:
    """argparse's English line, formatted from the template, reads back as the key's Chinese, same values."""
    key, positional = ARGPARSE[template]
    names = iter(positional)
    values: dict[str, str] = {}

    def fill(field: re.Match[str]) -> str:
        name = field.group(1) or next(names)
        values[name] = f"'v{len(values)}'" if field.group(0).endswith("r") else f"v{len(values)}"
        return values[name]

    english = _FIELD.sub(fill, template)
    if key == "cli_args.error":  # `error_line` builds the whole line itself
        return
    assert translate(english, "en") == english
    assert translate(english, "zh") == t(key, "zh", **values)


def error_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """The exit status of a command line argparse refuses and the lines it printed on stderr."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    out = capsys.readouterr()
    assert out.out == ""
    return int(stopped.value.code or 0), out.err.splitlines()


CASES = [  # a wrong command line, argparse's English line, the Chinese one
    (
        ["bogus"],
        "pitstop: error: argument COMMAND: invalid choice: 'bogus' (choose from",
        "pitstop：错误：参数 COMMAND：无效的取值：'bogus'（可选：",
    ),
    (
        ["ask", "--bogus", "x"],
        "pitstop: error: unrecognized arguments: --bogus",
        "pitstop：错误：无法识别的参数：--bogus",
    ),
    (
        ["diagnose", "gpu-1", "--error"],
        "pitstop diagnose: error: argument --error: expected one argument",
        "pitstop diagnose：错误：参数 --error：需要一个值",
    ),
    (
        ["incidents", "show"],
        "pitstop incidents show: error: the following arguments are required: id",
        "pitstop incidents show：错误：缺少必需的参数：id",
    ),
    (
        ["incidents", "show", "seven"],
        "pitstop incidents show: error: argument id: 'seven' is not a number",
        "pitstop incidents show：错误：参数 id：'seven' 不是数字",
    ),
    (
        ["incidents", "list", "--limit", "0"],
        "pitstop incidents list: error: argument --limit: must be at least 1, not 0",
        "pitstop incidents list：错误：参数 --limit：必须不小于 1，而不是 0",
    ),
    (
        ["incidents", "list", "--status", "closed"],
        "pitstop incidents list: error: argument --status: invalid choice: 'closed' (choose from 'open',"
        " 'resolved', 'no_action', 'expired')",
        "pitstop incidents list：错误：参数 --status：无效的取值：'closed'（可选：'open', 'resolved',"
        " 'no_action', 'expired'）",
    ),
    (
        ["incidents", "resolve", "3"],
        "pitstop incidents resolve: error: one of the arguments --cause --new-title is required",
        "pitstop incidents resolve：错误：必须给出参数 --cause --new-title 中的一个",
    ),
    (
        ["incidents", "resolve", "3", "--cause", "a", "--new-title", "b"],
        "pitstop incidents resolve: error: argument --new-title: not allowed with argument --cause",
        "pitstop incidents resolve：错误：参数 --new-title：不能与参数 --cause 同时使用",
    ),
    (  # a command whose options may sit between its words: argparse keeps its usage line itself
        ["ask", "--top", "0", "disk", "full"],
        "pitstop ask: error: argument --top: must be at least 1, not 0",
        "pitstop ask：错误：参数 --top：必须不小于 1，而不是 0",
    ),
    (
        ["diagnose", "gpu-1", "--err", "x"],
        "pitstop diagnose: error: ambiguous option: --err could match --error, --error-file",
        "pitstop diagnose：错误：选项 --err 有歧义，可能是 --error, --error-file 中的任一个",
    ),
]


@pytest.mark.parametrize(("argv", "english", "chinese"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_wrong_command_line_in_each_language(
    argv: list[str], english: str, chinese: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = error_of(argv, capsys)
    assert code == 2 and lines[0].startswith("usage: pitstop") and lines[-1].startswith(english), lines
    prog = lines[0].removeprefix("usage: ").split(" [")[0]  # "pitstop ask"
    for where in (["--lang", "zh", *argv], [*argv, "--lang=zh"]):
        code, lines = error_of(where, capsys)
        assert code == 2, lines
        assert lines[0].startswith(f"用法: {prog} ["), lines
        assert lines[-1].startswith(chinese), lines

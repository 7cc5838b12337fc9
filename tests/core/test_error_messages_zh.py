"""Every error message renders in both languages, and the Chinese one has no English prose left.

The messages are every `errors.*` template plus every other key an error is raised with in the
production code (found by tests/architecture/test_error_messages.py's parser: console, inventory and
security errors live in their own areas). Each is rendered with its parameters blanked, so only the
template's own words remain, and checked with the two detectors the catalogue already has:
`untranslated` (tests/core/test_i18n.py) and `english_left` (tests/collectors/test_reasons_zh.py, whose
vocabulary is every English catalogue word that the KB's Chinese text never uses). What an error may
keep as it is: `backticked` file keys and commands, 'quoted' values, CAPITALS (metavariables such as
FILE, environment variables) and the names of the tools and formats involved.
"""

from __future__ import annotations

import ast
import re

import pytest

from pitstop.core.errors import BadFile, NotFound, PitstopError, UsageError
from pitstop.core.i18n import catalogue, fields_of, msg
from tests.architecture.test_error_messages import CLASSES, TREES, _name
from tests.collectors.test_reasons_zh import english_left
from tests.core.test_i18n import untranslated


def raised_keys() -> set[str]:
    """The literal keys of the `msg(...)` every error class is constructed with in production code."""
    keys = set()
    for tree in TREES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in CLASSES and node.args:
                first = node.args[0]
                if isinstance(first, ast.Call) and _name(first.func) == "msg" and first.args:
                    key = first.args[0]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        keys.add(key.value)
    return keys


KEYS = sorted({k for k in catalogue() if k.startswith("errors.")} | raised_keys())


# Names Chinese engineers write as they are, which the KB's Chinese text happens not to use.
NAMES = frozenset(
    {"pitstop", "ansible", "yaml", "json", "sqlite", "openssh", "sshd", "slack", "http", "slurm"}
)
_QUOTED = re.compile(r"'[^'\n]*'")
_CAPITALS = re.compile(r"\b[A-Z][A-Z0-9_]+\b")


def blank(template: str) -> str:
    return template.format(**{name: "∎" for name in fields_of(template)})


def prose_left(text: str) -> list[str]:
    """English words left in `text` once quoted values, capitals and kept names are taken out."""
    left = english_left(_CAPITALS.sub(" ", _QUOTED.sub(" ", text)), ())
    return [word for word in left if word.lower() not in NAMES]


def test_errors_outside_the_errors_area_are_found() -> None:
    assert {"console.which_host", "security.interaction.tampered", "inventory.none"} & set(KEYS)
    assert len(KEYS) > 200  # 49 errors.* messages before the raisers were converted; 213 after


@pytest.mark.parametrize("key", KEYS)
def test_each_error_renders_in_chinese_without_english_prose(key: str) -> None:
    en, zh = catalogue()[key]
    assert blank(en) and blank(zh)
    assert not untranslated(en, zh), zh
    assert not prose_left(blank(zh)), blank(zh)


def test_the_detectors_fail_on_an_untranslated_error() -> None:
    english = "Ansible host range {pattern!r} must have begin <= end"
    assert untranslated(english, english)
    assert prose_left(blank(english)) == ["begin", "must"]
    _, zh = catalogue()["errors.ansible.range_order"]
    assert not prose_left(blank(zh))
    assert prose_left("`{controller: HOST}` 写法有误：need a controller") == ["controller", "need"]


def test_an_error_renders_in_the_readers_language_and_str_stays_english() -> None:
    error = UsageError(msg("errors.ansible.range_order", pattern="gpu[9:1]"))
    assert str(error) == "Ansible host range 'gpu[9:1]' must have begin <= end"
    assert error.render("zh") == "Ansible 主机范围 'gpu[9:1]' 的起始值必须 <= 结束值"
    nested = BadFile(msg("errors.policy.hosts", where="p.yaml: rule 1", error=msg("errors.hostlist.empty")))
    assert nested.render("zh") == "p.yaml: rule 1：`hosts` 写法有误：主机列表为空"
    assert nested.exit_code == 5 and NotFound.exit_code == 3 and UsageError.exit_code == 2


def test_the_error_tree_takes_only_a_message() -> None:
    import inspect

    assert str(inspect.signature(PitstopError.__init__).parameters["message"].annotation) == "Msg"

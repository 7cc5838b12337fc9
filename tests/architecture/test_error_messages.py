"""Every error a person reads is a catalogue message: no raise of a `PitstopError` built from text.

The production code is parsed (every layer folder, as in test_layers.py). The error classes are
`core/errors.py`'s tree plus every class that derives from one of them anywhere; constructing any
of them from a string literal, an f-string, a concatenation or `%`, `str(...)`, `"...".format(...)`,
`", ".join(...)`, a rendered `t(...)` or an exception's `.args` fails here with the line named.
Every `msg("key", ...)` with a literal key is also checked against the catalogue: the key exists and
the keywords are its fields, so an error path that no test reaches still cannot fail with a
`CatalogueError` when it finally raises.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitstop.core.i18n import catalogue, fields_of
from tests.architecture.test_layers import MODULES

TEXT_CALLS = frozenset({"str", "repr", "t", "format", "join"})


def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in MODULES.values()}


TREES = trees()


def error_classes(
    modules: dict[Path, ast.Module], roots: frozenset[str] = frozenset({"PitstopError"})
) -> frozenset[str]:
    """`roots` and the names of every class deriving from one of them, in any module (to a fixpoint)."""
    classes = [n for tree in modules.values() for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    names = set(roots)
    grown = True
    while grown:
        found = {c.name for c in classes if any(_name(b) in names for b in c.bases)}
        grown = not found <= names
        names |= found
    return frozenset(names)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def is_text(node: ast.expr) -> bool:
    """True for an expression that builds a plain string rather than a catalogue `Msg`."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return is_text(node.left) or is_text(node.right)
    if isinstance(node, ast.IfExp):
        return is_text(node.body) or is_text(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(is_text(v) for v in node.values)
    if isinstance(node, ast.Call):
        return _name(node.func) in TEXT_CALLS
    if isinstance(node, ast.Subscript):  # exc.args[0]: another error's raw text
        return isinstance(node.value, ast.Attribute) and node.value.attr == "args"
    return False


def text_errors(tree: ast.Module, classes: frozenset[str]) -> Iterator[tuple[int, str]]:
    """(line, code) for each construction of an error class whose message is plain text."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _name(node.func) not in classes:
            continue
        message = (
            node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "message"), None)
        )
        if message is not None and is_text(message):
            yield node.lineno, ast.unparse(node)[:120]


def message_calls(tree: ast.Module) -> Iterator[tuple[int, str, set[str] | None]]:
    """(line, key, keyword names or None when `**params` is passed) of each `msg("literal", ...)`."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and _name(node.func) == "msg"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = {k.arg for k in node.keywords if k.arg is not None}
            yield (
                node.lineno,
                node.args[0].value,
                None if any(k.arg is None for k in node.keywords) else names,
            )


CLASSES = error_classes(TREES)


def test_the_error_tree_is_found() -> None:
    assert {"UsageError", "NotFound", "NotAllowed", "BadFile", "LabError", "Tampered"} <= CLASSES


@pytest.mark.parametrize("path", sorted(TREES), ids=lambda p: str(p.relative_to(p.parents[1])))
def test_no_error_is_raised_with_plain_text(path: Path) -> None:
    found = list(text_errors(TREES[path], CLASSES))
    assert not found, "build the message with msg(KEY, ...) from core/messages:\n" + "\n".join(
        f"{path}:{line}: {code}" for line, code in found
    )


def test_every_literal_message_key_exists_with_its_fields() -> None:
    problems = []
    for path, tree in TREES.items():
        for line, key, names in message_calls(tree):
            if key not in catalogue():
                problems.append(f"{path}:{line}: no message {key!r}")
            elif names is not None and names != set(fields_of(catalogue()[key][0])):
                wanted = sorted(fields_of(catalogue()[key][0]))
                problems.append(f"{path}:{line}: {key} takes {wanted}, given {sorted(names)}")
    assert not problems, "\n".join(problems)


SAMPLE = """
from pitstop.core.errors import UsageError

class Mine(UsageError):
    pass

class Deeper(Mine):
    pass

def f(path, exc, items):
    raise UsageError(f"cannot read {path}")
    raise UsageError("no standard input to read")
    raise Mine("the bundle holds: " + ", ".join(items))
    raise Deeper(str(exc))
    raise UsageError(t("console.which_host", "en"))
    raise UsageError(exc.args[0] if exc.args else "?")
    raise UsageError(message="%s is bad" % path)
    raise UsageError(msg("errors.cli.no_stdin"))
    raise UsageError(exc.message)
"""


def test_the_check_finds_each_kind_of_plain_text() -> None:
    tree = ast.parse(SAMPLE)
    classes = error_classes({Path("sample.py"): tree}, roots=CLASSES)
    assert {"Mine", "Deeper"} <= classes
    assert [line for line, _ in text_errors(tree, classes)] == [11, 12, 13, 14, 15, 16, 17]


def test_the_key_check_finds_a_wrong_key_and_wrong_fields() -> None:
    tree = ast.parse('msg("errors.cli.no_stdin")\nmsg("errors.nope")\nmsg("errors.file.missing", file="x")\n')
    calls = list(message_calls(tree))
    assert calls == [
        (1, "errors.cli.no_stdin", set()),
        (2, "errors.nope", set()),
        (3, "errors.file.missing", {"file"}),
    ]
    assert "errors.nope" not in catalogue()
    assert fields_of(catalogue()["errors.file.missing"][0]) == {"path"}

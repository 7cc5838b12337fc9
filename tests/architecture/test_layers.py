"""Imports run one way: cli and bot -> app -> lab -> incidents -> collectors -> kb -> core -> migrations.

Every module of every layer folder is parsed (imports inside functions count too), so an upward
import or a cycle anywhere in the production code fails here, with the offending lines named.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Rank of each layer; a module may import its own layer or a lower rank only. The order here is
# the one in docs/ARCHITECTURE.md's layer table.
RANK = {
    "migrations": 0,
    "core": 1,
    "kb": 2,
    "collectors": 3,
    "incidents": 4,  # records diagnoses: collectors' verdicts are its records too
    "lab": 5,
    "app": 6,
    "bot": 7,
    "cli": 8,
}
# Layers of equal rank stay independent of each other.
SIDEWAYS_ALLOWED: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return "pitstop." + ".".join(parts)


def production_modules() -> dict[str, Path]:
    found = {}
    for layer in RANK:
        for path in (REPO / layer).rglob("*.py"):
            if "scenarios" in path.relative_to(REPO).parts:
                continue
            found[module_name(path)] = path
    return found


MODULES = production_modules()


def imports_of(name: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported module) for every pitstop import, resolved to the deepest known module."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [f"{node.module}.{a.name}" for a in node.names]
        for target in targets:
            if not target.startswith("pitstop."):
                continue
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in MODULES and target != name:
                found.append((node.lineno, target))
    return found


def layer(name: str) -> str:
    return name.split(".")[1]


def test_every_layer_folder_is_known() -> None:
    assert {m.split(".")[1] for m in MODULES} == set(RANK)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_down_the_layers(name: str) -> None:
    mine = layer(name)
    wrong = []
    for line, target in imports_of(name, MODULES[name]):
        theirs = layer(target)
        if theirs == mine or RANK[theirs] < RANK[mine] or (mine, theirs) in SIDEWAYS_ALLOWED:
            continue
        wrong.append(f"{MODULES[name].relative_to(REPO)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles() -> None:
    graph = {name: {t for _, t in imports_of(name, path)} for name, path in MODULES.items()}
    # a package's __init__ importing its own submodules is how packages work, not a cycle
    for name in graph:
        graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)

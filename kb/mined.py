"""Real-world examples of each cause, mined from public threads: `kb/examples/<cause-id>.yaml`.

One file per cause: `{id: <cause id>, examples: [{text, lang: en|zh, source: URL}, ...]}`. Each
example is stored with source 'import', kind 'mined' and its thread URL as provenance, so answers
can say where a wording came from. They are searched like curated symptoms (both FTS indexes and
the dense index); `kb check` validates the files, and a sync replaces the stored set when a file
changes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

EXAMPLES_DIR = Path(__file__).parent / "examples"
LANGS = ("en", "zh")


@dataclass(frozen=True)
class MinedExample:
    """One real-world wording of a cause and the thread it came from."""

    pitfall_id: str
    text: str
    lang: str
    source: str


def validate_file(data: Any, name: str, known_ids: Collection[str] | None = None) -> list[str]:
    """Problems with one parsed examples file (empty when valid)."""
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        return [f"{name}: needs an 'id' and an 'examples' list"]
    problems = []
    if Path(name).stem != data["id"]:
        problems.append(f"{name}: id '{data['id']}' must equal the file name")
    if known_ids is not None and data["id"] not in known_ids:
        problems.append(f"{name}: no entry '{data['id']}' in kb/pitfalls")
    items = data.get("examples")
    if not isinstance(items, list) or not items:
        return [*problems, f"{name}: 'examples' must be a non-empty list"]
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or not item["text"].strip():
            problems.append(f"{name}: example {number} needs a non-empty 'text'")
            continue
        if item.get("lang") not in LANGS:
            problems.append(f"{name}: example {number}: 'lang' must be one of {', '.join(LANGS)}")
        if not str(item.get("source") or "").startswith(("https://", "http://")):
            problems.append(f"{name}: example {number}: 'source' must be the thread's URL")
    for key in sorted(set(data) - {"id", "examples"}):
        problems.append(f"{name}: unknown field '{key}'")
    return problems


def load_examples(
    directory: Path = EXAMPLES_DIR, known_ids: Collection[str] | None = None
) -> tuple[list[MinedExample], list[str]]:
    """Every valid example in `directory` and the problems of the invalid files (a missing folder: none)."""
    examples: list[MinedExample] = []
    problems: list[str] = []
    for path in sorted(directory.glob("*.yaml")) if directory.is_dir() else ():
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            problems.append(f"{path.name}: cannot parse: {exc}")
            continue
        found = validate_file(data, path.name, known_ids)
        problems += found
        if not found:
            examples += [
                MinedExample(data["id"], " ".join(item["text"].split()), item["lang"], item["source"])
                for item in data["examples"]
            ]
    return examples, problems

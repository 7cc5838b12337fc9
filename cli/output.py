"""Every `--json` output in the one JSON style (`pitstop.core.jsondoc`): `"schema": "pitstop.<kind>/1"` first.

The shapes are documented, with their JSON Schemas, in docs/JSON.md; `tests/cli/test_json.py`
validates real outputs of every `--json` command against that page. Times are RFC 3339 UTC
(`pitstop.core.clock.stamp`), the format the database stores.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pitstop.core.jsondoc import dumps

if TYPE_CHECKING:
    from pitstop.core.i18n import Lang


def lang_of(args: argparse.Namespace, text: str | None = None) -> Lang:
    """The reader's language: `--lang en|zh`, else (auto) the language of `text`, else English."""
    from pitstop.core.i18n import resolve_lang

    return resolve_lang(text, getattr(args, "lang", None))


def emit_json(kind: str, data: Mapping[str, Any]) -> None:
    """Print one indented JSON document of `kind`."""
    print(dumps(kind, data))


def emit_jsonl(kind: str, rows: Iterable[Mapping[str, Any]]) -> None:
    """Print one compact JSON document of `kind` per line (for streaming into other tools)."""
    for row in rows:
        sys.stdout.write(dumps(kind, row, indent=None) + "\n")

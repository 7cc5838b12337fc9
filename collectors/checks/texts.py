"""Every check's sentence for readers (`CheckSpec.describe`), without importing the checks.

`pitstop ask` prints one sentence per check it proposes; importing the registry for them (every
check and parser module) cost about 0.25 s of CPU in each process. The sentences are therefore kept
in a small JSON file in the cache folder (`core.config.cache_home()`), named by a digest of the
collectors' source files (path, size, modification time), so that changing any of them makes a new
file. A missing or unreadable file costs one import of the registry; an unwritable folder, that
import in every process.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from pitstop.core.config import cache_home
from pitstop.core.sources import digest

SOURCES = Path(__file__).resolve().parents[1]  # the collectors package: checks, parsers, catalog


def cache_file() -> Path:
    """The file for the collectors' current sources."""
    return cache_home() / f"check-texts-{digest([SOURCES])[:20]}.json"


@cache
def descriptions() -> Mapping[str, Mapping[str, str]]:
    """Check name -> {language: sentence}, from the cache file or, failing it, the registry."""
    path = cache_file()
    with contextlib.suppress(OSError, ValueError):
        return json.loads(path.read_text(encoding="utf-8"))
    from pitstop.collectors.checks.registry import CHECKS

    texts = {name: dict(spec.describe) for name, spec in CHECKS.items()}
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(texts, handle, ensure_ascii=False)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    return texts


def description(check: str, lang: str) -> str | None:
    """What check `check` looks at and what decides it, in `lang` (English when it has no such text);
    None for a check the registry does not know."""
    texts = descriptions().get(check)
    if texts is None:
        return None
    return texts.get(lang) or texts.get("en", "")

"""Reading YAML: libyaml's C loader when PyYAML was built with it (about 6x faster), else the Python one.

Both are the safe loader (plain data only); errors are `yaml.YAMLError` either way.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO, Any

import yaml

from pitstop.core.config import trusted
from pitstop.core.errors import BadFile, os_reason
from pitstop.core.i18n import Msg, msg

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(stream: str | bytes | IO[str] | IO[bytes]) -> Any:
    """`yaml.safe_load` through the fastest safe loader available."""
    return yaml.load(stream, Loader=SafeLoader)  # noqa: S506 - a safe loader


MAX_FILE = 64 * 1024 * 1024  # a policy, inventory, taxonomy or case file is kilobytes; /dev/zero is endless
MAX_DEPTH = 64  # nesting a YAML file may have: libyaml's composer recurses in C, and 100,000 `[` crash it


def _too_deep(text: str) -> bool:
    """True when collections nest more than MAX_DEPTH levels (libyaml's parser, unlike its composer,
    keeps its own stack: reading the events first is safe)."""
    if text.count("[") + text.count("{") + text.count(":") + text.count("- ") <= MAX_DEPTH:
        return False
    depth = 0
    for event in yaml.parse(text, Loader=SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return False


def read_text_file(path: Path, what: Msg) -> str:
    """The UTF-8 text of `what` at `path`; BadFile (exit 5) when unreadable, binary, not UTF-8 or over
    MAX_FILE bytes (read no further: `/dev/zero` or a runaway log never fills the memory)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE + 1)
    except IsADirectoryError:
        raise BadFile(msg("security.file.is_dir", what=what, path=str(path))) from None
    except OSError as exc:
        raise BadFile(
            msg("security.file.unreadable", what=what, path=str(path), reason=os_reason(exc))
        ) from None
    if len(data) > MAX_FILE:
        raise BadFile(msg("security.file.too_large", what=what, path=str(path), limit=MAX_FILE // 2**20))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        raise BadFile(msg("security.file.binary", what=what, path=str(path)))
    return text


def _refuse_unsafe(path: Path, what: Msg) -> None:
    """BadFile when `path` belongs to neither this user nor root or group or others may write it."""
    info = Path(path).stat()
    if not trusted(info, (os.getuid(), 0)):
        mode = oct(stat.S_IMODE(info.st_mode))[2:]
        raise BadFile(msg("security.file.unsafe", what=what, path=str(path), mode=mode, uid=info.st_uid))


def load_yaml_file(path: Path, what: Msg, *, owned: bool = False) -> Any:
    """The parsed YAML of `what` at `path`; BadFile (exit 5) when unreadable, binary or not YAML, and
    with `owned` (a file that steers Pitstop: the policy, the inventory) when it belongs to neither
    this user nor root or group or others may write it."""
    text = read_text_file(path, what)
    if owned:
        _refuse_unsafe(path, what)
    try:
        if _too_deep(text):
            raise BadFile(msg("security.file.too_deep", what=what, path=str(path), depth=MAX_DEPTH))
        return safe_load(text)
    except RecursionError:
        raise BadFile(msg("security.file.too_deep", what=what, path=str(path), depth=MAX_DEPTH)) from None
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split())[:200]
        raise BadFile(msg("security.file.not_yaml", what=what, path=str(path), reason=detail)) from None

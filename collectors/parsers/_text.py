"""Small text helpers shared by the parsers: ANSI stripping, tolerant numbers, key/value splitting."""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_HEX = re.compile(r"\s*0x[0-9a-fA-F]+\s*")
UNKNOWN_WORDS = frozenset(
    {
        "",
        "n/a",
        "[n/a]",
        "na",
        "not supported",
        "[not supported]",
        "unknown",
        "[unknown error]",
        "err!",
        "-",
        "requested functionality has been deprecated",
        "insufficient permissions",
    }
)


def clean_lines(text: str) -> list[str]:
    """Split output into lines without ANSI escapes, carriage returns or trailing blanks."""
    text = _ANSI.sub("", text or "").replace("\r\n", "\n").replace("\r", "\n")
    return [line.rstrip() for line in text.split("\n")]


def is_unknown(value: str | None) -> bool:
    """True for the placeholders tools print when a value is not available."""
    return value is None or value.strip().lower() in UNKNOWN_WORDS


def to_float(value: str | None) -> float | None:
    """The first number in `value` ("700.00 W", "59 C"), or None when unknown or absent."""
    if is_unknown(value):
        return None
    match = _NUMBER.search(value or "")
    return float(match.group()) if match else None


def to_int(value: str | None) -> int | None:
    """Like `to_float` but integral (hex "0x1f" accepted)."""
    if value is not None and _HEX.fullmatch(value):
        return int(value, 16)
    number = to_float(value)
    return int(number) if number is not None else None


def to_bool(
    value: str | None, yes: tuple[str, ...] = ("yes", "enabled", "on", "active", "true")
) -> bool | None:
    """Yes/Enabled/On/Active -> True, No/Disabled/Off/Not Active -> False, anything else None."""
    if is_unknown(value):
        return None
    word = (value or "").strip().lower()
    if word in yes:
        return True
    if word in ("no", "disabled", "off", "not active", "false", "inactive"):
        return False
    return None


def split_kv(line: str, sep: str = ":") -> tuple[str, str] | None:
    """`"  Key   : value "` -> ("Key", "value"); None when the line has no separator."""
    if sep not in line:
        return None
    key, _, value = line.partition(sep)
    return key.strip(), value.strip()


def version_tuple(version: str | None) -> tuple[int, ...] | None:
    """ "535.154.05" -> (535, 154, 5); None when no leading number."""
    if not version:
        return None
    parts = re.findall(r"\d+", version.split("-")[0].split("+")[0])
    return tuple(int(p) for p in parts) if parts else None

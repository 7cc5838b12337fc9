"""Decide whether a channel message looks like an error worth answering, and per-channel answer modes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg
from pitstop.kb.signatures import Compiled, compile_all, first_matches

Mode = Literal["auto", "mention"]
_CHANNEL_ID = re.compile(r"^[A-Za-z0-9_-]{1,80}$")  # Slack ids (C0123), or names in tests
DETECT_BUDGET_S = 0.2  # all KB signatures over one message (kb.signatures bounds each one)

# Words and shapes that mark a paste as an error report, in English and Chinese.
ERROR_VOCABULARY: tuple[str, ...] = (
    r"\berror\b",
    r"\berrors\b",
    r"\bexception\b",
    r"\bfailed\b",
    r"\bfailure\b",
    r"\bfatal\b",
    r"\bpanic\b",
    r"\bsegmentation fault\b",
    r"\bsegfault\b",
    r"\bcore dumped\b",
    r"\btimed? ?out\b",
    r"\bkilled\b",
    r"\boom\b",
    r"\bout of memory\b",
    r"\bnot found\b",
    r"\bmismatch\b",
    r"\bXid\b",
    r"\bNCCL WARN\b",
    r"\bCUDA error\b",
    r"\bcudaError\w*",
    r"\bRuntimeError\b",
    r"\bhung\b",
    r"\bhang(s|ing)?\b",
    r"\bthrottl\w*",
    r"\bdegraded\b",
    r"\bunreachable\b",
    r"\bcrash\w*",
    r"\bstuck\b",
    r"报错",
    r"错误",
    r"失败",
    r"异常",
    r"超时",
    r"崩溃",
    r"挂了",
    r"挂掉",
    r"卡住",
    r"卡死",
    r"掉卡",
    r"不识别",
    r"识别不到",
    r"找不到",
    r"起不来",
    r"抖",
    r"降频",
    r"掉线",
    r"慢",
)
SHAPES: tuple[str, ...] = (
    r"```",
    r"Traceback \(most recent call last\)",
    r"^\s+at \S+\(",
    r"^\s*File \".*\", line \d+",
    r"\bexit (code|status) [1-9]\d*",
)


@dataclass(frozen=True)
class Detector:
    """Error-likeness test: code blocks, tracebacks, the KB's signatures, error vocabulary."""

    signatures: tuple[Compiled, ...] = ()
    _vocabulary: re.Pattern[str] = field(
        default=re.compile("|".join(ERROR_VOCABULARY + SHAPES), re.IGNORECASE | re.MULTILINE), repr=False
    )

    @classmethod
    def from_signatures(cls, patterns: Iterable[str]) -> Detector:
        """Build a detector from KB signature regexes; refused patterns (kb.signatures) are skipped."""
        return cls(signatures=tuple(compile_all(patterns)))

    def looks_like_error(self, text: str, blocks: Iterable[Mapping[str, Any]] = ()) -> bool:
        """True when `text` (or its rich-text blocks) reads like an error report."""
        if has_code_block(blocks) or self._vocabulary.search(text):
            return True
        hits, _ = first_matches(self.signatures, text, DETECT_BUDGET_S)
        return bool(hits)


def has_code_block(blocks: Iterable[Mapping[str, Any]]) -> bool:
    """True when a rich_text block holds a preformatted (code) element."""
    for block in blocks or ():
        for element in block.get("elements", ()) if isinstance(block, Mapping) else ():
            if isinstance(element, Mapping) and element.get("type") == "rich_text_preformatted":
                return True
    return False


@dataclass(frozen=True)
class ChannelModes:
    """Per-channel behaviour: `auto` answers error-looking messages, `mention` only @mentions."""

    default: Mode = "auto"
    overrides: Mapping[str, Mode] = field(default_factory=dict)

    @classmethod
    def parse(cls, spec: str | None) -> ChannelModes:
        """Parse `"auto"` or `"mention,C123=auto,C456=mention"` (a bare word sets the default)."""
        default: Mode = "auto"
        overrides: dict[str, Mode] = {}
        for item in filter(None, (part.strip() for part in (spec or "").split(","))):
            channel, _, mode = item.rpartition("=")
            if mode not in ("auto", "mention") or (channel and not _CHANNEL_ID.match(channel)):
                raise UsageError(msg("security.arg.channels", item=item[:40]))
            if channel:
                overrides[channel] = mode  # type: ignore[assignment]
            else:
                default = mode  # type: ignore[assignment]
        return cls(default=default, overrides=overrides)

    def mode(self, channel: str) -> Mode:
        """The mode for `channel`."""
        return self.overrides.get(channel, self.default)

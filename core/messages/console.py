"""What the terminal console says about its own commands."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "console.cause.which": (
        "Say which cause: its number in the last answer or its id.",
        "请说明是哪个原因：上一条回答里的编号或它的 id。",
    ),
    "console.cause.unknown": (
        "'{ref}' is not a cause of the last answer: give its number (1-{n}) or its id.",
        "“{ref}”不是上一条回答里的原因：请给出编号（1-{n}）或 id。",
    ),
}

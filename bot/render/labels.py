"""Labels of the bot's messages: catalogue messages `bot.*` (core/messages/bot.py) and the verdict marks."""

from __future__ import annotations

VERDICT_ICONS: dict[str, str] = {"confirmed": "✅", "ruled_out": "⬜", "inconclusive": "❔"}


def label(lang: str, key: str, **fields: object) -> str:
    """The catalogue message `bot.<key>` in `lang` (English when unknown); `.one` for a count of 1."""
    from pitstop.core.i18n import catalogue, t

    if fields.get("total") == 1 and f"bot.{key}.one" in catalogue():
        return t(f"bot.{key}.one", lang, **{k: v for k, v in fields.items() if k != "total"})
    return t(f"bot.{key}", lang, **fields)

"""Labels of the bot's messages: catalogue messages `bot.*` (core/messages/bot.py) and the verdict marks."""

from __future__ import annotations

VERDICT_ICONS: dict[str, str] = {"confirmed": "✅", "ruled_out": "⬜", "inconclusive": "❔"}


def label(lang: str, key: str, **fields: object) -> str:
    """The catalogue message `bot.<key>` in `lang` (English when unknown); `.one` for a count of 1.

    Callers pass the fields of a message family (progress and final lines share `done`); each
    message takes the ones it names.
    """
    from pitstop.core.i18n import catalogue, fields_of, t

    name = f"bot.{key}.one" if fields.get("total") == 1 and f"bot.{key}.one" in catalogue() else f"bot.{key}"
    wanted = fields_of(catalogue()[name][0])
    return t(name, lang, **{k: v for k, v in fields.items() if k in wanted})

"""Per-user settings stored in SQLite: the language a person chose for answers."""

from __future__ import annotations

import sqlite_utils

from pitstop.core.clock import stamp, utc_now
from pitstop.core.i18n import Lang, normalize_lang


def user_lang(db: sqlite_utils.Database, user: str) -> Lang | None:
    """The language `user` chose, or None when they follow the paste."""
    row = db.execute("SELECT lang FROM user_prefs WHERE user = ?", [user]).fetchone()
    return normalize_lang(row[0]) if row else None


def set_user_lang(db: sqlite_utils.Database, user: str, lang: str | None) -> Lang | None:
    """Store `user`'s choice ('en', 'zh'); None or 'auto' goes back to following the paste."""
    chosen = normalize_lang(lang)
    if chosen is None:
        db.execute("DELETE FROM user_prefs WHERE user = ?", [user])
    else:
        db.execute(
            "INSERT INTO user_prefs (user, lang, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user) DO UPDATE SET lang = excluded.lang, updated_at = excluded.updated_at",
            [user, chosen, stamp(utc_now())],
        )
    return chosen

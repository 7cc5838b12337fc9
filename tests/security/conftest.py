"""Security tests reuse the bot's fixtures (the KB and lab ones live in tests/conftest.py)."""

from __future__ import annotations

from tests.bot.conftest import recorder, serve_app

__all__ = ["recorder", "serve_app"]

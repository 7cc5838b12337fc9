"""Security tests reuse the KB, bot and lab fixtures of the other test packages (one way to build each)."""

from __future__ import annotations

from tests.bot.conftest import recorder, serve_app
from tests.kb.conftest import embedder, kb_path

__all__ = ["embedder", "kb_path", "recorder", "serve_app"]

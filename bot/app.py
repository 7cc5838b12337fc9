"""Build the Bolt app: `create_app(settings, services, client=None)`; nothing happens at import time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from pitstop.app.services import Services
from pitstop.bot.deps import Deps
from pitstop.bot.listeners import register
from pitstop.bot.maintainers import Maintainers
from pitstop.bot.replay import Replays, refuse_replays
from pitstop.core.config import Settings
from pitstop.core.redact import clean_text, install_log_redaction
from pitstop.core.sealing import Sealer

DEFAULT_API_URL = "https://slack.com/api/"


def make_client(settings: Settings) -> WebClient:
    """A Web API client for `settings` (SLACK_API_URL respected) that waits out 429s and retries."""
    base = settings.slack_api_url or DEFAULT_API_URL
    return WebClient(
        token=settings.slack_bot_token,
        base_url=base if base.endswith("/") else base + "/",
        retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=3), ConnectionErrorRetryHandler()],
    )


def create_app(
    settings: Settings, services: Services, client: WebClient | None = None, *, update_interval_s: float = 1.5
) -> App:
    """The Pitstop Bolt app with every listener registered; the caller chooses Socket Mode or HTTP."""
    install_log_redaction()
    app = App(
        client=client or make_client(settings),
        # HTTP mode checks every request's signature before Bolt sees it (`pitstop.bot.http`), so an
        # event stored there can be dispatched after its timestamp aged; Socket Mode carries none.
        request_verification_enabled=False,
        # Bolt answers Slack once the listener returned: a listener stores its work in the outbox
        # (`services.jobs`) first, so nothing acknowledged exists only in memory.
        process_before_response=True,
    )
    maintainers = Maintainers(
        services.maintainers,
        lambda group: app.client.usergroups_users_list(usergroup=group).get("users") or (),
    )
    app.use(_scrub_surrogates)
    app.use(refuse_replays(Replays(lambda: services.incidents.db)))
    sealer = Sealer.from_db(services.kb.db)
    register(app, Deps(services, maintainers, sealer, update_interval_s=update_interval_s))
    return app


def _scrub_surrogates(body: dict[str, Any], next: Callable[[], None]) -> None:  # noqa: A002 - Bolt's name
    """Replace lone UTF-16 surrogates (JSON's `\\ud800`) in every string of the payload with U+FFFD, so
    that no later encode (SQLite, the Web API, the redactor) fails on a paste."""
    scrub(body)
    next()


def scrub(value: Any) -> Any:
    """`value` with lone surrogates replaced, dicts and lists changed in place."""
    if isinstance(value, str):
        return clean_text(value)
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in list(items):
        value[key] = scrub(item)
    return value

"""`pitstop serve [--http --port N]`: run the Slack bot (Socket Mode by default, HTTP with --http)."""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING

from pitstop.cli.argtypes import PORT
from pitstop.cli.helptext import h
from pitstop.cli.output import lang_of
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg

if TYPE_CHECKING:
    from slack_sdk import WebClient

    from pitstop.core.config import Settings


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop serve`."""
    parser = sub.add_parser("serve", help=h("serve.serve"))
    parser.add_argument("--http", action="store_true", help=h("serve.http"))
    parser.add_argument("--port", type=PORT, default=3000, help=h("serve.port"))
    parser.add_argument("--host", default="0.0.0.0", help=h("serve.host"))
    parser.add_argument(
        "--channels",
        default=None,
        metavar="SPEC",
        help=h("serve.channels"),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start the bot with settings from the environment and `.env`; blocks until interrupted."""
    from pitstop.core.config import load_settings

    settings = load_settings()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return serve(
        settings, http=args.http, host=args.host, port=args.port, channels=args.channels, lang=lang_of(args)
    )


def serve(
    settings: Settings,
    *,
    http: bool,
    host: str = "0.0.0.0",
    port: int = 3000,
    channels: str | None = None,
    lang: str = "en",
) -> int:
    """Run the bot for `settings` in HTTP or Socket Mode (also used by `pitstop start`)."""
    if not settings.slack_bot_token:
        raise UsageError(msg("errors.serve.no_bot_token"))
    if http and not settings.slack_signing_secret:
        raise UsageError(msg("errors.serve.no_signing_secret"))
    if not http and not settings.slack_app_token:
        raise UsageError(msg("errors.serve.no_app_token"))
    from pitstop.app.detect import ChannelModes
    from pitstop.app.services import open_services
    from pitstop.bot.app import create_app, make_client

    ChannelModes.parse(channels)  # a bad --channels is refused before anything loads
    client = make_client(settings)
    check_slack(client)  # so is an unreachable Slack or a refused token
    from pitstop.core.i18n import t

    print(t("cli.console.loading", lang), flush=True)
    services = open_services(settings, channel_modes=channels)
    app = create_app(settings, services, client=client)
    try:
        if http:
            from pitstop.bot.http import make_server

            server = make_server(app, services.jobs, settings.slack_signing_secret or "", host, port)
            url = f"http://{host}:{server.server_address[1]}/slack/events"
            print(t("cli.serve.listening", lang, url=url), flush=True)
            server.serve_forever()
        else:
            from slack_bolt.adapter.socket_mode import SocketModeHandler

            print(t("cli.serve.socket_mode", lang), flush=True)
            SocketModeHandler(app, settings.slack_app_token).start()
    except KeyboardInterrupt:
        pass
    finally:
        services.close()
    return 0


def check_slack(client: WebClient) -> None:
    """Call auth.test once: Unreachable (exit 7) with one sentence when Slack cannot be reached or
    refuses the token, instead of the SDK's or Bolt's traceback."""
    from slack_sdk.errors import SlackApiError, SlackClientError

    from pitstop.core.errors import Unreachable

    try:
        client.auth_test()
    except SlackApiError as exc:
        raise Unreachable(msg("security.slack.refused", error=str(exc.response.get("error", "?")))) from None
    except (SlackClientError, OSError) as exc:  # URLError and connection errors are OSErrors
        reason = " ".join(str(getattr(exc, "reason", None) or exc).split())[:200]
        raise Unreachable(msg("security.slack.unreachable", url=client.base_url, reason=reason)) from None

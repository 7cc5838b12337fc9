"""Events API callbacks acknowledged before Bolt runs them (HTTP mode).

Slack wants an Events API callback answered within 3 s and retries it otherwise; under a burst, running
Bolt's middleware, the listener and the payload redaction for every event before answering made the
acknowledgements queue behind each other on one GIL. So the HTTP front (`pitstop.bot.http`), once it
has checked the signature, stores the signed body as one outbox row (`KIND`, keyed by Slack's
`event_id`, so Slack's retries and a replayed request find the same row) and answers 200 as soon as the
row is committed; an outbox worker then runs the stored body through the Bolt app (`dispatch_entry`),
where every listener, the surrogate scrub and the error handler run as before. A process that dies
after the 200 leaves the row pending, and the next start dispatches it. The listener's own outbox put
dedupes the app_mention + message pair and a row dispatched twice (a kill after the listener stored
its work but before the event row was marked done).

The body is stored as Slack sent it, not redacted: redaction (and the listener's own redacted row) run
when it is dispatched, usually within a second, and the row's payload is emptied then (docs/SECURITY.md).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from slack_bolt import App
from slack_bolt.request import BoltRequest

from pitstop.app.outbox import Entry

KIND = "event"  # outbox rows: one signed Events API callback waiting for Bolt
_LOG = logging.getLogger(__name__)


def stored_event(body: str) -> tuple[str, dict[str, Any]] | None:
    """(delivery key, parsed body) when `body` is an Events API callback that can be acknowledged before
    Bolt runs; None for everything else (commands, interactions, url_verification, a malformed event),
    which Bolt answers itself."""
    if not body.startswith("{"):
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "event_callback":
        return None
    event_id = data.get("event_id")
    if not isinstance(event_id, str) or not event_id or not isinstance(data.get("event"), dict):
        return None
    return f"event:{event_id}", data


def dispatch_entry(app: App, entry: Entry) -> None:
    """Run one stored callback through the Bolt app (its signature was checked when it arrived)."""
    response = app.dispatch(BoltRequest(body=json.dumps(entry.payload)))  # ASCII JSON, as Slack sends it
    if response.status != 200:  # no listener matched (404) or Bolt could not read it (500): nothing to retry
        _LOG.warning("stored Slack event %s was answered %d by the app", entry.key, response.status)

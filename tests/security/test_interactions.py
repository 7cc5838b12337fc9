"""Every interaction is authorized on the server: tampered clicks and form submissions, sent as
genuinely signed HTTP requests into the Bolt app, are all refused with nothing stored, nothing
posted and nothing taught to the KB (issue 12, item 5).

What Slack asserts (who acted, in which conversation) is trusted; what Pitstop wrote into buttons
and modals is not: button values only name server-side state, checked against the store; modal
metadata is signed with the server's key and bound to the modal and the person it was opened for.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pitstop.app import flows
from pitstop.bot import ids
from pitstop.bot.render import blocks
from pitstop.core.i18n import t
from pitstop.core.sealing import Sealer
from tests.bot.conftest import ALLOW_ALL, payload
from tests.bot.interactions import as_form, click, elements, submit_view, suggest
from tests.bot.recorder import BOT_USER
from tests.bot.slack_checks import all_text
from tests.incidents.learning_support import AV

FORM = "application/x-www-form-urlencoded"
CAUSE = "nvml-driver-library-mismatch"
PASTE = "Failed to initialize NVML: Driver/library version mismatch"
SQL_CAUSE = "no-such-pitfall'; drop table x;--"
USER, OTHER, MAINTAINER = "W111", "W222", "W999"
HERE, ELSEWHERE = "C111", "C222"
# Calls that would change what people see in a conversation or open a form: none may follow a refusal.
EFFECTS = (
    "chat.postMessage",
    "chat.update",
    "chat.delete",
    "views.open",
    "views.update",
    "views.push",
    "files.getUploadURLExternal",
    "files.completeUploadExternal",
)


@dataclass
class World:
    """A bot with incidents in two conversations, a resolved one, a draft, and genuinely opened modals."""

    bot: Any
    shared: Path
    answer: dict[str, Any]  # the answer message posted in HERE, as a click payload's `message`
    mine: int  # the answer's incident (HERE, open)
    theirs: int  # an incident of ELSEWHERE
    resolved: int  # an incident of HERE that is already resolved
    draft: str
    draft_message: dict[str, Any]
    resolution_view: dict[str, Any]  # opened by USER from the answer
    edit_view: dict[str, Any]  # opened by MAINTAINER from the draft's message
    sealer: Sealer  # the bot's own key (same database), to sign what the bot would have signed

    def press(
        self, action: str, value: str, *, user: str = USER, message: dict[str, Any] | None = None
    ) -> str:
        element = {
            "type": "button",
            "action_id": action,
            "value": value,
            "text": {"type": "plain_text", "text": "x"},
        }
        target = message or self.answer
        return click(self.shared, element, message=target, response_url=self.respond, channel=HERE, user=user)

    def submit(
        self, view: dict[str, Any], values: dict[str, Any], *, user: str = USER, **view_changes: Any
    ) -> str:
        return submit_view(self.shared, {**view, **view_changes}, values, user=user)

    @property
    def respond(self) -> str:
        return self.bot.recorder.url + "/respond/1"


def cause_values(cause: str) -> dict[str, Any]:
    option = {"text": {"type": "plain_text", "text": cause}, "value": cause}
    return {"cause": {ids.CAUSE_SELECT: {"type": "external_select", "selected_option": option}}}


def edit_values(view: dict[str, Any]) -> dict[str, Any]:
    prefilled = {b["block_id"]: b["element"].get("initial_value", "") for b in view["blocks"]}
    return {
        block: {"value": {"type": "plain_text_input", "value": text + " (edited)"}}
        for block, text in prefilled.items()
    }


def home_click(world: World, action: str, value: str) -> str:
    """A click on the App Home tab: no conversation in the payload."""
    body = payload(world.shared, "bolt-block-actions-button.json")
    element = {"type": "button", "action_id": action, "value": value, "block_id": "b", "action_ts": "1.2"}
    body.update(
        actions=[element], user={**body["user"], "id": USER}, container={"type": "view", "view_id": "V1"}
    )
    body["view"] = {"id": "V1", "type": "home"}
    body.pop("channel", None), body.pop("message", None)
    return as_form(body)


def swapped_incident(world: World) -> str:
    """The genuine metadata with its incident id changed and its tag kept."""
    genuine = world.resolution_view["private_metadata"]
    assert f'"i":{world.mine}' in genuine
    return genuine.replace(f'"i":{world.mine}', f'"i":{world.theirs}')


@dataclass(frozen=True)
class Case:
    """One tampered interaction: how to build its signed body, and words the refusal must contain."""

    name: str
    body: Callable[[World], str]
    refusal: str


MAINTAINERS_ONLY = "Only Pitstop maintainers"
TAMPERED = t("security.interaction.tampered", "en")[:40]
OTHER_CHANNEL = "belongs to another conversation"
NO_INCIDENT = "there is no incident"
STALE = "that button no longer works"
ALREADY = "was already resolved"

CASES: tuple[Case, ...] = (
    # Feedback buttons: the incident must be this conversation's, the cause one the KB holds.
    Case(
        "feedback on another conversation's incident",
        lambda w: w.press(ids.ACTION_THIS, ids.pack(i=w.theirs, p=CAUSE)),
        OTHER_CHANNEL,
    ),
    Case(
        "feedback with an unknown, SQL-shaped cause id",
        lambda w: w.press(ids.ACTION_THIS, ids.pack(i=w.mine, p=SQL_CAUSE)),
        "no cause",
    ),
    Case(
        "'not it' with an unknown cause id",
        lambda w: w.press(ids.ACTION_NOT_IT, ids.pack(i=w.mine, p="x" * 300)),
        "no cause",
    ),
    Case(
        "feedback with an incident id that is not a number",
        lambda w: w.press(ids.ACTION_THIS, ids.pack(i="1 OR 1=1", p=CAUSE)),
        STALE,
    ),
    Case(
        "feedback with an incident id beyond SQLite's integers",
        lambda w: w.press(ids.ACTION_THIS, ids.pack(i=2**70, p=CAUSE)),
        NO_INCIDENT,
    ),
    Case(
        "feedback on an incident that does not exist",
        lambda w: w.press(ids.ACTION_THIS, ids.pack(i=987654, p=CAUSE)),
        NO_INCIDENT,
    ),
    Case(
        "feedback from App Home (no conversation)",
        lambda w: home_click(w, ids.ACTION_THIS, ids.pack(i=w.mine, p=CAUSE)),
        OTHER_CHANNEL,
    ),
    # "Details": its nearest examples quote pastes, so only for this conversation's incident.
    Case(
        "details of another conversation's incident",
        lambda w: w.press(ids.ACTION_DETAILS, ids.pack(i=w.theirs, p=CAUSE)),
        OTHER_CHANNEL,
    ),
    Case(
        "details of a cause the answer did not propose",
        lambda w: w.press(ids.ACTION_DETAILS, ids.pack(i=w.mine, p=SQL_CAUSE)),
        "has no recorded answer with",
    ),
    # The App Home language menu: only the person's own setting, only a known language.
    Case(
        "language menu with a forged choice",
        lambda w: home_click(w, ids.ACTION_LANG, ids.pack(l="zh'; drop table user_prefs;--")),
        "Choose en, zh or auto",
    ),
    # "Record resolution": only for an unresolved incident of this conversation.
    Case(
        "record resolution for another conversation's incident",
        lambda w: w.press(ids.ACTION_RESOLVE, ids.pack(i=w.theirs)),
        OTHER_CHANNEL,
    ),
    Case(
        "record resolution for a resolved incident",
        lambda w: w.press(ids.ACTION_RESOLVE, ids.pack(i=w.resolved)),
        ALREADY,
    ),
    # "Run checks": with an incident, only this conversation's (its pasted error would leak here).
    Case(
        "run checks with another conversation's incident",
        lambda w: w.press(ids.ACTION_RUN, ids.pack(i=w.theirs, h="gpu-node-3")),
        OTHER_CHANNEL,
    ),
    Case(
        "host menu option with another conversation's incident",
        lambda w: w.press(ids.ACTION_PICK_HOST, ids.pack(i=w.theirs, h="gpu-node-3")),
        OTHER_CHANNEL,
    ),
    # The resolution modal: signed metadata, bound to the modal and the person; then the cause.
    Case(
        "resolution with unsigned metadata naming a channel",
        lambda w: w.submit(
            w.resolution_view, cause_values(CAUSE), private_metadata=ids.pack(i=w.mine, c="C999", t="1.1")
        ),
        TAMPERED,
    ),
    Case(
        "resolution with empty metadata",
        lambda w: w.submit(w.resolution_view, cause_values(CAUSE), private_metadata=""),
        TAMPERED,
    ),
    Case(
        "resolution signed with another key",
        lambda w: w.submit(
            w.resolution_view,
            cause_values(CAUSE),
            private_metadata=Sealer(os.urandom(32)).seal(ids.VIEW_RESOLUTION, {"i": w.mine, "u": USER}),
        ),
        TAMPERED,
    ),
    Case(
        "resolution metadata naming another incident, tag kept",
        lambda w: w.submit(w.resolution_view, cause_values(CAUSE), private_metadata=swapped_incident(w)),
        TAMPERED,
    ),
    Case(
        "resolution metadata with the tag cut off",
        lambda w: w.submit(
            w.resolution_view,
            cause_values(CAUSE),
            private_metadata=w.resolution_view["private_metadata"].rpartition(".")[0],
        ),
        TAMPERED,
    ),
    Case(
        "resolution submitted by someone the modal was not opened for",
        lambda w: w.submit(w.resolution_view, cause_values(CAUSE), user=OTHER),
        TAMPERED,
    ),
    Case(
        "resolution with the draft-edit modal's metadata",
        lambda w: w.submit(
            w.resolution_view, cause_values(CAUSE), private_metadata=w.edit_view["private_metadata"]
        ),
        TAMPERED,
    ),
    Case(
        "resolution with an unknown, SQL-shaped cause id",
        lambda w: w.submit(w.resolution_view, cause_values(SQL_CAUSE)),
        "no cause",
    ),
    Case(
        "resolution replayed for a resolved incident",
        lambda w: w.submit(
            w.resolution_view,
            cause_values(CAUSE),
            private_metadata=w.sealer.seal(ids.VIEW_RESOLUTION, {"i": w.resolved, "u": USER}),
        ),
        ALREADY,
    ),
    Case(
        "cause menu of a modal with forged metadata",
        lambda w: suggest(
            {**w.resolution_view, "private_metadata": ids.pack(i=w.theirs)}, ids.CAUSE_SELECT, ""
        ),
        "",
    ),
    # Draft review: maintainers only; the edit modal's metadata signed like the resolution's.
    Case(
        "draft approved by a non-maintainer",
        lambda w: w.press(ids.ACTION_APPROVE, ids.pack(d=w.draft), message=w.draft_message),
        MAINTAINERS_ONLY,
    ),
    Case(
        "draft rejected by a non-maintainer",
        lambda w: w.press(ids.ACTION_REJECT, ids.pack(d=w.draft), message=w.draft_message),
        MAINTAINERS_ONLY,
    ),
    Case(
        "draft edit opened by a non-maintainer",
        lambda w: w.press(ids.ACTION_EDIT, ids.pack(d=w.draft), message=w.draft_message),
        MAINTAINERS_ONLY,
    ),
    Case(
        "draft edit submitted by a non-maintainer with a maintainer's modal",
        lambda w: w.submit(w.edit_view, edit_values(w.edit_view)),
        TAMPERED,
    ),
    Case(
        "draft edit submitted by a non-maintainer with metadata signed for him",
        lambda w: w.submit(
            w.edit_view,
            edit_values(w.edit_view),
            private_metadata=w.sealer.seal(
                ids.VIEW_DRAFT_EDIT, {"d": w.draft, "c": HERE, "m": "1.1", "u": USER}
            ),
        ),
        MAINTAINERS_ONLY,
    ),
    Case(
        "draft edit by a maintainer with unsigned metadata naming another message",
        lambda w: w.submit(
            w.edit_view,
            edit_values(w.edit_view),
            user=MAINTAINER,
            private_metadata=ids.pack(d=w.draft, c="C999", m="1.1"),
        ),
        TAMPERED,
    ),
    Case(
        "draft approved by a maintainer with an unknown, SQL-shaped draft id",
        lambda w: w.press(
            ids.ACTION_APPROVE, ids.pack(d=SQL_CAUSE), user=MAINTAINER, message=w.draft_message
        ),
        "no draft",
    ),
)


def fingerprint(db_path: Path) -> dict[str, str]:
    """A digest of every table's rows (KB, FTS, embeddings, incidents, feedback, drafts, audit...), but
    the replay guard's memory of signatures it accepted (`slack_requests`: every request leaves one)."""
    with sqlite3.connect(db_path) as con:
        names = [
            r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        return {
            name: hashlib.sha256(repr(con.execute(f'SELECT * FROM "{name}"').fetchall()).encode()).hexdigest()
            for name in names
            if not name.startswith("sqlite_") and name != "slack_requests"
        }


@pytest.fixture
def world(serve_app, shared_dir, tmp_path) -> World:
    bot = serve_app(policy=ALLOW_ALL, maintainers=(MAINTAINER,), pitfalls_dir=tmp_path / "pitfalls")
    services = bot.services
    mention = payload(shared_dir, "bolt-app-mention.json")
    mention["event"]["text"] = f"<@{BOT_USER}> {PASTE}"
    assert bot.send(json.dumps(mention))[0] == 200
    posted = bot.recorder.wait_for("chat.postMessage")[0].body
    answer = {"ts": "1700000000.000001", "thread_ts": mention["event"]["ts"], "blocks": posted["blocks"]}
    mine = services.incidents.find_by_thread(HERE, mention["event"]["ts"]).id

    def incident(channel: str, ts: str, text: str) -> int:
        return services.incidents.record_answer(
            channel=channel, thread_ts=ts, user=USER, text=text, answer=services.kb.ask(text)
        )

    theirs = incident(ELSEWHERE, "1700000200.000001", PASTE)
    resolved = incident(HERE, "1700000300.000001", PASTE)
    services.incidents.resolve(resolved, user=USER, cause_id=CAUSE)
    taught = incident(HERE, "1700000400.000001", AV.symptoms[0])
    services.incidents.resolve(taught, user=USER, new_cause=AV)
    (card,) = flows.pending_drafts(services, taught)
    draft_message = {
        **blocks.draft_message(card).kwargs(),
        "ts": "1700000400.000009",
        "thread_ts": "1700000400.000001",
    }

    resolve = next(e for e in elements(answer) if e["action_id"] == ids.ACTION_RESOLVE)
    bot.send(
        click(shared_dir, resolve, message=answer, response_url=bot.recorder.url + "/r", user=USER),
        content_type=FORM,
    )
    edit = next(e for e in elements(draft_message) if e["action_id"] == ids.ACTION_EDIT)
    bot.send(
        click(shared_dir, edit, message=draft_message, response_url=bot.recorder.url + "/r", user=MAINTAINER),
        content_type=FORM,
    )
    resolution_view, edit_view = (c.body["view"] for c in bot.recorder.wait_for("views.open", 2))
    assert (
        resolution_view["callback_id"] == ids.VIEW_RESOLUTION
        and edit_view["callback_id"] == ids.VIEW_DRAFT_EDIT
    )
    bot.idle()
    bot.recorder.clear()
    sealer = Sealer.from_db(services.kb.db)
    return World(
        bot,
        shared_dir,
        answer,
        mine,
        theirs,
        resolved,
        card.id,
        draft_message,
        resolution_view,
        edit_view,
        sealer,
    )


def test_every_tampered_interaction_is_refused_and_changes_nothing(world: World) -> None:
    bot = world.bot
    db_path = bot.services.db_path
    failures = []
    for case in CASES:
        before = fingerprint(db_path)
        bot.recorder.clear()
        status, answer = bot.send(case.body(world), content_type=FORM)
        bot.idle()
        changed = sorted(name for name, digest in fingerprint(db_path).items() if before.get(name) != digest)
        effects = [m for m in EFFECTS if bot.recorder.of(m)]
        told = [c.body for c in bot.recorder.of("chat.postEphemeral")]
        told += [c.body["view"] for c in bot.recorder.of("views.publish")]  # the Home tab, with the sentence
        shown = " ".join(all_text(b) for b in told) + " " + urllib.parse.unquote(answer)
        problems = []
        if status != 200 or "Traceback" in answer:
            problems.append(f"HTTP {status} {answer[:200]}")
        if changed:
            problems.append(f"stored: {changed}")
        if effects:
            problems.append(f"Slack calls: {effects}")
        if any(c.body.get("channel") != HERE for c in bot.recorder.of("chat.postEphemeral")):
            problems.append("told elsewhere than where the person acted")
        if case.refusal and case.refusal not in shown:
            problems.append(f"no refusal saying {case.refusal!r}; shown: {shown[:300]!r}")
        if not case.refusal and json.loads(answer) != {"options": []}:
            problems.append(f"menu offered options: {answer[:200]}")
        if problems:
            failures.append(f"{case.name}: {'; '.join(problems)}")
    assert not failures, "\n".join(failures)
    assert bot.services.incidents.get(world.mine).status == "open"
    assert bot.services.kb.get(world.draft).status == "draft"
    assert bot.services.kb.db.execute("SELECT COUNT(*) FROM feedback").fetchone()[0] == 0


def test_the_reply_goes_to_the_incidents_thread_whatever_the_payload_names(world: World) -> None:
    """A genuine submission whose payload names another channel and response URL: the resolution is
    recorded and answered in the incident's own thread, nowhere else."""
    bot = world.bot
    body = payload(world.shared, "bolt-view-submission.json")
    body["view"].update(
        callback_id=ids.VIEW_RESOLUTION,
        private_metadata=world.resolution_view["private_metadata"],
        blocks=world.resolution_view["blocks"],
        state={"values": cause_values(CAUSE)},
    )
    body["user"]["id"] = USER
    body["channel"] = {"id": "C999", "name": "elsewhere"}
    body["response_urls"] = [
        {"block_id": "b", "action_id": "a", "channel_id": "C999", "response_url": world.respond}
    ]
    sent_at = int(time.time())
    assert bot.send(as_form(body), content_type=FORM, timestamp=sent_at)[0] == 200
    bot.idle()
    record = bot.services.incidents.get(world.mine)
    assert record.status == "resolved" and record.resolution.cause_id == CAUSE
    posted = bot.recorder.of("chat.postMessage")
    assert posted and {(p.body["channel"], p.body["thread_ts"]) for p in posted} == {
        (HERE, world.answer["thread_ts"])
    }
    assert not bot.recorder.of("respond")
    # The same signed request again (a replay): the replay guard answers an empty 200, nothing runs.
    bot.recorder.clear()
    assert bot.send(as_form(body), content_type=FORM, timestamp=sent_at) == (200, "")
    bot.idle()
    assert not bot.recorder.of("chat.postMessage")
    # The same form submitted again later (a new request): refused in the modal, the first stands.
    status, answer = bot.send(as_form(body), content_type=FORM, timestamp=sent_at + 1)
    bot.idle()
    assert status == 200 and ALREADY in answer and not bot.recorder.of("chat.postMessage")

"""`pitstop console`: the bot's handlers in a terminal, with the buttons as commands.

On a terminal it is a prompt_toolkit prompt with history and bracketed paste: a multi-paragraph
paste (a chained traceback with its blank lines) arrives as one entry, one incident, one answer;
Esc Enter adds a line by hand. From a script on stdin each paste ends at an empty line or at the
next command, except that a blank line followed by a traceback's continuation ("During handling
of the above exception...", "The above exception was the direct cause...") keeps the paste going.
Output wraps to the terminal's width; colour only on a terminal and never with NO_COLOR.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from pitstop.app import flows
from pitstop.app.cards import AnswerCard, DiagnosisCard, DraftCard, Notice
from pitstop.app.services import Services
from pitstop.bot.errors import describe
from pitstop.bot.render import text as render
from pitstop.core.config import local_user
from pitstop.core.errors import UsageError
from pitstop.core.i18n import msg, t
from pitstop.core.i18n import render as render_msg

CHANNEL = "console"
# A blank line followed by one of these does not end a paste: Python prints them between the
# paragraphs of one chained traceback.
CONTINUATION = re.compile(
    r"^(During handling of the above exception|The above exception was the direct cause|"
    r"Traceback \(most recent call last\)|\s+File \"|\s+\S)"
)
STATS_DAYS = 30


@dataclass
class Session:
    """What the buttons of the last answer refer to: its incident, thread, causes and language."""

    thread: str | None = None
    incident: int | None = None
    causes: tuple[str, ...] = ()
    lang: str = "en"
    text: str | None = None
    threads: Iterator[int] = field(default_factory=lambda: itertools.count(1))


class Console:
    """Reads pastes and commands, calls `app.flows`, prints `bot.render.text`."""

    def __init__(
        self, services: Services, out: TextIO, user: str | None = None, lang: str | None = None
    ) -> None:
        self.services = services
        self.out = out
        self.user = user or local_user()
        if lang:  # `pitstop --lang X console` is `:lang X` typed first (stored for this user)
            flows.set_language(services, self.user, lang)
        self.session = Session()
        self._epoch = f"{time.time():.0f}"
        self._commands: dict[str, Callable[[str], str]] = {
            "/diagnose": self._diagnose,
            ":run": self._run,
            ":this": lambda a: self._feedback(a, True),
            ":notit": lambda a: self._feedback(a, False),
            ":resolve": self._resolve,
            ":resolve-new": self._resolve_new,
            ":search": self._search,
            ":drafts": lambda _: render.drafts_text(flows.pending_drafts(self.services), self.lang),
            ":approve": lambda a: self._decide(flows.approve_draft, a),
            ":reject": lambda a: self._decide(flows.reject_draft, a),
            ":help": lambda _: t("console.help", self.lang),
            ":lang": lambda a: render.notice_text(flows.set_language(self.services, self.user, a.strip())),
            ":stats": lambda _: render.stats_text(
                flows.stats(self.services, STATS_DAYS, self.lang), STATS_DAYS, self.lang
            ),
        }

    def run(self, lines: Iterable[str], prompt: bool = False) -> None:
        """Process `lines` (a script) until EOF or `:quit`."""
        paste: list[str] = []
        blank = False  # the paste saw a blank line that may end it
        if prompt:
            self._print(t("console.help", self.lang))
        for raw in lines:
            line = raw.rstrip("\n")
            word = line.strip().split(" ", 1)[0]
            ends = word in self._commands or word == ":quit" or (blank and not CONTINUATION.match(line))
            if paste and line.strip() and ends:
                self._print(self.handle("\n".join(paste).strip()))
                paste, blank = [], False
            if word == ":quit":
                return
            if word in self._commands or (word[:1] == ":" and not paste):
                self._print(self.handle(line.strip()))
            elif line.strip():
                paste.append(line)
                blank = False
            elif paste:
                paste.append("")
                blank = True
        if paste:
            self._print(self.handle("\n".join(paste).strip()))

    def interactive(self, history: str | None = None) -> None:
        """A prompt with line editing, history and bracketed paste, until EOF, Ctrl-C or `:quit`."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        from pitstop.bot.history import PrivateHistory

        session: PromptSession[str] = PromptSession(
            history=PrivateHistory(history) if history else InMemoryHistory(), multiline=False
        )
        self._print(t("console.help", self.lang))
        while True:
            try:
                entry = session.prompt("pitstop> ").strip()
            except (EOFError, KeyboardInterrupt):
                return
            if entry == ":quit":
                return
            if entry:
                self._print(self.handle(entry))

    def handle(self, entry: str) -> str:
        """One paste or one command; returns what to print (errors become a sentence)."""
        word, _, rest = entry.partition(" ")
        try:
            if word in self._commands:
                return self._commands[word](rest.strip())
            if word.startswith(":"):
                raise UsageError(msg("console.unknown_command", word=word))
            return self._answer(entry)
        except Exception as exc:  # noqa: BLE001 - the console never shows a traceback
            return render.notice_text(Notice(describe(exc, self.lang)))

    @property
    def lang(self) -> str:
        """The console's language: the user's choice (`:lang`), else the last paste's, else English."""
        return flows.reader_lang(self.services, self.user, self.session.lang)

    def _print(self, text: str) -> None:
        render.show(text, self.out)

    def _new_thread(self) -> str:
        return f"{self._epoch}.{next(self.session.threads):06d}"

    def _answer(self, paste: str) -> str:
        thread = self._new_thread()
        card: AnswerCard = flows.answer(
            self.services, paste, channel=CHANNEL, thread_ts=thread, user=self.user
        )
        self.session = Session(
            thread,
            card.incident,
            tuple(c.pitfall for c in card.causes),
            card.lang,
            paste,
            self.session.threads,
        )
        return render.answer_text(card)

    def _diagnose(self, args: str) -> str:
        target, _, error_text = args.partition(" ")
        self.session = Session(
            self._new_thread(), None, (), self.session.lang, error_text.strip() or None, self.session.threads
        )
        return self._checks(target)

    def _run(self, args: str) -> str:
        if not args:
            raise UsageError(msg("console.which_host"))
        if self.session.thread is None:
            self.session.thread = self._new_thread()
        return self._checks(args.split()[0])

    def _checks(self, target: str) -> str:
        hosts = flows.authorize(self.services, target, user=self.user, channel=CHANNEL, origin="console")

        def progress(card: DiagnosisCard) -> None:
            done = [h for h in card.hosts if h.status != "pending"]
            last = done[-1].host if done else ""
            self._print(t("console.progress", self.lang, host=last, done=len(done), total=len(card.hosts)))

        if len(hosts) == 1:
            self._print(t("console.checking.one", self.lang, target=target))
        else:
            self._print(t("console.checking", self.lang, target=target, n=len(hosts)))
        result = flows.diagnose(
            self.services,
            hosts,
            target,
            self.session.text,
            user=self.user,
            channel=CHANNEL,
            thread_ts=self.session.thread,
            origin="console",
            on_progress=progress,
            lang=self.lang,
        )
        self.session.incident = result.card.incident
        return render.diagnosis_text(result)

    def _incident(self) -> int:
        if self.session.incident is None:
            raise UsageError(msg("console.paste_first"))
        return self.session.incident

    def _cause(self, ref: str) -> str:
        """A cause of the last answer, by its number or its id; after a diagnosis (no numbered list),
        the id of a cause it can be resolved as (`:resolve` lists them); anything else is refused."""
        ref, causes = ref.strip(), self.session.causes
        if not ref:
            raise UsageError(msg("console.cause.which"))
        if not causes:
            form = flows.resolution_form(self.services, self._incident(), self.user)
            if ref in {c.pitfall for c in form.choices}:
                return ref
            raise UsageError(msg("console.cause.no_list", ref=ref))
        if ref.isdigit() and 1 <= int(ref) <= len(causes):
            return causes[int(ref) - 1]
        if ref in causes:
            return ref
        raise UsageError(msg("console.cause.unknown", ref=ref, n=len(causes)))

    def _feedback(self, args: str, helpful: bool) -> str:
        notice = flows.feedback(
            self.services, self._incident(), user=self.user, pitfall=self._cause(args), helpful=helpful
        )
        return render.notice_text(notice)

    def _resolve(self, args: str) -> str:
        incident = self._incident()
        if not args:
            return render.resolution_text(flows.resolution_form(self.services, incident, self.user))
        ref, _, notes = args.partition(" ")
        notice = flows.resolve(
            self.services, incident, user=self.user, cause_id=self._cause(ref), notes=notes, vouched=True
        )
        return render.notice_text(notice)

    def _resolve_new(self, args: str) -> str:
        from pitstop.incidents.model import NewCause

        parts = [p.strip() for p in args.split("|")] + [""] * 5
        title, what, fix, symptoms, notes = parts[:5]
        cause = NewCause(
            title=title,
            what=what,
            fix=fix,
            symptoms=tuple(s.strip() for s in symptoms.split(";") if s.strip()),
        )
        incident = self._incident()
        notice = flows.resolve(
            self.services, incident, user=self.user, new_cause=cause, notes=notes, vouched=True
        )
        pending = flows.pending_drafts(self.services, incident, self.lang)
        return render.notice_text(notice) + ("\n" + render.drafts_text(pending, self.lang) if pending else "")

    def _decide(self, decision: Callable[..., DraftCard], args: str) -> str:
        if not args.strip():
            raise UsageError(msg("console.which_draft"))
        outcome = decision(self.services, args.split()[0], user=self.user).outcome
        return render.notice_text(Notice(render_msg(outcome, self.lang)))

    def _search(self, args: str) -> str:
        choices = flows.search_causes(self.services, args, self.session.incident, self.session.lang)
        found = "\n".join(f"  {c.pitfall}: {c.title}" for c in choices)
        return found or t("console.nothing_found", self.lang)

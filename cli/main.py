"""Pitstop: find the known root cause of a GPU-cluster error and check it on the hosts, read-only.

Each sub-command lives in its own module under `pitstop.cli` and exposes `register(subparsers)`;
the module sets `func` on its parser. Heavy imports happen inside the handlers, so
`pitstop --help` stays fast. `--lang` and `--verbose` are accepted before or after the command,
and a command taking words (`ask TEXT...`) accepts its options between them.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

from pitstop.cli.helptext import chosen, h, help_lang, use, wrap
from pitstop.core.errors import PitstopError
from pitstop.core.i18n import CJK
from pitstop.core.redact import install_log_redaction
from pitstop.core.terminal import PrintableStream, printable

if TYPE_CHECKING:
    from pitstop.core.i18n import Lang

COMMAND_MODULES: tuple[str, ...] = (
    "pitstop.cli.ask",
    "pitstop.cli.kb",
    "pitstop.cli.eval",
    "pitstop.cli.diagnose",
    "pitstop.cli.inventory",
    "pitstop.cli.lab",
    "pitstop.cli.serve",
    "pitstop.cli.console",
    "pitstop.cli.incidents",
    "pitstop.cli.stats",
    "pitstop.cli.audit",
    "pitstop.cli.policy",
    "pitstop.cli.start",
)


def version() -> str:
    """The installed package's version (the source tree's when not installed)."""
    from importlib import metadata

    try:
        return metadata.version("pitstop")
    except metadata.PackageNotFoundError:
        return "0.2.0"


class _Version(argparse.Action):
    """`--version`, looked up only when asked (importlib.metadata costs about 30 ms of every start)."""

    def __init__(self, option_strings: list[str], dest: str) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=h("main.version"))

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"pitstop {version()}")
        parser.exit()


def _add_common(parser: argparse.ArgumentParser, default: object) -> None:
    """`--lang` and `--verbose`; sub-commands use SUPPRESS so they never override the top-level value."""
    parser.add_argument(
        "--lang",
        choices=("en", "zh", "auto"),
        default=default,
        help=h("main.lang"),
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=False if default is None else default,
        help=h("main.v"),
    )


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter with the "usage:" prefix in the help language, wrapping Chinese text too."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width) if CJK.search(text) else super()._split_lines(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not CJK.search(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, h("main.usage") if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose options may also sit between the words of a word-list positional
    (`pitstop ask NCCL --json timeout`) once `intermixed` is set (leaf commands only)."""

    intermixed = False
    _mixing = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """argparse's parser with its headings, `-h/--help` and error lines in the help language."""
        super().__init__(*args, **{"formatter_class": _Formatter, **kwargs, "add_help": False})
        self._positionals.title = h("main.positionals")
        self._optionals.title = h("main.options")
        if kwargs.get("add_help", True):
            self.add_argument("-h", "--help", action="help", help=h("main.help"))

    def error(self, message: str) -> NoReturn:
        """argparse's usage and error line (exit status 2), in the help language."""
        from pitstop.cli.argerrors import error_line

        self.print_usage(sys.stderr)
        self.exit(2, printable(error_line(self.prog, message, chosen())) + "\n")

    def parse_known_args(  # type: ignore[override]
        self, args: list[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse options first and the positionals from what is left, when `intermixed`."""
        if not self.intermixed or self._mixing:
            return super().parse_known_args(args, namespace)
        self._mixing, usage = True, self.usage
        if usage is None:  # argparse would cut its own English "usage: " (7 characters) off the usage line
            self.usage = self.format_usage().removeprefix(h("main.usage")).strip()
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing, self.usage = False, usage


def _takes_words(parser: argparse.ArgumentParser) -> bool:
    """A leaf command with a positional of several words (TEXT..., FILES...)."""
    positionals = parser._get_positional_actions()
    return all(not isinstance(a, argparse._SubParsersAction) for a in positionals) and any(
        a.nargs in ("*", "+") for a in positionals
    )


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                found += [child, *_subparsers(child)]
    return found


def _command_of(argv: list[str]) -> str | None:
    """The sub-command `argv` names (its first word that is not an option or `--lang`'s value)."""
    words = iter(argv)
    for word in words:
        if word == "--lang":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def build_parser(only: str | None = None, lang: Lang = "en") -> argparse.ArgumentParser:
    """Build the argument parser from the registered command modules: all of them, or just the module of
    the command `only` when it is one (each import costs startup time: `pitstop ask` imports one), with
    its help texts in `lang`."""
    use(lang)
    parser = Parser(
        prog="pitstop",
        description=h("main.description"),
        epilog=h("main.exit_codes"),
    )
    parser.add_argument("--version", action=_Version)
    _add_common(parser, None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [name for name in COMMAND_MODULES if name.rpartition(".")[2] == only] or COMMAND_MODULES
    for name in modules:
        importlib.import_module(name).register(sub)
    for child in _subparsers(parser):
        if not any("--lang" in a.option_strings for a in child._actions):
            _add_common(child, argparse.SUPPRESS)
        if isinstance(child, Parser):
            child.intermixed = _takes_words(child)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    try:
        return _main(argv)
    finally:
        # Everything still alive is about to be torn down with the interpreter. Freezing it spares the
        # exit's garbage collection over every loaded module's objects (about a tenth of a short
        # command's CPU: bench/RESULTS.md, "second ask"). Exit handlers (atexit, logging's flush) still
        # run; only unreachable cycles made before this point are left for the process's end to free.
        gc.freeze()


def _main(argv: list[str] | None) -> int:
    install_log_redaction()
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(_command_of(argv), help_lang(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    stdout = sys.stdout
    if args.command != "console":  # the console escapes what it shows itself (bot.render.text.show)
        sys.stdout = cast(TextIO, PrintableStream(stdout))
    try:
        return int(args.func(args) or 0)
    except PitstopError as exc:
        from pitstop.core.i18n import resolve_lang, t

        lang = resolve_lang(None, getattr(args, "lang", None))
        print(t("cli.error", lang, message=printable(exc.render(lang))), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout = stdout


if __name__ == "__main__":
    sys.exit(main())

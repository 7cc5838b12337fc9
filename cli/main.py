"""The `pitstop` command: a thin argparse front over kb/, collectors/ and bot/.

Each sub-command lives in its own module under `pitstop.commands` and exposes
`register(subparsers)`; the module sets `func` on its parser. Heavy imports happen
inside the handlers, so `pitstop --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from pitstop.core.errors import PitstopError
from pitstop.core.redact import install_log_redaction

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


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser from the registered command modules."""
    parser = argparse.ArgumentParser(prog="pitstop", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    install_log_redaction()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except PitstopError as exc:
        print(f"pitstop: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""argparse types for numbers with a sensible range: a negative count or timeout is refused at parse time
with argparse's one-line error (exit 2), naming the option, in the help language."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from pitstop.cli.helptext import chosen
from pitstop.core.i18n import Msg, msg


def number(kind: type[int] | type[float], low: float, high: float | None = None) -> Callable[[str], float]:
    """A `type=` for argparse: `kind` (int or float) in [low, high]."""

    def refuse(reason: Msg) -> argparse.ArgumentTypeError:
        return argparse.ArgumentTypeError(reason.render(chosen()))

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise refuse(msg("security.arg.number", value=text[:40])) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise refuse(msg("security.arg.number", value=text[:40]))
        if value < low:
            raise refuse(msg("security.arg.at_least", low=low, value=text[:40]))
        if high is not None and value > high:
            raise refuse(msg("security.arg.at_most", high=high, value=text[:40]))
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


COUNT = number(int, 1)  # how many results, rows, hosts: at least one
ID = number(int, 1)  # incident numbers start at 1
PORT = number(int, 0, 65535)  # 0: any free port
POSITIVE = number(float, 0.001)  # a timeout in seconds, a period in days: above zero

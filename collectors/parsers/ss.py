"""`ss -ltn` -> listening TCP sockets (local address and port)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

_HEADER = re.compile(r"^(?:Netid\s+)?State\s+Recv-Q\s+Send-Q\s+Local\s+Address:Port", re.I)
_ROW = re.compile(
    r"^(?:tcp\s+)?(?P<state>LISTEN|UNCONN|ESTAB)\s+\d+\s+\d+\s+(?P<local>\S+):(?P<port>\d+|\*)\s"
)


@dataclass(frozen=True)
class Listener:
    """One socket: state, local address, port and the line."""

    state: str
    address: str
    port: int | None
    line: str


@dataclass(frozen=True)
class Sockets:
    """Sockets listed; `header` is the column header line (None: not `ss` output)."""

    sockets: tuple[Listener, ...] = ()
    header: str | None = None

    def listening(self, port: int) -> tuple[Listener, ...]:
        """TCP sockets listening on `port`."""
        return tuple(s for s in self.sockets if s.state == "LISTEN" and s.port == port)


def parse(text: str) -> Sockets:
    """Rows after the header; lines that are not rows are ignored."""
    header = None
    rows = []
    for raw in clean_lines(text):
        line = raw.strip()
        if header is None and _HEADER.match(line):
            header = line
        elif (m := _ROW.match(line + " ")) is not None:
            port = m.group("port")
            rows.append(
                Listener(m.group("state"), m.group("local"), int(port) if port.isdigit() else None, line)
            )
    return Sockets(tuple(rows), header)

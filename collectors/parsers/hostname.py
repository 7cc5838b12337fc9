"""`hostname` -> the host's own name, and `getent hosts NAME` / `/etc/hosts` -> what names resolve to."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines

NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63}){0,8}$")


@dataclass(frozen=True)
class HostName:
    """The name `hostname` printed (None when the output is not one host name)."""

    name: str | None = None
    line: str = ""


@dataclass(frozen=True)
class HostEntry:
    """One `ADDRESS NAME [ALIAS...]` line (from getent or /etc/hosts)."""

    address: str
    names: tuple[str, ...]
    line: str

    @property
    def loopback(self) -> bool:
        """127.0.0.0/8 or ::1."""
        return ipaddress.ip_address(self.address.split("%")[0]).is_loopback


@dataclass(frozen=True)
class HostTable:
    """Address lines in order; `recognized` when every non-comment line is an address line."""

    entries: tuple[HostEntry, ...] = ()
    recognized: bool = False

    def of(self, name: str) -> tuple[HostEntry, ...]:
        """The lines that list `name` (case-insensitive)."""
        return tuple(e for e in self.entries if name.lower() in (n.lower() for n in e.names))


def parse_hostname(text: str) -> HostName:
    """One line holding one host name."""
    lines = [line.strip() for line in clean_lines(text) if line.strip()]
    if len(lines) == 1 and NAME.match(lines[0]):
        return HostName(lines[0], lines[0])
    return HostName()


def first_name(text: str) -> list[str]:
    """The host name as the only parameter `getent hosts` may get (the catalog validates it)."""
    name = parse_hostname(text).name
    return [name] if name else []


def parse_hosts(text: str) -> HostTable:
    """`getent hosts` output or /etc/hosts: comments dropped, invalid addresses make it unrecognized."""
    entries = []
    other = 0
    for raw in clean_lines(text):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        try:
            ipaddress.ip_address(words[0].split("%")[0])
        except ValueError:
            other += 1
            continue
        if len(words) < 2 or not all(NAME.match(w) or w.startswith("ip6-") for w in words[1:]):
            other += 1
            continue
        entries.append(HostEntry(words[0], tuple(words[1:]), raw.strip()))
    return HostTable(tuple(entries), recognized=bool(entries) and other == 0)

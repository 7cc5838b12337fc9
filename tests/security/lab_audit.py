"""Read the lab's audit log (what sshd actually received) and judge each command against the catalog."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pitstop.collectors import catalog
from pitstop.collectors.policy import script_violation
from pitstop.collectors.transport import framing
from pitstop.lab.audit import read_audit

_WRAPPED = re.compile(r"timeout -k \d{1,3} (\d{1,4}) (?:sudo -n )?(.+?)(?: </dev/null)?", re.S)


def catalog_argv(argv: tuple[str, ...]) -> bool:
    """True when `argv` is exactly a catalog collector's argv (a host-derived parameter matching its
    pattern)."""
    for c in catalog.CATALOG:
        if c.param is not None:
            if len(argv) == len(c.argv) and all(
                c.param.pattern.match(a) if want == catalog.PARAM else a == want
                for a, want in zip(argv, c.argv, strict=True)
            ):
                return True
        elif argv == catalog.render(c).argv:
            return True
    return False


def outside_catalog(command: str) -> list[str]:
    """The commands of one received session that are not catalog commands (empty when all are)."""
    blocks = framing.script_blocks(command)
    if blocks is None or script_violation(command) is not None:
        return [command[:200]]
    bad = []
    for text in blocks[1]:
        m = _WRAPPED.fullmatch(text)
        if not m or not catalog_argv(tuple(shlex.split(m.group(2)))):
            bad.append(text[:200])
    return bad


class AuditWatch:
    """Remembers where the lab's audit log stood, to judge only what ran afterwards."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.start = len(read_audit(log))

    def new_commands(self) -> list[str]:
        """Every command the lab hosts received since this watch began, one per catalog command."""
        return [c for record in read_audit(self.log)[self.start :] for c in record.commands()]

    def violations(self) -> list[str]:
        """Sessions since the watch began that carried anything outside the catalog."""
        records = read_audit(self.log)[self.start :]
        return [bad for record in records for bad in outside_catalog(record.command)]

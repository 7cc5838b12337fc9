"""The lab's audit log: every command a lab host was asked to run.

The log is a directory holding one file per session process; each file holds NUL-terminated
`host<TAB>command` records (fakebin/lab-session writes them).

Each record is what sshd received (`SSH_ORIGINAL_COMMAND`). Pitstop's runner sends framing
scripts (collectors/transport/framing.py); `AuditRecord.commands` splits one back into the
commands it carries, so a reader sees one catalog command per line, and `catalog_violations`
proves that nothing outside the catalog ran.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from pitstop.collectors import catalog
from pitstop.collectors.transport import framing


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


@dataclass(frozen=True)
class AuditRecord:
    """One session's command as the lab host received it."""

    host: str
    command: str

    def commands(self) -> tuple[str, ...]:
        """The commands inside a well-formed framing script, else the whole command as one."""
        blocks = framing.script_blocks(self.command)
        if blocks is None or not blocks[1]:
            return (self.command,)
        return tuple(blocks[1])

    def lines(self) -> list[str]:
        """`host command`, one line per command (backslashes and newlines escaped)."""
        return [f"{self.host} {_escape(command)}" for command in self.commands()]


def read_audit(path: Path) -> list[AuditRecord]:
    """The records of an audit log directory, oldest session first; a missing log has none."""
    try:
        files = sorted(path.iterdir(), key=lambda f: (f.stat().st_mtime_ns, f.name))
    except FileNotFoundError:
        return []
    records = []
    for chunk in (c for f in files for c in f.read_bytes().split(b"\0")):
        if chunk:
            host, _, command = chunk.decode("utf-8", errors="replace").partition("\t")
            records.append(AuditRecord(host, command))
    return records


LAB_TEST_PREFIX = ": lab-test; "  # starts the raw commands the lab's own tests send; Pitstop never does


def _catalog_command(text: str) -> bool:
    """True when `text` is exactly how the runner renders some catalog command."""
    for collector in catalog.CATALOG:
        for sudo in (False, True) if collector.sudo_allowed else (False,):
            param = None
            if collector.param is not None:
                tokens = shlex.split(text)
                index = 4 + (2 if sudo else 0) + collector.argv.index(catalog.PARAM)
                param = tokens[index] if index < len(tokens) else ""
                if not collector.param.pattern.match(param):
                    continue
            if text == framing.command_line(catalog.render(collector, param=param, sudo=sudo)):
                return True
    return False


def catalog_violations(records: list[AuditRecord]) -> list[str]:
    """Every audited session text that is not a framing script of catalog commands (lab tests excepted)."""
    problems = []
    allowed_fixed = set(framing.HEADER)
    for record in records:
        if record.command.startswith(LAB_TEST_PREFIX):
            continue
        blocks = framing.script_blocks(record.command)
        if blocks is None or not blocks[1]:
            problems.append(f"{record.host}: not a framing script: {_escape(record.command)[:200]}")
            continue
        fixed, commands = blocks
        problems += [
            f"{record.host}: unexpected script line: {_escape(line)[:200]}"
            for line in fixed
            if line not in allowed_fixed
            and not framing.BEGIN_LINE.fullmatch(line)
            and not framing.END_LINE.fullmatch(line)
        ]
        problems += [
            f"{record.host}: not in the catalog: {_escape(c)[:200]}"
            for c in commands
            if not _catalog_command(c)
        ]
    return problems

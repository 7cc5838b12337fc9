"""docs/sudoers.example allows exactly the catalog's `sudo_allowed` argvs, each NOPASSWD and NOEXEC."""

from __future__ import annotations

import shlex
from pathlib import Path

from pitstop.collectors import catalog
from pitstop.collectors.policy import violation

SUDOERS = Path(__file__).resolve().parents[2] / "docs" / "sudoers.example"


def rules() -> list[tuple[str, ...]]:
    """The argv of every command line in the example (tool by base name)."""
    out = []
    for line in SUDOERS.read_text(encoding="utf-8").splitlines():
        if line.startswith("pitstop ALL="):
            assert "NOPASSWD: NOEXEC: " in line, line
            argv = shlex.split(line.split("NOEXEC: ", 1)[1])
            out.append((Path(argv[0]).name, *argv[1:]))
    return out


def test_sudoers_lines_are_exactly_the_sudo_allowed_catalog_commands() -> None:
    wanted = sorted(c.argv for c in catalog.CATALOG if c.sudo_allowed)
    assert sorted(rules()) == wanted


def test_every_sudo_line_passes_the_read_only_policy() -> None:
    assert [argv for argv in rules() if violation(argv)] == []

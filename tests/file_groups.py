"""Groups for tests of the file-trust rule: one the file's owner shares with other users (group write
is then a real risk) and the owner's private group (group write is then harmless, as ssh holds)."""

from __future__ import annotations

import grp
import os
import pwd
from pathlib import Path

import pytest


def _members(gid: int) -> set[str]:
    primary = {entry.pw_name for entry in pwd.getpwall() if entry.pw_gid == gid}
    return primary | set(grp.getgrgid(gid).gr_mem)


def _settable() -> list[int]:
    """Groups this process may give its files: any as root, else its own."""
    return [g.gr_gid for g in grp.getgrall()] if os.getuid() == 0 else sorted({os.getgid(), *os.getgroups()})


def share_group(path: Path) -> None:
    """Give `path` a group with a member other than its owner; skip where no such group can be set."""
    owner = pwd.getpwuid(path.stat().st_uid).pw_name
    gid = next((g for g in _settable() if _members(g) - {owner}), None)
    if gid is None:
        pytest.skip("no group shared with another user can be set here")
    os.chown(path, -1, gid)


def private_group(path: Path) -> None:
    """Give `path` a group whose only member is its owner; skip where there is none."""
    owner = pwd.getpwuid(path.stat().st_uid).pw_name
    gid = next((g for g in _settable() if _members(g) == {owner}), None)
    if gid is None:
        pytest.skip("the owner has no private group here")
    os.chown(path, -1, gid)

"""The policy and the inventory decide who may check which hosts and how they are reached: a file
another local user could write (group or others may write it, or it is someone else's) is refused
with one sentence, exit 5, as the ssh config is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pitstop.cli.main import main
from tests.file_groups import private_group, share_group

INVENTORY = "ssh_config: false\nhosts: {gpu1: {address: 192.0.2.1}}\n"
POLICY = "rules: [{users: [alice], origins: [cli], hosts: ['*']}]\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "inv.yaml").write_text(INVENTORY)
    (tmp_path / "policy.yaml").write_text(POLICY)
    return {"inventory": tmp_path / "inv.yaml", "policy": tmp_path / "policy.yaml"}


def check(files: dict[str, Path], capsys) -> tuple[int, str]:
    argv = ["policy", "check", "gpu1", "--user", "alice", "--db", str(files["policy"].parent / "x.db")]
    code = main([*argv, "--inventory", str(files["inventory"]), "--policy", str(files["policy"])])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("mode", [0o664, 0o646, 0o666])
@pytest.mark.parametrize("which", ["inventory", "policy"])
def test_a_file_others_may_write_is_refused(files, capsys, which: str, mode: int) -> None:
    assert check(files, capsys)[0] == 0
    files[which].chmod(mode)
    share_group(files[which])
    code, said = check(files, capsys)
    assert code == 5 and said.startswith("pitstop: ") and "Traceback" not in said
    assert str(files[which]) in said and oct(mode)[2:] in said and "group or others" in said


@pytest.mark.parametrize("which", ["inventory", "policy"])
def test_a_file_only_its_owners_private_group_may_write_is_read(files, capsys, which: str) -> None:
    files[which].chmod(0o664)  # a umask of 002, the default for users with a private group
    private_group(files[which])
    assert check(files, capsys)[0] == 0


def test_a_file_someone_else_owns_is_refused(files, capsys) -> None:
    if os.getuid() != 0:
        pytest.skip("giving a file away needs root")
    os.chown(files["policy"], 65534, -1)
    code, said = check(files, capsys)
    assert code == 5 and "uid 65534" in said

"""Who the CLI and the console act as comes from the real uid's passwd entry, never from $USER,
$LOGNAME and the like (anyone can set those), so a policy rule for another login does not apply."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.core.config import local_user

SPOOF = ("USER", "LOGNAME", "LNAME", "USERNAME")


def test_local_user_is_the_real_uids_login_name(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SPOOF:
        monkeypatch.setenv(name, "mallory")
    assert local_user() == pwd.getpwuid(os.getuid()).pw_name != "mallory"


def test_without_a_passwd_entry_it_is_the_uid(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_entry(uid: int) -> pwd.struct_passwd:
        raise KeyError(uid)

    monkeypatch.setattr(pwd, "getpwuid", no_entry)  # the passwd database is the outermost boundary
    monkeypatch.setenv("USER", "mallory")
    assert local_user() == str(os.getuid())


def test_a_rule_for_the_name_in_user_does_not_apply(tmp_path: Path, monkeypatch, capsys) -> None:
    for name in SPOOF:
        monkeypatch.setenv(name, "mallory")
    (tmp_path / "inv.yaml").write_text("ssh_config: false\nhosts: {gpu1: {address: 192.0.2.1}}\n")
    common = ["--inventory", str(tmp_path / "inv.yaml"), "--db", str(tmp_path / "none.db")]
    for user, code in (("mallory", 4), (pwd.getpwuid(os.getuid()).pw_name, 0)):
        policy = tmp_path / f"{user}.yaml"
        policy.write_text(f"rules: [{{users: [{user}], origins: [cli], hosts: ['*']}}]\n")
        assert main(["policy", "check", "gpu1", "--policy", str(policy), *common]) == code, user
    assert "refused" in capsys.readouterr().out

"""`.env` holds the Slack tokens and names the policy: it is read only when it belongs to the user
running Pitstop and neither group nor others may write it; otherwise one sentence, exit 5."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pitstop.cli.main import main
from pitstop.core.config import load_dotenv_file
from pitstop.core.errors import BadFile
from tests.file_groups import private_group, share_group

VAR = "PITSTOP_TEST_DOTENV_VALUE"


@pytest.fixture
def dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(VAR, "")
    monkeypatch.delenv(VAR)  # recorded as unset, so whatever the file sets is undone
    path = tmp_path / ".env"
    path.write_text(f"{VAR}=from-file\n")
    return path


def test_a_private_dotenv_is_loaded(dotenv: Path) -> None:
    dotenv.chmod(0o644)
    load_dotenv_file(dotenv)
    assert os.environ[VAR] == "from-file"


@pytest.mark.parametrize("mode", [0o664, 0o646, 0o666, 0o620])
def test_a_dotenv_others_may_write_is_refused(dotenv: Path, mode: int) -> None:
    dotenv.chmod(mode)
    share_group(dotenv)
    with pytest.raises(BadFile) as caught:
        load_dotenv_file(dotenv)
    assert str(dotenv) in str(caught.value) and oct(mode)[2:] in str(caught.value)
    assert "group or others" in str(caught.value) and "组或其他用户" in caught.value.render("zh")
    assert VAR not in os.environ


def test_a_dotenv_only_its_owners_private_group_may_write_is_loaded(dotenv: Path) -> None:
    dotenv.chmod(0o664)
    private_group(dotenv)
    load_dotenv_file(dotenv)
    assert os.environ[VAR] == "from-file"


def test_a_dotenv_someone_else_owns_is_refused(dotenv: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("giving a file away needs root")
    os.chown(dotenv, 65534, -1)
    with pytest.raises(BadFile, match="uid 65534"):
        load_dotenv_file(dotenv)
    assert VAR not in os.environ


def test_the_cli_says_one_sentence(dotenv: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    dotenv.chmod(0o666)
    monkeypatch.chdir(dotenv.parent)
    assert main(["policy", "check", "gpu1"]) == 5
    err = capsys.readouterr().err
    assert err.startswith("pitstop: ") and str(dotenv.name) in err and "Traceback" not in err

"""The console on a real terminal (a pty): one bracketed paste of a chained traceback is one incident."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest

from pitstop.core.db import open_db
from pitstop.incidents.store import Incidents
from tests.bot.conftest import copy_kb

CHAINED = """\
Traceback (most recent call last):
  File "train.py", line 88, in step
    loss = model(batch).sum()
RuntimeError: CUDA error: an illegal memory access was encountered

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "train.py", line 91, in step
    torch.cuda.synchronize()
RuntimeError: CUDA error: an illegal memory access was encountered

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "train.py", line 120, in <module>
    main()
RuntimeError: training step failed on rank 3"""


@pytest.fixture
def console(kb_path, tmp_path):
    db = copy_kb(kb_path, tmp_path / "tty.db")
    env = {
        **os.environ,
        "PITSTOP_DB": str(db),
        "TERM": "xterm",
        "NO_COLOR": "1",
        "COLUMNS": "100",
        "PROMPT_TOOLKIT_NO_CPR": "1",
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pitstop.cli.main", "console"],
        env=env,
        encoding="utf-8",
        timeout=240,
        dimensions=(40, 100),
    )
    yield child, db
    child.close(force=True)


def test_a_bracketed_paste_of_a_chained_traceback_is_one_incident_and_one_answer(console) -> None:
    child, db = console
    child.expect_exact("pitstop>")
    child.send("\x1b[200~" + CHAINED.replace("\n", "\r") + "\x1b[201~")
    child.send("\r")
    child.expect_exact("Likely causes")
    child.expect_exact("pitstop>")
    answer = child.before
    assert answer.count("Likely causes") == 0  # the one header was consumed by the first expect
    child.send(":this 7\r")
    child.expect_exact("is not a cause of the last answer")
    child.expect_exact("pitstop>")
    child.send(":this bogus-id\r")
    child.expect_exact("is not a cause of the last answer")
    child.expect_exact("pitstop>")
    child.send(":quit\r")
    child.expect(pexpect.EOF)
    history = db.parent / "console_history"  # beside the database: owner-only, in its 0700 directory
    assert history.stat().st_mode & 0o777 == 0o600 and ":this bogus-id" in history.read_text(encoding="utf-8")
    found = Incidents(open_db(db)).list()
    assert len(found) == 1, [i.error_text[:60] for i in found]
    assert "During handling of the above exception" in found[0].error_text
    assert "training step failed on rank 3" in found[0].error_text
    assert not found[0].candidates or all(c.pitfall_id for c in found[0].candidates)
    assert "\x1b[3" not in answer  # NO_COLOR: no colour codes

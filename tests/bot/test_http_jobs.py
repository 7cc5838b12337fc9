"""`/diagnose job 4242` over signed HTTP against the local Web API stand-in and the lab's Slurm job:
the odd node and its differing facts come first, in one message plus one report file."""

from __future__ import annotations

import json

import pytest

from pitstop.bot import ids
from tests.bot.conftest import ALLOW_ALL
from tests.bot.interactions import slash_command
from tests.bot.slack_checks import all_text, assert_within_limits

FORM = "application/x-www-form-urlencoded"
pytestmark = pytest.mark.lab


@pytest.fixture
def job_bot(serve_app, job_lab):
    from pitstop.collectors import inventory

    return serve_app(policy=ALLOW_ALL, inventory=inventory.load(job_lab.inventory))


def test_slash_diagnose_job_names_the_odd_node_first(job_bot, shared_dir):
    bot = job_bot
    respond = bot.recorder.url + "/respond/1"
    assert bot.send(slash_command(shared_dir, "job 4242", response_url=respond), content_type=FORM)[0] == 200
    first = bot.recorder.wait_for("chat.postMessage")[0].body
    assert "Asking Slurm about job 4242" in all_text(first)
    bot.idle()
    assert len(bot.recorder.of("chat.postMessage")) == 1  # one message, updated in place
    final = bot.recorder.of("chat.update")[-1].body
    assert_within_limits(final)
    head, odd = final["blocks"][0]["text"]["text"], final["blocks"][1]["text"]["text"]
    assert head.startswith("*Checks on job 4242: 8 hosts*\nSlurm job 4242 train-llm (FAILED) on 8 node(s)")
    assert odd.startswith("*Differs from its peers (1 host(s); evidence, not a verdict)*\n• job-odd-node-001")
    for fact in ("NCCL 2.18.1 (peers 2.20.5)", "PCIe Gen5 x8 on GPU2 (peers Gen5 x16)"):
        assert fact in odd
    assert final["blocks"][-1]["elements"][0]["action_id"] == ids.ACTION_RESOLVE
    assert "confirmed (1): `job-odd-node-001`" in all_text(final)
    assert len(bot.recorder.wait_for("upload")) == 1
    report = bot.recorder.of("upload")[0].raw.decode()
    assert "summary: differ from their peers: job-odd-node-001" in report
    assert (
        '"outliers": [' in report and '"nodelist": "h100-sxm5-healthy-[001-007],job-odd-node-001"' in report
    )
    assert bot.recorder.of("respond") == []  # every node was checked: nothing to tell privately


def test_slash_diagnose_job_refusals(job_bot, shared_dir):
    bot = job_bot
    respond = bot.recorder.url + "/respond/1"
    status, body = bot.send(slash_command(shared_dir, "job", response_url=respond), content_type=FORM)
    assert status == 200 and "Usage: `/diagnose job JOBID" in body
    bot.send(slash_command(shared_dir, "job 42;reboot", response_url=respond), content_type=FORM)
    told = all_text(json.loads(bot.recorder.wait_for("respond")[-1].raw))
    assert "is not a Slurm job id" in told


def test_thirty_dead_hosts_make_one_line_and_one_private_notice(serve_app, shared_dir):
    from pitstop.collectors.inventory import build

    dead = {f"dead{i:02d}": {"address": f"127.0.0.{200 + i}", "port": 9} for i in range(1, 31)}  # refused
    bot = serve_app(policy=ALLOW_ALL, inventory=build({"ssh_config": False, "hosts": dead}))
    respond = bot.recorder.url + "/respond/1"
    assert (
        bot.send(slash_command(shared_dir, "dead[01-30]", response_url=respond), content_type=FORM)[0] == 200
    )
    bot.recorder.wait_for("chat.postMessage")
    bot.idle()
    final = bot.recorder.of("chat.update")[-1].body
    assert_within_limits(final)
    head = final["blocks"][0]["text"]["text"]
    assert head.splitlines()[1].startswith("• not checked, unreachable (30): `dead[01-30]`: ")
    assert len(head.splitlines()) == 2
    assert final["blocks"][-1]["elements"][0]["action_id"] == ids.ACTION_RESOLVE
    calls = bot.recorder.of("respond")
    assert len(calls) == 1  # one response_url message for the request, not one per host
    assert "30 host(s) could not be checked: dead[01-30]" in all_text(json.loads(calls[0].raw))

"""`pitstop start`: the one command of the README.

With Slack tokens set it runs the bot (Socket Mode when SLACK_APP_TOKEN is set, else HTTP). Without
them it starts the lab fleet (the shipped scenarios as real sshd hosts on 127.0.0.x, plus a host behind a
two-hop bastion chain defined only in the lab's ssh config, reached once to show it works), and the console
with the lab's inventory and a policy that lets the local user check the lab hosts from the console.
"""

from __future__ import annotations

import argparse
import getpass
from dataclasses import replace

from pitstop.cli.argtypes import PORT


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop start`."""
    parser = sub.add_parser("start", help="run the Slack bot if tokens are set, else the lab and the console")
    parser.add_argument("--port", type=PORT, default=3000, help="HTTP port when serving Slack over HTTP")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve Slack, or bring up the lab and run the console on it (stopping the lab afterwards)."""
    from pitstop.cli.console import console
    from pitstop.cli.serve import serve
    from pitstop.core.config import load_settings

    settings = load_settings()
    if settings.has_slack_tokens:
        return serve(settings, http=not settings.slack_app_token, port=args.port)
    from pitstop.app.authz import Policy
    from pitstop.cli.lab import write_lab_policy
    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_all, shipped_scenarios
    from pitstop.lab.sshd import LabError

    print("No Slack tokens set: starting the lab fleet and the console (see docs/SLACK.md for Slack).")
    started = False
    try:
        try:
            lab = fleet.load()
        except LabError:
            lab = fleet.up(load_all(shipped_scenarios()), with_bastion=True)
            started = True
        print(f"{len(lab.hosts)} lab hosts on 127.0.0.x, e.g. " + ", ".join(h.name for h in lab.hosts[:4]))
        if lab.chain and lab.ssh_config:  # the jump chain is defined in the lab's ssh config
            from pitstop.lab import bastion

            print(bastion.describe(lab.ssh_config).render("en"))
            print(bastion.check(lab.inventory).render("en"))
        settings = replace(settings, inventory_path=lab.inventory)
        policy = Policy.load(write_lab_policy(lab, getpass.getuser()))
    except LabError as exc:
        print(f"The lab could not start ({exc}); the console runs without hosts to check.")
        policy = None
    try:
        return console(settings, policy=policy)
    finally:
        if started:
            fleet.down()

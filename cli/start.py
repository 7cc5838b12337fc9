"""`pitstop start`: the one command of the README.

With Slack tokens set it runs the bot (Socket Mode when SLACK_APP_TOKEN is set, else HTTP). Without
them it starts the lab fleet (the shipped scenarios as real sshd hosts on 127.0.0.x, plus a host behind a
two-hop bastion chain defined only in the lab's ssh config, reached once to show it works), and the console
with the lab's inventory and a policy that lets the local user check the lab hosts from the console.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from pitstop.cli.argtypes import PORT
from pitstop.cli.helptext import h
from pitstop.cli.output import lang_of
from pitstop.core.config import local_user


def register(sub: argparse._SubParsersAction) -> None:
    """Add `pitstop start`."""
    parser = sub.add_parser("start", help=h("start.start"))
    parser.add_argument("--port", type=PORT, default=3000, help=h("start.port"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve Slack, or bring up the lab and run the console on it (stopping the lab afterwards)."""
    from pitstop.cli.console import console
    from pitstop.cli.serve import serve
    from pitstop.core.config import load_settings
    from pitstop.core.i18n import t

    settings = load_settings()
    if settings.has_slack_tokens:
        return serve(settings, http=not settings.slack_app_token, port=args.port, lang=lang_of(args))
    from pitstop.app.authz import Policy
    from pitstop.cli.lab import write_lab_policy
    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_all, shipped_scenarios
    from pitstop.lab.sshd import LabError

    lang = lang_of(args)
    print(t("cli.start.no_slack", lang))
    started = False
    try:
        try:
            lab = fleet.load()
        except LabError:
            lab = fleet.up(load_all(shipped_scenarios()), with_bastion=True)
            started = True
        print(t("cli.start.hosts", lang, n=len(lab.hosts), names=", ".join(h.name for h in lab.hosts[:4])))
        if lab.chain and lab.ssh_config:  # the jump chain is defined in the lab's ssh config
            from pitstop.lab import bastion

            print(bastion.describe(lab.ssh_config).render(lang))
            print(bastion.check(lab.inventory).render(lang))
        settings = replace(settings, inventory_path=lab.inventory)
        policy = Policy.load(write_lab_policy(lab, local_user()))
    except LabError as exc:
        print(t("cli.start.no_lab", lang, error=exc.render(lang)))
        policy = None
    try:
        return console(settings, policy=policy, lang=getattr(args, "lang", None))
    finally:
        if started:
            fleet.down()

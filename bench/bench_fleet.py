"""A fleet-size diagnose with odd nodes: wall time, client CPU per host and peak RSS against `pdsh -R ssh`,
and the answer at that size (one Slack message within limits, the odd nodes named first).

    python3 bench/bench_fleet.py [--clones 49] [--copies 10] [--out FILE]

Starts a lab of `--clones` scenarios identical to `h100-sxm5-healthy` plus `job-odd-node` (PCIe x8 on
GPU 2, other torch and NCCL), `--copies` hosts each: 500 hosts, 10 of them odd, by default. Then, one
after the other: `pitstop diagnose <every host> --json` as a user runs it (the whole CLI process);
the same diagnose in a worker process that also builds the Slack message and the text report (what
the bot does); `pdsh -R ssh` running the same commands in one remote shell per host. Measurement
helpers (`_measured`, the pdsh ssh config, the sweep's commands) are bench/bench_sweep.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_sweep import _measured, _ssh_config, _sweep_commands, pdsh_script  # noqa: E402

from pitstop.collectors import catalog  # noqa: E402


def _clones(root: Path, n: int) -> list[Path]:
    """`n` scenarios that are `h100-sxm5-healthy` under other names (so `--copies` makes many of them)."""
    from pitstop.lab.scenario import SCENARIOS_DIR

    host = (SCENARIOS_DIR / "h100-sxm5-healthy" / "host.yaml").read_text()
    out = []
    for i in range(n):
        d = root / f"fleet{i:02d}"
        d.mkdir()
        (d / "host.yaml").write_text("base: h100-sxm5-healthy\n" + host)
        out.append(d)
    return out


def worker(inventory: str, policy: str, db: str, hosts: str) -> None:
    """Diagnose in this process as the bot does, build the Slack message and the text; print figures."""
    from pitstop.app.diagnose import DiagnoseRequest, diagnose
    from pitstop.app.digest import digest, render_text
    from pitstop.app.flows import diagnosis_card, report_file
    from pitstop.bot.render import blocks
    from pitstop.collectors import inventory as inv
    from pitstop.kb.service import KnowledgeBase

    del policy  # authorized by the CLI run before; the worker measures the diagnose and the rendering
    inventory_ = inv.load(inventory)
    kb = KnowledgeBase.open(db)
    request = DiagnoseRequest(hosts=hosts, requester="bench", origin="bench", max_hosts=100_000)
    t0 = time.perf_counter()
    report = asyncio.run(diagnose(request, inventory=inventory_, kb=kb))
    t1 = time.perf_counter()
    card = diagnosis_card(report, "the fleet", "en", 1, lambda p: p)
    message = blocks.diagnosis_message(card).kwargs()
    text = render_text(report, "en")
    file = report_file(report, "en")
    t2 = time.perf_counter()
    sections = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
    d = digest(report)
    print(
        json.dumps(
            {
                "diagnose_s": t1 - t0,
                "render_s": t2 - t1,
                "blocks": len(message["blocks"]),
                "max_section": max(len(s) for s in sections),
                "balanced": all(s.count("```") % 2 == 0 for s in sections),
                "last_block": message["blocks"][-1]["elements"][0]["action_id"],
                "odd_hosts": [o.host for o in d.odd],
                "first_section_lines": message["blocks"][1]["text"]["text"].splitlines()[:3],
                "text_lines": len(text.splitlines()),
                "text_head": text.splitlines()[:3],
                "file_bytes": len(file.encode()),
                "not_checked": list(d.unchecked_hosts),
                "exit": d.exit_code,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clones", type=int, default=49)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return

    from pitstop.app.diagnose import needed_collectors
    from pitstop.cli.lab import write_lab_policy
    from pitstop.kb.service import KnowledgeBase
    from pitstop.lab import fleet
    from pitstop.lab.scenario import SCENARIOS_DIR, load_all

    scen_dir = Path(tempfile.mkdtemp(prefix="pitstop-fleet-scen-"))
    state = Path(tempfile.mkdtemp(prefix="pitstop-fleet-"))
    work = Path(tempfile.mkdtemp(prefix="pitstop-fleet-run-"))
    paths = [*_clones(scen_dir, args.clones), SCENARIOS_DIR / "job-odd-node"]
    t0 = time.perf_counter()
    lab = fleet.up(load_all(paths), state, copies=args.copies, port=41000 + os.getpid() % 1000 * 10)
    lab_up_s = time.perf_counter() - t0
    n = len(lab.hosts)
    try:
        policy = write_lab_policy(lab, getpass.getuser())
        db = work / "pitstop.db"
        kb = KnowledgeBase.open(db)
        collectors = needed_collectors([p for p in kb.all(("curated",)) if p.checks])
        kb.close()
        scenario = SCENARIOS_DIR / "h100-sxm5-healthy"
        ifaces = catalog.interfaces_from_ip_link((scenario / "ip-link.txt").read_text())
        cmds = _sweep_commands(collectors, ifaces)
        script = pdsh_script(cmds)
        cfg = work / "ssh_config"
        _ssh_config(lab, cfg)
        env = dict(os.environ, HF_HUB_OFFLINE="1", PDSH_RCMD_TYPE="ssh", PDSH_SSH_ARGS=f"-F {cfg} -l%u %h")
        names = [h.name for h in lab.hosts]
        listed = work / "hosts.txt"
        listed.write_text("\n".join(names) + "\n")
        everything = ",".join(names)
        cli = _measured(
            [sys.executable, "-m", "pitstop.cli.main", "diagnose", everything, "--json"]
            + ["--inventory", str(lab.inventory), "--policy", str(policy), "--db", str(db)]
            + ["--max-hosts", str(n)],
            env,
            work / "cli.json",
        )
        doc = json.loads((work / "cli.json").read_text() or "{}")
        lost = [h["host"] for h in doc.get("hosts", []) if h.get("status") != "ok"]
        odd_json = sorted({o["host"] for o in doc.get("outliers", [])})
        bot = _measured(
            [sys.executable, __file__, "--worker", str(lab.inventory), str(policy), str(db), everything],
            env,
            work / "bot.json",
        )
        shown = json.loads((work / "bot.json").read_text() or "{}")
        theirs = _measured(
            ["pdsh", "-R", "ssh", "-f", str(min(n, 256)), "-l", lab.user, "-w", f"^{listed}", script],
            env,
            work / "pdsh.txt",
        )
    finally:
        fleet.down(state)
    load = Path("/proc/loadavg").read_text().split()[:3]
    cmd = "python3 bench/bench_fleet.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])

    def row(what: str, m: dict) -> str:
        return (
            f"| {what} | {m['wall_s']:.1f} s | {m['cpu_s'] / n * 1000:.1f} ms | {m['peak_rss_mib']:.0f} MiB "
            f"| {m['peak_fds']} |"
        )

    text = "\n".join(
        [
            f"Command: `{cmd.strip()}`; {n} lab hosts ({args.copies} odd: `job-odd-node-*`), up in "
            f"{lab_up_s:.0f} s; {len(cmds)} commands per host; load average after: {' '.join(load)}",
            "",
            "| run | wall | client CPU per host | peak RSS | peak fds |",
            "|---|---|---|---|---|",
            row("`pitstop diagnose` (CLI, --json)", cli),
            row("diagnose + Slack message + text + file (bot path, one process)", bot),
            row("`pdsh -R ssh`, same commands", theirs),
            "",
            f"- hosts not reached by Pitstop: {len(lost)}; exit status {cli['rc']}",
            f"- odd hosts in the JSON: {len(odd_json)} ({', '.join(odd_json[:3])}...)",
            f"- Slack message: {shown.get('blocks')} blocks, longest section {shown.get('max_section')} "
            f"characters, code blocks balanced: {shown.get('balanced')}, last block "
            f"`{shown.get('last_block')}`; rendering took {shown.get('render_s', 0):.2f} s",
            f"- first lines of the odd-host section: {shown.get('first_section_lines')}",
            f"- text report: {shown.get('text_lines')} lines; "
            f"attached file {shown.get('file_bytes', 0) / 1e6:.1f} MB",
        ]
    )
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""`pitstop diagnose` as a user runs it (the whole CLI process) against `pdsh -R ssh`, on lab fleets.

    python3 bench/bench_sweep.py --hosts 40,160,500,2000 [--repeat 1] [--fanout 256] [--out FILE]
        [--profile DIR] [--no-pdsh] [--baseline CHECKOUT]

Starts one lab of copies of a scenario (real sshd per host on 127.0.0.x, 250 addresses per port),
then per size runs, interleaved: `pitstop diagnose <every host> --json` (a full sweep: every
checkable cause, its collectors, checks, audit rows) and `pdsh -R ssh` running the same commands
in one remote shell per host (the framing script the runner generates, so the remote work is the
same; pdsh only prints). Reported per run: wall time, client CPU (user+sys of the process and its
children, per host), peak RSS (the largest process), peak open fds (sampled every 50 ms), hosts
not reached, and the remote side's CPU (the lab shares the machine's cores with the client; divided
by the cores, the shortest wall time the run could have): the hosts' sshd (what each listening sshd
accounts for its reaped connections) plus the remote shells and their tools, which sshd does not
account and which pdsh's script reports with the shell's `times` (Pitstop's one-lane script is the
same, so the figure is counted for both; its second channel for `ethtool -i` is not in it).
pdsh gets one `ssh` client per host, `-f` at most `--fanout` at once (Pitstop's own concurrency
gate is 256 hosts); its hosts come from a generated ssh config (one port per 250).
`--baseline CHECKOUT` runs that checkout's `pitstop diagnose` just before this one's on every size and
run (same lab, KB and policy): before and after a change, interleaved. `--profile DIR` runs each size
once more under py-spy (sampling from outside, the check worker included) and prints where the
samples fell, by part; py-spy counts a thread that is runnable but waiting for a core, so on a loaded
machine the shares follow CPU demand only roughly, and its own CPU is in that run's figure.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pitstop.collectors import catalog, runner  # noqa: E402
from pitstop.collectors.transport import framing  # noqa: E402


def _peak_fds(pid: int, stop: threading.Event, out: list[int]) -> None:
    peak = 0
    while not stop.is_set():
        try:
            peak = max(peak, len(os.listdir(f"/proc/{pid}/fd")))
        except OSError:
            break
        stop.wait(0.05)
    out.append(peak)


def _measured(argv: list[str], env: dict[str, str], stdout_path: Path, cwd: Path | None = None) -> dict:
    """Run argv (in `cwd`); wall, CPU of it and its children, its peak RSS and open fds."""
    with stdout_path.open("wb") as sink:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=sink, stderr=subprocess.PIPE, cwd=cwd)
        stop, fds = threading.Event(), []
        sampler = threading.Thread(target=_peak_fds, args=(proc.pid, stop, fds))
        sampler.start()
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        stop.set()
        sampler.join()
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mib": usage.ru_maxrss / 1024,
        "peak_fds": fds[0] if fds else 0,
        "rc": proc.returncode,
        "stderr": err.decode(errors="replace")[-2000:],
        "shells_s": _shell_cpu(err.decode(errors="replace")),
    }


_TICK = os.sysconf("SC_CLK_TCK")


def _lab_cpu(pids: list[int]) -> float:
    """CPU seconds the lab's sshd have used, their reaped sessions, shells and tools included
    (utime, stime, cutime and cstime of each host's listening sshd)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15])
    return total / _TICK


_TIMES = re.compile(r"^[^:\s]+: (\d+)m([\d.]+)s (\d+)m([\d.]+)s$", re.M)


def _shell_cpu(printed: str) -> float:
    """CPU seconds of the remote shells and the tools they ran: the `times` lines pdsh printed
    (on its stderr, each prefixed with the host)."""
    return sum(int(m[0]) * 60 + float(m[1]) + int(m[2]) * 60 + float(m[3]) for m in _TIMES.findall(printed))


# What a sample was doing, by the first rule that matches: any frame (imports, which run module
# code), else the innermost frame matched by a path or function fragment.
_ANY_FRAME: tuple[tuple[str, tuple[str, ...]], ...] = (("start-up imports", ("_find_and_load",)),)
_INNERMOST: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("parsers", ("collectors/parsers/",)),
    ("checks", ("collectors/checks/", "collectors/facts.py", "collectors/compare.py")),
    ("messages (i18n)", ("core/i18n.py", "core/messages/")),
    ("redaction", ("core/redact.py",)),
    ("audit rows (SQLite)", ("collectors/audit.py",)),
    ("JSON report", ("core/jsondoc.py", "to_json", "json/")),
    ("KB load", ("kb/",)),
    ("inventory, policy, config", ("collectors/inventory.py", "app/authz.py", "core/config.py", "yaml/")),
    ("framing and demux", ("collectors/transport/framing.py",)),
    ("runner", ("collectors/runner.py",)),
    ("diagnose (app)", ("app/diagnose.py", "app/digest.py")),
    ("asyncssh", ("asyncssh/",)),
    ("check worker IPC (pickle, pipes)", ("multiprocessing/", "concurrent/", "pickle")),
    ("event loop (asyncio, selectors)", ("asyncio/", "selectors.py")),
)


def _category(frames: list[str]) -> str:
    for name, needles in _ANY_FRAME:
        if any(n in f for f in frames for n in needles):
            return name
    for frame in reversed(frames):
        for name, needles in _INNERMOST:
            if any(n in frame for n in needles):
                return name
    return "other"


def _breakdown_table(n: int, stacks: Path, cpu_s: float, sampled_cpu_s: float) -> str:
    """Where the CPU of a sampled run went (py-spy raw stacks), as ms per host of the unsampled run."""
    parts: Counter[str] = Counter()
    procs: Counter[str] = Counter()
    for line in stacks.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        parts[_category(frames[1:])] += int(count)
        procs["check worker" if "spawn_main" in stack else "main process"] += int(count)
    total = sum(parts.values()) or 1
    rows = [
        f"| {name} | {c / total * 100:.1f}% | {c / total * cpu_s / n * 1000:.1f} ms |"
        for name, c in parts.most_common()
    ]
    who = ", ".join(f"{k} {v / total * 100:.0f}%" for k, v in procs.most_common())
    return "\n".join(
        [
            f"{n} hosts, sampled (py-spy, {total} samples; {who}; the sampled run's CPU "
            f"{sampled_cpu_s / n * 1000:.1f} ms per host, the unsampled run's {cpu_s / n * 1000:.1f} ms):",
            "",
            "| part | share of samples | per host (of the unsampled CPU) |",
            "|---|---|---|",
            *rows,
            "",
        ]
    )


def _lost(report: Path) -> list[str]:
    """The hosts a `--json` report did not check."""
    data = json.loads(report.read_text() or "{}")
    return [h["host"] for h in data.get("hosts", []) if h.get("status") != "ok"]


def _brief(run: dict, n: int, lost: list[str]) -> str:
    """Wall, CPU per host, peak RSS, peak fds, hosts lost: one run's cells."""
    return (
        f"{run['wall_s']:.2f} s | {run['cpu_s'] / n * 1000:.1f} ms | {run['peak_rss_mib']:.0f} MiB "
        f"| {run['peak_fds']} | {len(lost)}"
    )


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _ssh_config(lab, path: Path) -> None:
    lines = []
    for h in lab.hosts:
        lines += [f"Host {h.name}", f"  HostName {h.address}", f"  Port {h.port}"]
    lines += [
        "Host *",
        f"  User {lab.user}",
        f"  IdentityFile {lab.identity_file}",
        f"  UserKnownHostsFile {lab.known_hosts}",
        "  StrictHostKeyChecking yes",
        "  BatchMode yes",
        "  ControlMaster no",
        "  LogLevel QUIET",
    ]
    path.write_text("\n".join(lines) + "\n")


def pdsh_script(cmds: list[catalog.Command]) -> str:
    """The framing script for pdsh, which gives a remote command no stdin: the nonce is set in the text."""
    return framing.build_script(cmds).replace(framing.HEADER[0], f"_ps_nonce={framing.new_nonce()}", 1)


def _sweep_commands(collectors: tuple[str, ...], ifaces: list[str]) -> list[catalog.Command]:
    """The commands of a full sweep on one lab host (ethtool per interface; the dmesg fallback not)."""
    cmds = []
    for name in collectors:
        c = catalog.get(name)
        if c.fallback_for:
            continue
        if c.param:
            cmds += [catalog.render(c, param=i) for i in ifaces]
        else:
            cmds.append(catalog.render(c))
    return cmds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", default="40,160")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--fanout", type=int, default=256)
    parser.add_argument("--scenario", default="h100-sxm5-healthy")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="also run each size once under py-spy (sampling, the check worker too): stacks into DIR, "
        "CPU by part",
    )
    parser.add_argument("--no-pdsh", action="store_true", help="measure Pitstop only (no ratio)")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="another checkout (the code before a change): its `pitstop diagnose` runs before this one's "
        "on every size and run, on the same lab and KB",
    )
    args = parser.parse_args()

    from pitstop.app.diagnose import needed_collectors
    from pitstop.cli.lab import lab_policy
    from pitstop.kb.service import KnowledgeBase
    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_all, shipped_scenarios

    sizes = [int(n) for n in args.hosts.split(",")]
    scenario = next(p for p in shipped_scenarios() if p.name == args.scenario)
    state = Path(tempfile.mkdtemp(prefix="pitstop-sweep-"))
    work = Path(tempfile.mkdtemp(prefix="pitstop-sweep-run-"))
    t0 = time.perf_counter()
    lab = fleet.up(load_all([scenario]), state, copies=max(sizes), port=40000 + os.getpid() % 1000 * 10)
    lab_up_s = time.perf_counter() - t0
    rows: list[str] = []
    notes: list[str] = []
    compared: list[str] = []
    try:
        policy = work / "policy.yaml"  # the lab's policy without the hourly cap: the sizes run back to back
        rules = lab_policy(getpass.getuser(), (h.name for h in lab.hosts))
        rules["rate_limit"] = {"burst": 100, "per_minute": 100, "hosts_per_hour": 10_000_000}
        policy.write_text(json.dumps(rules))
        db = work / "pitstop.db"
        kb = KnowledgeBase.open(db)  # entries loaded once, as a user's KB is
        collectors = needed_collectors([p for p in kb.all(("curated",)) if p.checks])
        kb.close()
        ifaces = catalog.interfaces_from_ip_link((scenario / "ip-link.txt").read_text())
        cmds = _sweep_commands(collectors, ifaces)
        script = pdsh_script(cmds)
        cfg = work / "ssh_config"
        _ssh_config(lab, cfg)
        env = dict(os.environ, HF_HUB_OFFLINE="1", PDSH_RCMD_TYPE="ssh", PDSH_SSH_ARGS=f"-F {cfg} -l%u %h")
        names = [h.name for h in lab.hosts]
        for n in sizes:
            subset = names[:n]
            listed = work / f"hosts-{n}.txt"
            listed.write_text("\n".join(subset) + "\n")
            for rep in range(args.repeat):
                cli = ["-m", "pitstop.cli.main", "diagnose", ",".join(subset), "--json"]
                cli += ["--inventory", str(lab.inventory), "--policy", str(policy), "--db", str(db)]
                cli += ["--max-hosts", str(len(names))]
                pids = [h.pid for h in lab.hosts[:n]]
                if args.baseline:
                    base = _measured([sys.executable, *cli], env, work / "base.json", cwd=args.baseline)
                    base_lost = _lost(work / "base.json")
                before = _lab_cpu(pids)
                ours = _measured([sys.executable, *cli], env, work / "ours.json")
                ours["remote_s"] = _lab_cpu(pids) - before
                report = json.loads((work / "ours.json").read_text() or "{}")
                lost = _lost(work / "ours.json")
                if args.baseline:
                    compared.append(
                        f"| {n} | {rep + 1} | {_brief(base, n, base_lost)} | {_brief(ours, n, lost)} "
                        f"| {_load()} |"
                    )
                    print(compared[-1], flush=True)
                if args.profile and rep == 0:
                    args.profile.mkdir(parents=True, exist_ok=True)
                    stacks = args.profile / f"diagnose-{n}.txt"
                    sampled = _measured(
                        ["py-spy", "record", "--subprocesses", "--nonblocking", "-r", "250", "-f", "raw"]
                        + ["-o", str(stacks), "--", sys.executable, *cli],
                        env,
                        work / "prof.json",
                    )
                    notes.append(_breakdown_table(n, stacks, ours["cpu_s"], sampled["cpu_s"]))
                    print(notes[-1], flush=True)
                theirs = None
                if not args.no_pdsh:
                    before = _lab_cpu(pids)
                    theirs = _measured(
                        ["pdsh", "-R", "ssh", "-f", str(min(n, args.fanout)), "-l", lab.user]
                        + ["-w", f"^{listed}", script + "times >&2\n"],
                        env,
                        work / "pdsh.txt",
                    )
                    theirs["remote_s"] = _lab_cpu(pids) - before
                last = f"@@{script.split('@@', 2)[1].split()[0]} E {len(cmds) - 1} "
                printed = (work / "pdsh.txt").read_text(errors="replace") if theirs else ""
                reached = {line.split(":", 1)[0] for line in printed.splitlines() if last in line}
                pdsh_lost = n - len(reached) if theirs else "-"
                nan = float("nan")
                pd = theirs or {"wall_s": nan, "cpu_s": nan, "peak_fds": "-", "remote_s": nan}
                if theirs:  # the remote shells and their tools, which the sshd figure leaves out
                    pd["remote_s"] += theirs["shells_s"]
                    ours["remote_s"] += theirs["shells_s"]
                cores = os.cpu_count() or 1
                rows.append(
                    f"| {n} | {rep + 1} | {ours['wall_s']:.2f} s | {pd['wall_s']:.2f} s "
                    f"| {ours['wall_s'] / pd['wall_s']:.2f} | {ours['cpu_s'] / n * 1000:.1f} ms "
                    f"| {pd['cpu_s'] / n * 1000:.1f} ms | {ours['peak_rss_mib']:.0f} MiB "
                    f"| {ours['peak_fds']} / {pd['peak_fds']} | {len(lost)} / {pdsh_lost} "
                    f"| {ours['remote_s'] / n * 1000:.0f} / {pd['remote_s'] / n * 1000:.0f} ms "
                    f"| {ours['remote_s'] / cores:.1f} / {pd['remote_s'] / cores:.1f} s "
                    f"| {(ours['remote_s'] + ours['cpu_s']) / cores:.1f} "
                    f"/ {(pd['remote_s'] + pd['cpu_s']) / cores:.1f} s "
                    f"| {_load()} |"
                )
                print(rows[-1], flush=True)
                if lost:
                    why = Counter(
                        (h.get("status"), (h.get("error") or "")[:160])
                        for h in report.get("hosts", [])
                        if h.get("status") != "ok"
                    )
                    notes.append(
                        f"{n} hosts, run {rep + 1}: Pitstop lost "
                        + "; ".join(
                            f"{count} x {status}: {error}" for (status, error), count in why.most_common(3)
                        )
                    )
                    print(notes[-1], flush=True)
    finally:
        fleet.down(state)
    load = Path("/proc/loadavg").read_text().split()[:3]
    cmd = "python3 bench/bench_sweep.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    text = "\n".join(
        [
            f"Command: `{cmd.strip()}`; lab of {len(lab.hosts)} hosts up in {lab_up_s:.0f} s; "
            f"{len(collectors)} collectors, {len(cmds)} commands per host; "
            f"load average after: {' '.join(load)}; host slots {runner.host_slots(256)}",
            "",
            "| hosts | run | `pitstop diagnose` | `pdsh -R ssh` | ratio | Pitstop CPU/host | pdsh CPU/host "
            "| Pitstop peak RSS | peak fds (Pitstop / pdsh) | hosts lost (Pitstop / pdsh) "
            "| lab CPU/host (Pitstop / pdsh) | lab CPU / cores | (lab + client CPU) / cores | load after |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            *(
                [
                    f"Before and after, interleaved (the baseline `{args.baseline}` first in each pair):",
                    "",
                    "| hosts | run | before: wall | CPU/host | peak RSS | peak fds | hosts lost "
                    "| after: wall | CPU/host | peak RSS | peak fds | hosts lost | load after |",
                    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
                    *compared,
                    "",
                ]
                if compared
                else []
            ),
            *notes,
        ]
    )
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

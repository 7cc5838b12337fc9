"""Fan-out benchmark: Pitstop's runner against OpenSSH and pdsh on the same lab, side by side.

    python3 bench/bench_fanout.py [--hosts 40,160] [--repeat 3] [--scenario h100-sxm5-healthy]

Starts a lab of copies of one scenario (real sshd on 127.0.0.x), then measures:
1. one host, the whole catalog: Pitstop (one connection, lanes of channels) vs its slowest single
   command run alone the same way vs one OpenSSH `ssh` invocation per command;
2. N hosts, the whole catalog: Pitstop vs `pdsh -R ssh` running the same generated script per host;
3. the client's own CPU (user+sys) per host and its peak memory (a fresh worker process per run);
4. remote processes per host: every process a one-host sweep's scripts start, traced with strace on
   that host's sshd (fleet mode: one lane plus the dependent phase).
Prints a Markdown table; `--out FILE` also writes it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_sweep import pdsh_script  # noqa: E402

from pitstop.collectors import catalog, inventory, runner  # noqa: E402
from pitstop.collectors.transport import framing  # noqa: E402
from pitstop.collectors.transport.ssh import Connector  # noqa: E402

ALL = tuple(c.name for c in catalog.CATALOG)


def _script_processes(trace: str) -> dict[str, int]:
    """Processes the framing scripts started, from `strace -f` output of one lab host's sshd.

    Counted: each script shell, its direct children (tools, the coprocess clock, `timeout`) and what a
    `timeout` program starts (the tool). Not counted: sshd's own processes and the lab's fake tools'
    helpers (a real tool does not run `cat` or `awk`).
    """
    parent: dict[int, int] = {}
    program: dict[int, str] = {}
    shells: set[int] = set()
    for line in trace.splitlines():
        pid_text, _, rest = line.partition(" ")
        if not pid_text.isdigit():
            continue
        pid = int(pid_text)
        if rest.startswith("execve(") and "= -1" not in rest:  # completed or <unfinished ...>
            program[pid] = rest.split('"', 2)[1].rsplit("/", 1)[-1]
            if "export LC_ALL=C" in rest:
                shells.add(pid)
        elif ("clone" in rest or "fork" in rest) and "CLONE_THREAD" not in rest and "= " in rest:
            child = rest.rsplit("= ", 1)[1].split()[0]
            if child.isdigit():
                parent[int(child)] = pid
    started = {c for c, p in parent.items() if p in shells}
    started |= {c for c, p in parent.items() if p in started and program.get(p) == "timeout"}
    return {"shells": len(shells), "processes": len(shells) + len(started)}


def remote_processes(lab, inv: inventory.Inventory, name: str, collectors: tuple[str, ...]) -> dict:
    """Trace one host's sshd while a fleet-mode sweep (one lane) runs there (again if strace saw nothing)."""
    for _ in range(3):
        found = _traced_sweep(lab, inv, name, collectors)
        if found["shells"]:
            break
    return found


def _traced_sweep(lab, inv: inventory.Inventory, name: str, collectors: tuple[str, ...]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "strace.txt"
        tracer = subprocess.Popen(
            ["strace", "-f", "-qq", "-s", "48", "-e", "trace=execve,clone,clone3,fork,vfork", "-o", str(log)]
            + ["-p", str(lab.host(name).pid)],
            stderr=subprocess.DEVNULL,
        )
        status = Path(f"/proc/{lab.host(name).pid}/status")
        deadline = time.monotonic() + 30
        while "TracerPid:\t0" in status.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)  # strace attaches
        connector = Connector(inv)

        async def sweep() -> runner.HostRun:
            try:
                return await runner.run_host(inv.get(name), collectors, connector=connector, lanes=1)
            finally:
                await connector.close()

        run = asyncio.run(sweep())
        time.sleep(0.5)
        tracer.terminate()
        tracer.wait()
        counts = _script_processes(log.read_text(errors="replace"))
    return {**counts, "commands": len(run.commands), "channels": run.channels}


def _rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


async def _fanout(
    inv: inventory.Inventory, names: list[str], collectors: tuple[str, ...]
) -> list[runner.HostRun]:
    connector = Connector(inv)
    lanes = runner.lanes_for(len(names))
    try:
        return await asyncio.gather(
            *(runner.run_host(inv.get(n), collectors, connector=connector, lanes=lanes) for n in names)
        )
    finally:
        await connector.close()


def worker(inventory_path: str, names: list[str], collectors: tuple[str, ...]) -> dict:
    """Run one fan-out in this (fresh) process and report wall time, CPU and memory."""
    inv = inventory.load(inventory_path)
    base_rss = _rss_kib("VmRSS")
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    runs = asyncio.run(_fanout(inv, names, collectors))
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    bad = [(r.host, r.status, r.error) for r in runs if r.status != "ok"]
    failed = sum(c.outcome not in ("ok", "missing") for r in runs for c in r.commands)
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "hosts": len(names),
        "bad_hosts": bad[:3],
        "failed_commands": failed,
        "peak_rss_mib": _rss_kib("VmHWM") / 1024,
        "base_rss_mib": base_rss / 1024,
        "channels": [r.channels for r in runs],
        "durations": {c.collector: c.duration_s for c in runs[0].commands} if runs else {},
    }


def _run_worker(inventory_path: Path, names: list[str], collectors: tuple[str, ...] = ALL) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", str(inventory_path), ",".join(names), ",".join(collectors)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def _ssh_base(lab, host) -> list[str]:
    return [
        "ssh",
        "-q",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        f"UserKnownHostsFile={lab.known_hosts}",
        "-o",
        "ControlMaster=no",
        "-i",
        str(lab.identity_file),
        "-p",
        str(host.port),
        "-l",
        lab.user,
        host.address,
    ]


def _commands_for(host_run: runner.HostRun) -> list[catalog.Command]:
    """The concrete commands a full sweep ran (ethtool per interface included), rendered again."""
    cmds = []
    for r in host_run.commands:
        c = catalog.get(r.collector)
        cmds.append(catalog.render(c, param=r.argv[-1] if c.param else None))
    return cmds


def ssh_per_command(lab, host, cmds: list[catalog.Command]) -> float:
    """One OpenSSH `ssh` process (and connection) per command, in sequence, as scripts usually do."""
    t0 = time.perf_counter()
    for cmd in cmds:
        remote = "export LC_ALL=C; " + framing.command_line(cmd)
        subprocess.run([*_ssh_base(lab, host), remote], input=cmd.stdin, capture_output=True, check=False)
    return time.perf_counter() - t0


def pdsh(lab, hosts, cmds: list[catalog.Command]) -> tuple[float, float]:
    """`pdsh -R ssh` over all hosts at once running the same commands in one shell; wall and client CPU."""
    script = pdsh_script([c for c in cmds if c.stdin is None])
    for c in cmds:  # the NVML probe goes in as a here-document: the same remote work as ours
        if c.stdin is not None:
            wrapped = f"timeout -k {framing.KILL_AFTER_S} {c.timeout_s} {shlex.join(c.argv)}"
            script += f"{wrapped} <<'PITSTOP_EOF'\n{c.stdin.decode()}\nPITSTOP_EOF\n"
    env = dict(
        os.environ,
        PDSH_RCMD_TYPE="ssh",
        PDSH_SSH_ARGS=" ".join([*(_ssh_base(lab, hosts[0])[1:-5]), "-p", str(hosts[0].port), "-l%u", "%h"]),
    )
    assert len({h.port for h in hosts}) == 1, "pdsh gets one port; keep the lab under 250 hosts"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [
            "pdsh",
            "-R",
            "ssh",
            "-f",
            str(len(hosts)),
            "-l",
            lab.user,
            "-w",
            ",".join(h.address for h in hosts),
            script,
        ],
        env=env,
        capture_output=True,
        check=False,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"pdsh failed: {proc.stderr.decode(errors='replace')[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _median(values: list[float]) -> float:
    return statistics.median(values)


def measure(lab, sizes: list[int], repeat: int, collectors: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Every comparison for one set of collectors; rows of (measurement, value, note)."""
    names = [h.name for h in lab.hosts]
    one = names[0]
    inv = inventory.load(lab.inventory)
    sweeps = [_run_worker(lab.inventory, [one], collectors) for _ in range(repeat)]
    sweep_wall = _median([s["wall_s"] for s in sweeps])
    alone = {
        name: _median([_run_worker(lab.inventory, [one], (name,))["wall_s"] for _ in range(repeat)])
        for name in collectors
    }
    slowest = max(alone, key=alone.get)
    cmds = _commands_for(asyncio.run(_fanout(inv, [one], collectors))[0])
    per_cmd = _median([ssh_per_command(lab, lab.host(one), cmds) for _ in range(repeat)])
    procs = remote_processes(lab, inv, one, collectors)
    rows = [
        (
            f"1 host, {len(cmds)} commands, Pitstop",
            f"{sweep_wall:.3f} s",
            f"{sweeps[0]['channels'][0]} channels on 1 connection",
        ),
        (
            f"slowest single command alone ({slowest}), Pitstop",
            f"{alone[slowest]:.3f} s",
            f"sweep / slowest = {sweep_wall / alone[slowest]:.2f} (target <= 1.5)",
        ),
        (
            "1 host, one OpenSSH `ssh` per command",
            f"{per_cmd:.3f} s",
            f"Pitstop {per_cmd / sweep_wall:.1f}x faster (target >= 10)",
        ),
        (
            "remote processes per host, fleet-mode sweep (strace on the host's sshd)",
            str(procs["processes"]),
            f"{procs['commands']} commands, {procs['shells']} shells ({procs['channels']} channels); "
            "target <= commands + 3",
        ),
    ]
    for n in sizes:
        subset = names[:n]
        ours = [_run_worker(lab.inventory, subset, collectors) for _ in range(repeat)]
        theirs = [pdsh(lab, [lab.host(h) for h in subset], cmds) for _ in range(repeat)]
        wall, pwall = _median([o["wall_s"] for o in ours]), _median([t[0] for t in theirs])
        cpu = _median([o["cpu_s"] for o in ours]) / n * 1000
        pcpu = _median([t[1] for t in theirs]) / n * 1000
        bad = sum(len(o["bad_hosts"]) for o in ours)
        rows += [
            (
                f"{n} hosts, Pitstop",
                f"{wall:.2f} s",
                f"/ pdsh = {wall / pwall:.2f} (target <= 0.6); {bad} failures",
            ),
            (f"{n} hosts, `pdsh -R ssh -f {n}`, same script", f"{pwall:.2f} s", "one shell per host"),
            (
                f"{n} hosts, client CPU per host",
                f"{cpu:.1f} ms",
                f"target <= 15 ms; pdsh's ssh clients {pcpu:.1f} ms",
            ),
            (
                f"{n} hosts, client peak RSS",
                f"{max(o['peak_rss_mib'] for o in ours):.0f} MiB",
                f"{ours[0]['base_rss_mib']:.0f} MiB before the fan-out",
            ),
        ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", default="40,160")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scenario", default="h100-sxm5-healthy")
    parser.add_argument(
        "--subsets",
        default="all,12",
        help="collector sets: 'all' (whole catalog) and/or N (the first N plain tools)",
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument(
        "--processes", action="store_true", help="only count remote processes per host (strace, one host)"
    )
    args = parser.parse_args()
    if args.worker:
        path, names, collectors = args.worker
        print(json.dumps(worker(path, names.split(","), tuple(collectors.split(",")))))
        return

    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_all, shipped_scenarios

    sizes = [int(n) for n in args.hosts.split(",")]
    scenario = next(p for p in shipped_scenarios() if p.name == args.scenario)
    if args.processes:
        state = Path(tempfile.mkdtemp(prefix="pitstop-bench-"))
        lab = fleet.up(load_all([scenario]), state, copies=1, port=30000 + os.getpid() % 2000 * 10)
        try:
            print(json.dumps(remote_processes(lab, inventory.load(lab.inventory), lab.hosts[0].name, ALL)))
        finally:
            fleet.down(state)
        return
    state = Path(tempfile.mkdtemp(prefix="pitstop-bench-"))
    lab = fleet.up(load_all([scenario]), state, copies=max(sizes), port=30000 + os.getpid() % 2000 * 10)
    text = ""
    try:
        for subset in args.subsets.split(","):
            plain = tuple(c.name for c in catalog.CATALOG if c.argv[0] != "python3" and not c.param)
            collectors = ALL if subset == "all" else plain[: int(subset)]
            table = ["| measurement | value | note |", "|---|---|---|"]
            table += [f"| {a} | {b} | {c} |" for a, b, c in measure(lab, sizes, args.repeat, collectors)]
            label = "whole catalog" if subset == "all" else f"first {subset} plain collectors"
            text += f"\n### {label}: {', '.join(collectors)}\n\n" + "\n".join(table) + "\n"
    finally:
        fleet.down(state)
    cmd = "python3 bench/bench_fanout.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    text = f"Command: `{cmd.strip()}` (median of {args.repeat}; lab scenario {args.scenario})\n" + text
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

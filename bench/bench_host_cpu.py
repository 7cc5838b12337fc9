"""Client CPU per host of a full sweep, by phase: SSH connect, channels and data, checks and parsers.

    python3 bench/bench_host_cpu.py [--hosts 20] [--rounds 5] [--profile FILE] [--save FILE | --load FILE]

Starts a lab of `--hosts` copies of h100-sxm5-healthy (real sshd on 127.0.0.x), then measures with
`time.process_time` (the process's CPU, not wall time, so the figures hold on a loaded machine):
connect + close alone, `runner.run_host` with a sweep's collectors (connect included; the lanes of a
fleet sweep), and `app.checking.check` (every curated cause's checks and the host profile, fresh
facts each time, as the check worker does) on each host's results, best of `--rounds`. Data
packets per host: the channels' received data chunks (one per SSH data message). `--save` keeps the
collected results (pickle) so `--load` times the checks again without a lab; `--profile` writes
cProfile stats of the checks.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pickle
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pitstop.app.checking import check  # noqa: E402
from pitstop.app.diagnose import needed_collectors  # noqa: E402
from pitstop.collectors import inventory as inventory_mod  # noqa: E402
from pitstop.collectors import runner  # noqa: E402
from pitstop.collectors.checks import registry  # noqa: E402
from pitstop.collectors.model import CheckContext  # noqa: E402
from pitstop.collectors.transport import ssh  # noqa: E402
from pitstop.collectors.transport.ssh import Connector  # noqa: E402
from pitstop.kb.schema import load_pitfalls  # noqa: E402


def _collect(n: int) -> tuple[list[dict], dict[str, float]]:
    """Start a lab of n hosts, time connects and sweeps; the hosts' results and per-host CPU."""
    from pitstop.lab import fleet
    from pitstop.lab.scenario import load_all, shipped_scenarios

    scenario = next(p for p in shipped_scenarios() if p.name == "h100-sxm5-healthy")
    state = Path(tempfile.mkdtemp(prefix="pitstop-hostcpu-"))
    lab = fleet.up(load_all([scenario]), state, copies=n)
    try:
        inv = inventory_mod.load(lab.inventory)
        hosts = [inv.hosts[h.name] for h in lab.hosts]
        collectors = needed_collectors([p for p in load_pitfalls() if p.checks])
        lanes = runner.lanes_for(160)

        async def connects() -> float:
            connector = Connector(inv)
            t0 = time.process_time()
            for h in hosts:
                session = await connector.connect(h)
                await session.close()
            return time.process_time() - t0

        async def sweeps() -> tuple[float, list]:
            connector = Connector(inv)
            t0 = time.process_time()
            runs = await asyncio.gather(
                *(runner.run_host(h, collectors, connector=connector, lanes=lanes) for h in hosts)
            )
            return time.process_time() - t0, list(runs)

        connect_s = asyncio.run(connects())
        received = ssh._Channel.data_received
        chunks = [0]

        def counted(self, data, datatype):  # type: ignore[no-untyped-def]
            chunks[0] += 1
            received(self, data, datatype)

        ssh._Channel.data_received = counted  # type: ignore[method-assign]
        try:
            sweep_s, runs = asyncio.run(sweeps())
        finally:
            ssh._Channel.data_received = received  # type: ignore[method-assign]
    finally:
        fleet.down(state)
    bad = [r.host for r in runs if r.status != "ok"]
    if bad:
        print(f"hosts not ok: {bad}", file=sys.stderr)
    figures = {
        "connect_ms": connect_s / n * 1000,
        "run_host_ms": sweep_s / n * 1000,
        "data_packets": chunks[0] / n,
        "channels": sum(r.channels for r in runs) / n,
    }
    return [dict(r.results) for r in runs], figures


def _time_checks(results: list[dict], rounds: int, profile: Path | None) -> float:
    pitfalls = [p for p in load_pitfalls() if p.checks]
    now = datetime.now(UTC)
    blob = [pickle.dumps(r) for r in results]  # fresh copies each round: facts are cached per result set

    def one_round() -> float:
        fresh = [pickle.loads(b) for b in blob]
        registry._RECENT.clear()
        t0 = time.process_time()
        for i, r in enumerate(fresh):
            ctx = CheckContext(host=f"h{i}", expectations={}, since=None, now=now, until=None)
            check(pitfalls, r, ctx, f"h{i}")
        return (time.process_time() - t0) / len(fresh)

    best = min(one_round() for _ in range(rounds))
    if profile is not None:
        prof = cProfile.Profile(time.process_time)
        prof.runcall(one_round)
        prof.dump_stats(str(profile))
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--load", type=Path, default=None)
    args = parser.parse_args()
    figures: dict[str, float] = {}
    if args.load:
        results = pickle.loads(args.load.read_bytes())
    else:
        results, figures = _collect(args.hosts)
        if args.save:
            args.save.write_bytes(pickle.dumps(results))
    figures["checks_ms"] = _time_checks(results, args.rounds, args.profile)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    shown = ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
    print(f"{len(results)} hosts: {shown} (CPU per host; load {load})")


if __name__ == "__main__":
    main()

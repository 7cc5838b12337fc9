"""Warm `ask` on short and long pastes: a short line, a Chinese paragraph, a 200-line trace, a 300-line
log, a 1 MB log and a 10 MB paste (kept to its focus, with the answer marked truncated).

    python3 bench/bench_long_inputs.py [--rounds 20] [--db PATH]

Builds the bundled KB in a temporary directory (or opens `--db`), warms it, then times
`KnowledgeBase.ask` per input: wall p50 and p99 over `--rounds` runs, the CPU time of the process
(every thread: the dense signal runs on a worker thread; p50: what the ask costs, whatever the
machine's load), and whether the answer says the paste was truncated. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

NOISE = "[2026-11-30 10:{m:02d}:{s:02d}] rank{r} INFO step {n} loss 2.{n:04d} lr 3e-4 tokens/s 48211\n"
ERROR = (
    "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error\n"
    "NCCL WARN Call to ibv_modify_qp failed with error Connection timed out\n"
)


def _log(lines: int) -> str:
    body = "".join(NOISE.format(m=n // 60 % 60, s=n % 60, r=n % 8, n=n) for n in range(lines - 2))
    return body + ERROR


def _trace(frames: int) -> str:
    out = ["Traceback (most recent call last):\n"]
    for i in range(frames):
        out.append(f'  File "/opt/app/train/layer_{i % 17}.py", line {100 + i}, in forward\n')
        out.append(f"    x = self.block_{i % 5}(x)\n")
    out.append("RuntimeError: CUDA error: an illegal memory access was encountered\n")
    return "".join(out)[: 200 * 60]


def _sized(size: int) -> str:
    line = NOISE.format(m=1, s=2, r=3, n=4)
    return line * (size // len(line)) + ERROR


INPUTS = {
    "short line": "RuntimeError: CUDA error: an illegal memory access was encountered",
    "Chinese paragraph": (
        "训练跑到一半突然卡住，所有 rank 都不动了，过了半小时才报 NCCL 超时。"
        "看 dmesg 发现有 Xid 79，nvidia-smi 里少了一张卡，重启之后又恢复正常，怀疑是掉卡。"
    ),
    "200-line trace": "".join(_trace(100).splitlines(keepends=True)[:199])
    + "RuntimeError: CUDA error: an illegal memory access was encountered\n",
    "300-line log": _log(300),
    "1 MB log": _sized(1_000_000),
    "10 MB paste": _sized(10_000_000),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    from pitstop.kb.service import KnowledgeBase

    db = args.db or Path(tempfile.mkdtemp(prefix="pitstop-long-")) / "pitstop.db"
    t0 = time.perf_counter()
    kb = KnowledgeBase.open(db)
    kb.warm()
    print(f"KB ready in {time.perf_counter() - t0:.1f} s ({db})", flush=True)
    rows = [
        "| input | size | p50 | p99 | CPU p50 | truncated | top answer |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, text in INPUTS.items():
        kb.ask(text)  # one untimed run: caches that a repeated paste would also have
        times, cpu = [], []
        for _ in range(args.rounds):
            t, c = time.perf_counter(), time.process_time()
            answer = kb.ask(text)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)  # every thread's: dense runs on a worker
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        top = answer.results[0].id if answer.results else "-"
        lines = text.count("\n") + 1
        rows.append(
            f"| {name} | {len(text.encode()):,} B, {lines} lines | {statistics.median(times) * 1000:.1f} ms "
            f"| {p99 * 1000:.1f} ms | {statistics.median(cpu) * 1000:.1f} ms | {answer.truncated} | {top} |"
        )
        print(rows[-1], flush=True)
    load = Path("/proc/loadavg").read_text().split()[:3]
    cmd = f"python3 bench/bench_long_inputs.py --rounds {args.rounds}"
    print(f"\nCommand: `{cmd}`; load average {' '.join(load)}\n")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

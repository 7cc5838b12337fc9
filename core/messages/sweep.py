"""Large-sweep wording: what a sweep over many hosts keeps (app/diagnose.py)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "sweep.outputs_released": (
        "command outputs are not kept for sweeps over {keep} hosts ({n} here): verdicts, evidence lines,"
        " exit codes and sizes are kept",
        "超过 {keep} 台主机的巡检不保留命令原始输出（本次 {n} 台）：判定、证据行、退出码和输出大小均保留",
    ),
}

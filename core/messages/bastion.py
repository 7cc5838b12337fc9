"""The lab's bastion chain (lab/bastion.py), as `pitstop start` and `pitstop lab up --bastion` show it."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "bastion.describe": (
        "{target} is reached through {chain}, defined only in the ssh config {config} (Include + Match); "
        "try: diagnose {try_}",
        "{target} 经 {chain} 访问，仅在 ssh 配置 {config} 中定义（Include + Match）；"
        "可以试试：diagnose {try_}",
    ),
    "bastion.reached": (
        "reached {target} through {chain}: host keys checked at every hop",
        "已经 {chain} 连上 {target}：每一跳的主机密钥都已校验",
    ),
    "bastion.failed": (
        "could not reach {target} through the bastion chain: {error}",
        "无法经跳板链连上 {target}：{error}",
    ),
}

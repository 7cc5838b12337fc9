"""Checks that only a comparison of several hosts can decide (collectors/compare.py decides them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import inconclusive, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.core.i18n import msg

DEFAULT_FACTS = ("nccl", "torch", "torch_cuda", "driver")


def versions_agree_across_hosts(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The hosts of one job run the same NCCL, torch, torch CUDA build and driver (`facts` narrows the
    list); a host whose versions differ from the majority's is confirmed. One host alone, or a sweep of
    unrelated hosts (no job, no error text), cannot say: their differences still show as outliers."""
    return inconclusive(msg("reasons.fleet.needs_peers"))


SPECS = (
    spec(
        versions_agree_across_hosts,
        ("torch_probe", "driver_version"),
        {"facts": "versions to compare: nccl, torch, torch_cuda, driver, cuda, kernel (default: first four)"},
        describe={
            "en": (
                "Compares the NCCL, PyTorch, CUDA and driver versions of every host in the run: "
                "a host that differs from the others confirms it, the same versions everywhere rule it out."
            ),
            "zh": (
                "比较本次诊断中每台主机的 NCCL、PyTorch、CUDA 和驱动版本："
                "有主机与其他主机不一致即确认，全部一致则排除。"
            ),
        },
    ),
)

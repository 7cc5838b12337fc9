"""Job checks on the NVML probe's process facts (allow-listed environment, limits, command line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pitstop.collectors.checks.job import compute_capability, runs_on
from pitstop.collectors.model import CommandResult
from tests.collectors.check_inputs import check, missing, ok, shared

UNLIMITED = {"soft": "unlimited", "hard": "unlimited", "unit": "bytes"}
LIMITS = {
    "memlock": {"soft": "8388608", "hard": "8388608", "unit": "bytes"},
    "nofile": {"soft": "1024", "hard": "524288", "unit": "files"},
    "stack": {"soft": "8388608", "hard": "unlimited", "unit": "bytes"},
}
H100 = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "errors": {}, "processes": []}


def job(pid: int = 4242, environ: dict[str, str] | None = None, **fields: Any) -> dict[str, Any]:
    """One job record as the probe prints it."""
    record = {"pid": pid, "name": "python", "cmdline": "python train.py", "environ": environ or {}}
    record["limits"] = LIMITS
    record.update(fields)
    return record


def probe(*jobs: dict[str, Any], gpus: tuple[dict[str, Any], ...] = (H100,)) -> CommandResult:
    """The NVML probe's output with these GPU processes."""
    data = {"probe": "pitstop-nvml", "source": "nvml", "gpus": list(gpus), "jobs": list(jobs)}
    return ok("nvml_probe", json.dumps(data))


def ib_active(shared_dir: Path) -> CommandResult:
    return shared(shared_dir, "ibstat", "ibstat/a100-cx6-all-active.txt")


NO_IB = ok("ibstat", "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Down\n\t\tLink layer: InfiniBand\n")
IB_DISABLE = {"names": ["NCCL_IB_DISABLE"], "value": "1", "with_rdma": True}


def test_no_gpu_process_is_inconclusive_never_ruled_out(shared_dir: Path) -> None:
    for name, params in (
        ("job_env_set", IB_DISABLE),
        ("job_socket_ifname", {}),
        ("job_limit", {"limit": "stack", "confirm_unlimited": True}),
        ("job_cmdline", {"pattern": "x"}),
    ):
        verdict = check(name, probe(), ib_active(shared_dir), params=params)
        assert (verdict.verdict, str(verdict.reason)) == ("inconclusive", "no GPU process running to inspect")
    old = ok("nvml_probe", json.dumps({"probe": "pitstop-nvml", "gpus": [H100]}))
    assert check("job_cmdline", old, params={"pattern": "x"}).verdict == "inconclusive"
    assert check("job_cmdline", missing("nvml_probe"), params={"pattern": "x"}).verdict == "inconclusive"


def test_ib_disabled_names_the_variable_and_its_conda_env(shared_dir: Path) -> None:
    env = {"NCCL_IB_DISABLE": "1", "CONDA_PREFIX": "/opt/conda/envs/llm"}
    verdict = check("job_env_set", probe(job(environ=env)), ib_active(shared_dir), params=IB_DISABLE)
    assert verdict.verdict == "confirmed"
    assert verdict.evidence[0].lines == ("pid 4242 (python): NCCL_IB_DISABLE=1 (in env /opt/conda/envs/llm)",)
    assert "Active" in verdict.evidence[1].lines[0]
    assert check("job_env_set", probe(job(environ=env)), NO_IB, params=IB_DISABLE).verdict == "ruled_out"
    unset = probe(job(environ={"NCCL_IB_DISABLE": "0"}))
    assert check("job_env_set", unset, ib_active(shared_dir), params=IB_DISABLE).verdict == "ruled_out"
    assert check("job_env_set", probe(job(environ=env)), missing("ibstat"), params=IB_DISABLE).verdict == (
        "inconclusive"
    )


def test_an_unreadable_process_keeps_absence_inconclusive(shared_dir: Path) -> None:
    hidden = {**job(pid=7), "environ": None, "environ_error": "Permission denied"}
    both = probe(job(environ={}), hidden)
    verdict = check("job_env_set", both, ib_active(shared_dir), params=IB_DISABLE)
    assert verdict.verdict == "inconclusive" and "pid 7 (python): Permission denied" in str(verdict.reason)
    only = check("job_env_set", probe(hidden), params=IB_DISABLE)
    assert only.verdict == "inconclusive" and "cannot read `/proc/PID/environ`" in str(only.reason)


def test_debug_overrides_left_set() -> None:
    params = {"names": ["NCCL_P2P_DISABLE", "NCCL_ALGO", "NCCL_DEBUG_SUBSYS"], "found": "left set"}
    env = {"NCCL_P2P_DISABLE": "1", "NCCL_ALGO": "Ring", "NCCL_DEBUG": "INFO"}
    verdict = check("job_env_set", probe(job(environ=env)), params=params)
    assert verdict.verdict == "confirmed" and str(verdict.reason) == "left set"
    assert verdict.evidence[0].lines == (
        "pid 4242 (python): NCCL_ALGO=Ring",
        "pid 4242 (python): NCCL_P2P_DISABLE=1",
    )
    clean = check("job_env_set", probe(job(environ={"NCCL_DEBUG": "WARN"})), params=params)
    assert clean.verdict == "ruled_out"
    prefix = check("job_env_set", probe(job(environ=env)), params={"names": ["NCCL_P2P_*"]})
    assert prefix.verdict == "confirmed"


LINKS = ok(
    "ip_link",
    "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT\n"
    "2: ens1f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP mode DEFAULT\n"
    "3: eth1: <BROADCAST,MULTICAST> mtu 1500 qdisc mq state DOWN mode DEFAULT\n",
)


@pytest.mark.parametrize(
    ("setting", "verdict"),
    [
        ("eth0", "confirmed"),  # no such interface
        ("eth1", "confirmed"),  # exists, down
        ("=ens1", "confirmed"),  # exact name that does not exist
        ("ens", "ruled_out"),  # prefix of an interface that is up
        ("=ens1f0", "ruled_out"),
        ("^docker,lo", "ruled_out"),  # exclusions leave ens1f0
        ("^ens,eth", "confirmed"),  # exclusions leave nothing up
    ],
)
def test_socket_ifname(setting: str, verdict: str) -> None:
    got = check("job_socket_ifname", probe(job(environ={"NCCL_SOCKET_IFNAME": setting})), LINKS)
    assert got.verdict == verdict, str(got.reason)
    if verdict == "confirmed":
        assert f"NCCL_SOCKET_IFNAME={setting}" in got.evidence[0].lines[0]


def test_socket_ifname_unset_or_unread() -> None:
    assert check("job_socket_ifname", probe(job()), LINKS).verdict == "ruled_out"
    setting = probe(job(environ={"NCCL_SOCKET_IFNAME": "ens"}))
    assert check("job_socket_ifname", setting, missing("ip_link")).verdict == "inconclusive"


MEMLOCK = {"limit": "memlock", "confirm_limited": True, "with_rdma": True}
NOFILE = {"limit": "nofile", "confirm_at_most": 4096, "rule_out_from": 65536}
STACK = {"limit": "stack", "confirm_unlimited": True}


def limits(**rows: dict[str, str]) -> dict[str, dict[str, str]]:
    return {**LIMITS, **rows}


def test_memlock(shared_dir: Path) -> None:
    low = check("job_limit", probe(job()), ib_active(shared_dir), params=MEMLOCK)
    assert low.verdict == "confirmed" and low.evidence[0].lines == (
        "pid 4242 (python): Max locked memory: soft 8388608, hard 8388608 bytes",
    )
    assert check("job_limit", probe(job()), NO_IB, params=MEMLOCK).verdict == "ruled_out"
    free = probe(job(limits=limits(memlock=UNLIMITED)))
    assert check("job_limit", free, ib_active(shared_dir), params=MEMLOCK).verdict == "ruled_out"


@pytest.mark.parametrize(
    ("soft", "verdict"),
    [
        ("1024", "confirmed"),
        ("4096", "confirmed"),
        ("16384", "inconclusive"),
        ("65536", "ruled_out"),
        ("unlimited", "ruled_out"),
    ],
)
def test_open_files(soft: str, verdict: str) -> None:
    row = {"soft": soft, "hard": "1048576", "unit": "files"}
    assert check("job_limit", probe(job(limits=limits(nofile=row))), params=NOFILE).verdict == verdict


def test_stack_unlimited() -> None:
    hit = check("job_limit", probe(job(limits=limits(stack=UNLIMITED))), params=STACK)
    assert hit.verdict == "confirmed" and "Max stack size: soft unlimited" in str(hit.reason)
    assert check("job_limit", probe(job()), params=STACK).verdict == "ruled_out"
    unread = probe(job(limits=None, limits_error="Permission denied"))
    assert check("job_limit", unread, params=STACK).verdict == "inconclusive"
    assert check("job_limit", probe(job()), params={"limit": "cpu"}).verdict == "inconclusive"


LAUNCH = {"pattern": r"torch\.distributed\.launch\b|--local[-_]rank[= ]"}


def test_distributed_launch_in_cmdline() -> None:
    worker = job(cmdline="/opt/conda/bin/python -u train.py --local_rank=3 --password=hunter2")
    verdict = check("job_cmdline", probe(worker), params=LAUNCH)
    assert verdict.verdict == "confirmed" and "--local_rank=3" in verdict.evidence[0].lines[0]
    assert "hunter2" not in verdict.evidence[0].lines[0]  # the parser redacts the command line
    torchrun = job(cmdline="/opt/conda/bin/python -u train.py --lr 3e-4")
    assert check("job_cmdline", probe(torchrun), params=LAUNCH).verdict == "ruled_out"


def torch_out(arch: str | None) -> CommandResult:
    extra = "" if arch is None else f"\narch_list {arch}\nnccl 2.21.5"
    return ok("torch_probe", "2.5.1+cu121 12.1 True" + extra)


def test_torch_arch() -> None:
    b200 = {**H100, "name": "NVIDIA B200"}
    assert check("torch_arch", probe(gpus=(H100,)), torch_out("sm_80 sm_86 sm_90")).verdict == "ruled_out"
    miss = check("torch_arch", probe(gpus=(b200,)), torch_out("sm_80 sm_86 sm_90"))
    assert miss.verdict == "confirmed" and miss.evidence[0].lines == ("GPU 0 (NVIDIA B200): sm_100",)
    assert check("torch_arch", probe(gpus=(H100,)), torch_out(None)).verdict == "inconclusive"  # older probe
    assert check("torch_arch", probe(gpus=(H100,)), torch_out("")).verdict == "inconclusive"  # CPU-only
    odd = {**H100, "name": "Mystery GPU"}
    assert check("torch_arch", probe(gpus=(odd,)), torch_out("sm_90")).verdict == "inconclusive"


@pytest.mark.parametrize(
    ("arch", "cc", "runs"),
    [
        (("sm_80",), "8.6", True),  # same major, older minor cubin
        (("sm_86",), "8.0", False),
        (("sm_90a",), "9.0", True),
        (("sm_90a",), "9.1", False),
        (("sm_80", "compute_80"), "9.0", True),  # PTX JIT
        (("sm_70", "sm_75", "sm_80", "sm_86", "sm_90"), "12.0", False),
        (("sm_100", "sm_120"), "12.0", True),
    ],
)
def test_runs_on(arch: tuple[str, ...], cc: str, runs: bool) -> None:
    assert runs_on(arch, cc) is runs


@pytest.mark.parametrize(
    ("name", "cc"),
    [
        ("NVIDIA A100-SXM4-80GB", "8.0"),
        ("NVIDIA A10", "8.6"),
        ("NVIDIA H200", "9.0"),
        ("NVIDIA L40S", "8.9"),
        ("Tesla V100-SXM2-32GB", "7.0"),
        ("NVIDIA GeForce RTX 5090", "12.0"),
    ],
)
def test_compute_capability_table(name: str, cc: str) -> None:
    assert compute_capability(name) == cc

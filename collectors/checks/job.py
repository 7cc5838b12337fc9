"""Job checks: what the NVML probe read from /proc of each GPU compute process (allow-listed
environment variables, resource limits, command line), and the torch build's GPU architectures.

No GPU process running means nothing to inspect: inconclusive, never ruled out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import (
    as_list,
    confirmed,
    entry_text,
    gpus_or_reason,
    inconclusive,
    ruled_out,
    spec,
)
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers.nvml_probe import Job
from pitstop.core.i18n import Msg, msg

PROBE = "nvml_probe"
RERUN = "cat /proc/PID/environ | tr '\\0' '\\n'; cat /proc/PID/limits  (PID from nvidia-smi)"
LIMIT_LABELS = {"memlock": "Max locked memory", "nofile": "Max open files", "stack": "Max stack size"}
# Model name -> compute capability, most specific first ("A100" before "A10"); NVML/nvidia-smi -q names.
COMPUTE_CAPABILITY: tuple[tuple[str, str], ...] = (
    (r"\bB300\b", "10.3"),
    (r"\bG?B200\b", "10.0"),
    (r"RTX 50\d0|RTX PRO \d+ Blackwell", "12.0"),
    (r"\bG?H(100|200|800|20)\b", "9.0"),
    (r"\bA(100|800|30)\b", "8.0"),
    (r"\bL(4|40S?|20)\b|RTX 40\d0|RTX \d+ Ada", "8.9"),
    (r"\bA(10G?|40|16|2|6000|5000|4000)\b|RTX 30\d0|RTX A\d+", "8.6"),
    (r"\bT4\b|RTX 20\d0|Quadro RTX", "7.5"),
    (r"\bV100\b", "7.0"),
    (r"\bP100\b", "6.0"),
)


def _jobs(facts: Facts) -> tuple[Job, ...] | Verdict:
    probe = facts.get(PROBE)
    if probe is None:
        return inconclusive(facts.why_missing(PROBE))
    if probe.jobs is None:
        return inconclusive(msg("reasons.job.no_process_facts"))
    if not probe.jobs:
        return inconclusive(msg("reasons.job.no_process"))
    return probe.jobs


def _readable(facts: Facts, field: str) -> tuple[tuple[Job, ...], tuple[Msg, ...]] | Verdict:
    """Jobs whose `field` was read, and why the others were not; inconclusive when none was."""
    jobs = _jobs(facts)
    if isinstance(jobs, Verdict):
        return jobs
    read = tuple(j for j in jobs if getattr(j, field) is not None)
    unread = tuple(
        msg("reasons.job.error_on", job=j.label, error=j.errors[field])
        if field in j.errors
        else msg("reasons.job.unreadable_on", job=j.label)
        for j in jobs
        if j not in read
    )
    if not read:
        return inconclusive(msg("reasons.job.none_readable", field=field, why=unread))
    return read, unread


def _evidence(facts: Facts, lines: list[str]) -> Any:
    return facts.evidence(PROBE, lines, rerun=RERUN)


def _absent(
    facts: Facts, reason: Msg, jobs: tuple[Job, ...], unread: tuple[Msg, ...], lines: list[str]
) -> Verdict:
    """Ruled out on every readable process, unless some could not be read."""
    if unread:
        return inconclusive(msg("reasons.job.absent_in_readable", reason=reason, why=unread))
    return ruled_out(msg("reasons.job.absent", reason=reason, n=len(jobs)), _evidence(facts, lines[:8]))


def _origin(job: Job) -> str:
    env = job.environ or {}
    where = env.get("CONDA_PREFIX") or env.get("VIRTUAL_ENV")
    return f" (in env {where})" if where else ""


def _rdma_port(facts: Facts) -> str | Verdict | None:
    """The first active IB/RoCE port as an evidence line, None when there is none."""
    ib = facts.get("ibstat")
    if ib is None:
        return inconclusive(msg("reasons.job.rdma_unknown", why=facts.why_missing("ibstat")))
    active = [p for p in ib.ports if (p.state or "").lower() == "active"]
    if not active:
        return None
    port = active[0]
    return f"{port.ca} port {port.port}: {port.state} ({port.link_layer or 'unknown link layer'})"


def job_env_set(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A GPU process has one of `names` set (a trailing * is a prefix; `value` narrows it); with
    `with_rdma` only while ibstat shows an active port. `found` words the confirmation."""
    names = [str(n) for n in as_list(params.get("names"))]
    value = params.get("value")
    got = _readable(facts, "environ")
    if isinstance(got, Verdict):
        return got
    jobs, unread = got

    def wanted(name: str, val: str) -> bool:
        named = any(name.startswith(n[:-1]) if n.endswith("*") else name == n for n in names)
        return named and (value is None or val == str(value))

    hits = [
        f"{j.label}: {name}={val}{_origin(j)}"
        for j in jobs
        for name, val in sorted((j.environ or {}).items())
        if wanted(name, val)
    ]
    shown = ", ".join(names) + ("" if value is None else f" = {value}")
    if not hits:
        return _absent(
            facts,
            msg("reasons.job.env_not_set", names=shown),
            jobs,
            unread,
            [f"{j.label}: none of {shown}" for j in jobs],
        )
    found = entry_text(params.get("found"), msg("reasons.job.env_set", names=shown))
    if params.get("with_rdma"):
        port = _rdma_port(facts)
        if isinstance(port, Verdict):
            return port
        if port is None:
            return ruled_out(msg("reasons.job.no_active_port", found=found), _evidence(facts, hits))
        return confirmed(
            msg("reasons.job.while_port", found=found, port=port),
            _evidence(facts, hits),
            facts.evidence("ibstat", [port]),
        )
    return confirmed(found, _evidence(facts, hits))


def _matches(spec_value: str, name: str) -> bool:
    """NCCL's interface syntax: "=eth0" exact, otherwise a prefix."""
    return name == spec_value[1:] if spec_value.startswith("=") else name.startswith(spec_value)


def job_socket_ifname(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """NCCL_SOCKET_IFNAME of a GPU process matches no interface that is up in `ip -s link`."""
    got = _readable(facts, "environ")
    if isinstance(got, Verdict):
        return got
    jobs, unread = got
    links = facts.get("ip_link")
    if links is None:
        return inconclusive(facts.why_missing("ip_link"))
    up = [i.name for i in links.interfaces if i.state == "UP" and i.name != "lo"]
    bad: list[str] = []
    good: list[str] = []
    for job in jobs:
        setting = (job.environ or {}).get("NCCL_SOCKET_IFNAME")
        if setting is None:
            continue
        exclude = setting.startswith("^")
        wanted = [w for w in setting.lstrip("^").split(",") if w]
        usable = [n for n in up if any(_matches(w, n) for w in wanted) != exclude]
        line = f"{job.label}: NCCL_SOCKET_IFNAME={setting}{_origin(job)}"
        (good if usable else bad).append(f"{line} -> {', '.join(usable) or 'no interface that is UP'}")
    seen = f"interfaces UP: {', '.join(up) or 'none'}"
    if bad:
        return confirmed(
            msg("reasons.job.ifname_bad"), _evidence(facts, bad), facts.evidence("ip_link", [seen])
        )
    if not good:
        return _absent(
            facts, msg("reasons.job.env_not_set", names="NCCL_SOCKET_IFNAME"), jobs, unread, [seen]
        )
    return _absent(facts, msg("reasons.job.ifname_ok"), jobs, unread, [*good, seen])


def job_limit(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A GPU process's soft `limit` (memlock | nofile | stack) is `unlimited` (confirm_unlimited), or
    not unlimited (confirm_limited, with `with_rdma`: only while an IB/RoCE port is active), or at
    most `confirm_at_most`; `rule_out_from` (default: above confirm_at_most) rules out."""
    name = str(params.get("limit", ""))
    label = LIMIT_LABELS.get(name)
    if label is None:
        return inconclusive(msg("reasons.job.limit_param", names=", ".join(LIMIT_LABELS)))
    got = _readable(facts, "limits")
    if isinstance(got, Verdict):
        return got
    jobs, unread = got
    rows = [(j, (j.limits or {}).get(name)) for j in jobs]
    lines = [f"{j.label}: {row.line(label)}" if row else f"{j.label}: {label} not shown" for j, row in rows]
    most = params.get("confirm_at_most")
    floor = int(params.get("rule_out_from", (most or 0) + 1))

    def verdict(row: Any) -> bool | None:
        if row is None:
            return None
        if params.get("confirm_unlimited"):
            return row.unlimited
        if params.get("confirm_limited"):
            return not row.unlimited
        value = row.soft_value
        if row.unlimited or (value is not None and value >= floor):
            return False
        return True if value is not None and most is not None and value <= int(most) else None

    decided = [verdict(row) for _, row in rows]
    hits = [line for line, hit in zip(lines, decided, strict=True) if hit]
    if hits and params.get("with_rdma"):
        port = _rdma_port(facts)
        if isinstance(port, Verdict):
            return port
        if port is None:
            return ruled_out(msg("reasons.job.limited_no_port", limit=label), _evidence(facts, hits))
        return confirmed(
            msg("reasons.job.limited_while_port", limit=label, port=port), _evidence(facts, hits)
        )
    if hits:
        return confirmed(
            msg("reasons.job.limit_value", limit=label, value=hits[0].split(": ", 1)[1]),
            _evidence(facts, hits),
        )
    if None in decided:
        return inconclusive(msg("reasons.job.limit_undecided", limit=label), _evidence(facts, lines))
    return _absent(facts, msg("reasons.job.limit_fine", limit=label), jobs, unread, lines)


def job_cmdline(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A GPU process's command line matches `pattern` (a regex); `found` words the confirmation."""
    pattern = re.compile(str(params.get("pattern", "")))
    if not pattern.pattern:
        return inconclusive(msg("reasons.needs_param", check="job_cmdline", param="pattern"))
    got = _readable(facts, "cmdline")
    if isinstance(got, Verdict):
        return got
    jobs, unread = got
    hits = [f"{j.label}: {j.cmdline}" for j in jobs if pattern.search(j.cmdline or "")]
    if hits:
        return confirmed(
            entry_text(params.get("found"), msg("reasons.job.cmdline_matches")), _evidence(facts, hits)
        )
    lines = [f"{j.label}: {j.cmdline}" for j in jobs]
    return _absent(facts, msg("reasons.job.no_cmdline_match", pattern=pattern.pattern), jobs, unread, lines)


def compute_capability(name: str | None) -> str | None:
    """The compute capability of a GPU model name, from the table above; None when unknown."""
    return next((cc for rx, cc in COMPUTE_CAPABILITY if name and re.search(rx, name)), None)


def runs_on(arch_list: tuple[str, ...], cc: str) -> bool:
    """Whether a build with `arch_list` has code for `cc`: a cubin of the same major version and a
    lower or equal minor (arch-specific "a" cubins only on their own version), or PTX not newer."""
    major, minor = (int(x) for x in cc.split("."))
    for arch in arch_list:
        m = re.fullmatch(r"(sm|compute)_(\d+?)(\d)([af]?)", arch)
        if not m:
            continue
        a_major, a_minor, suffix = int(m.group(2)), int(m.group(3)), m.group(4)
        if m.group(1) == "compute" and (a_major, a_minor) <= (major, minor):
            return True
        if m.group(1) == "sm" and a_major == major and (a_minor == minor or (a_minor < minor and not suffix)):
            return True
    return False


def torch_arch(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """A GPU's compute capability is not in the host python's torch.cuda.get_arch_list()."""
    build = facts.get("torch_probe")
    if build is None:
        return inconclusive(facts.why_missing("torch_probe"))
    if build.not_installed or build.arch_list is None:
        if build.line:
            return inconclusive(msg("reasons.job.no_arch_list", line=build.line))
        return inconclusive(msg("reasons.job.no_arch_list_plain"))
    if not build.arch_list:
        return inconclusive(msg("reasons.job.no_archs", version=build.version))
    got = gpus_or_reason(facts)
    if isinstance(got, Verdict):
        return got
    collector, gpus = got
    arch_line = f"torch {build.version} get_arch_list(): {' '.join(build.arch_list)}"
    known = [(g, compute_capability(g.name)) for g in gpus]
    missing = [
        f"GPU {g.label} ({g.name}): sm_{cc.replace('.', '')}"
        for g, cc in known
        if cc and not runs_on(build.arch_list, cc)
    ]
    if missing:
        return confirmed(
            msg("reasons.job.arch_missing"),
            facts.evidence(collector, missing),
            facts.evidence("torch_probe", [arch_line]),
        )
    if any(cc is None for _, cc in known):
        names = ", ".join(sorted({g.name or "unknown" for g, cc in known if cc is None}))
        return inconclusive(msg("reasons.job.cc_unknown", models=names))
    ok = [f"GPU {g.label} ({g.name}): {cc}" for g, cc in known]
    return ruled_out(
        msg("reasons.job.arch_ok"),
        facts.evidence(collector, ok[:8]),
        facts.evidence("torch_probe", [arch_line]),
    )


_ENV = {
    "names": "variable names (NAME or PREFIX*)",
    "value": "only this value",
    "found": "confirmation text, {en, zh}",
    "with_rdma": "confirm only while ibstat shows an active port",
}
SPECS = (
    spec(
        job_env_set,
        (PROBE, "ibstat"),
        _ENV,
        describe={
            "en": (
                "Reads the environment of the running GPU processes: the variable this "
                "cause names being set confirms it, unset everywhere rules it out."
            ),
            "zh": ("读取正在运行的 GPU 进程的环境变量：设置了这个原因涉及的变量即确认，都没设置则排除。"),
        },
    ),
    spec(
        job_socket_ifname,
        (PROBE, "ip_link"),
        describe={
            "en": (
                "Compares the network interface the GPU processes tell NCCL to use with "
                "the interfaces that are up: no match confirms it, a working interface "
                "or no setting rules it out."
            ),
            "zh": (
                "比较 GPU 进程通过 NCCL_SOCKET_IFNAME 指定的网口和实际处于 UP 状态的网口：一个"
                "都对不上即确认，能对上或没有设置则排除。"
            ),
        },
    ),
    spec(
        job_limit,
        (PROBE, "ibstat"),
        {
            "limit": "memlock | nofile | stack",
            "confirm_unlimited": "confirm when the soft limit is unlimited",
            "confirm_limited": "confirm when the soft limit is not unlimited",
            "confirm_at_most": "confirm when the soft limit is at most this",
            "rule_out_from": "rule out when the soft limit is at least this",
            "with_rdma": "confirm only while ibstat shows an active port",
        },
        describe={
            "en": (
                "Reads the resource limits (ulimit) of the running GPU processes: the limit "
                "this cause describes confirms it, a sufficient limit rules it out."
            ),
            "zh": (
                "读取正在运行的 GPU 进程的资源限制（ulimit）：是这个原因描述的限制值即确认，限制足够则排除。"
            ),
        },
    ),
    spec(
        job_cmdline,
        (PROBE,),
        {"pattern": "regex on the command line", "found": "confirmation text, {en, zh}"},
        describe={
            "en": (
                "Reads the command lines of the running GPU processes: the launch pattern "
                "this cause describes confirms it, other command lines rule it out."
            ),
            "zh": "读取正在运行的 GPU 进程的启动命令：是这个原因描述的启动方式即确认，否则排除。",
        },
    ),
    spec(
        torch_arch,
        ("torch_probe", PROBE, "nvidia_smi_q"),
        describe={
            "en": (
                "Compares each GPU's compute capability with the architectures the host's "
                "PyTorch was compiled for: a GPU with no matching code confirms it, code "
                "for every GPU rules it out."
            ),
            "zh": (
                "比较每张 GPU 的计算能力（compute capability）和主机上 PyTorch 编译时包含的架"
                "构：有卡没有对应的代码即确认，每张卡都有则排除。"
            ),
        },
    ),
)

"""Host system checks: what the host's own name resolves to, a port already listening, /dev/shm's
mode, systemd-logind's RemoveIPC, a second libnccl on the loader path; RDMA stack and RoCE GIDs; this
node's Slurm GPU GRES."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitstop.collectors.checks.base import confirmed, inconclusive, ruled_out, spec
from pitstop.collectors.facts import Facts
from pitstop.collectors.model import CheckContext, Verdict
from pitstop.collectors.parsers._text import version_tuple
from pitstop.core.i18n import Msg, msg

RDMA_ENV_INDEX = "NCCL_IB_GID_INDEX"


def hostname_loopback(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The host's own name (from `hostname`) resolves to a loopback address: `getent hosts` first,
    else the /etc/hosts line that names it."""
    own = facts.get("hostname")
    if own is None or own.name is None:
        return inconclusive(msg("reasons.system.no_hostname", why=facts.why_missing("hostname")))
    for collector in ("getent_self", "etc_hosts"):
        table = facts.get(collector)
        if table is None or not table.recognized:
            continue
        rows = table.of(own.name)
        if not rows:
            continue
        first = rows[0]
        where = facts.evidence(collector, [first.line])
        name = facts.evidence("hostname", [own.line])
        if first.loopback:
            return confirmed(
                msg("reasons.system.loopback", name=own.name, address=first.address), where, name
            )
        return ruled_out(
            msg("reasons.system.not_loopback", name=own.name, address=first.address), where, name
        )
    return inconclusive(
        msg("reasons.system.no_resolution", name=own.name, why=facts.why_missing("getent_self", "etc_hosts"))
    )


def port_listening(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """Something already listens on the rendezvous port (`port`, else a GPU job's MASTER_PORT, else
    29500) while no GPU job that could own it runs."""
    sockets = facts.get("ss_listen")
    if sockets is None:
        return inconclusive(facts.why_missing("ss_listen"))
    if sockets.header is None:
        return inconclusive(msg("reasons.system.not_output_of", command="ss -ltn"))
    probe = facts.get("nvml_probe")
    jobs = probe.jobs if probe is not None else None
    job_ports = {int(p) for j in jobs or () if (p := (j.environ or {}).get("MASTER_PORT", "")).isdigit()}
    port = int(params.get("port") or (min(job_ports) if job_ports else 29500))
    holders = sockets.listening(port)
    if not holders:
        return ruled_out(
            msg("reasons.system.port_free", port=port, n=len(sockets.sockets)),
            facts.evidence("ss_listen", [sockets.header]),
        )
    lines = [h.line for h in holders]
    if jobs is None:
        return inconclusive(
            msg("reasons.system.port_owner_unknown", port=port, why=facts.why_missing("nvml_probe")),
            facts.evidence("ss_listen", lines),
        )
    if jobs:
        return inconclusive(
            msg("reasons.system.port_maybe_job", port=port, n=len(jobs)), facts.evidence("ss_listen", lines)
        )
    return confirmed(msg("reasons.system.port_taken", port=port), facts.evidence("ss_listen", lines))


def shm_mode(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """/dev/shm is not a world-writable sticky directory (mode 1777), or is mounted read-only."""
    stat = facts.get("shm_stat")
    mounts = facts.get("mount")
    shm = [m for m in (mounts.mounts if mounts is not None else ()) if m.mountpoint == "/dev/shm"]
    readonly = [m for m in shm if "ro" in m.options]
    if readonly:
        return confirmed(
            msg("reasons.system.shm_readonly"), facts.evidence("mount", [m.line for m in readonly])
        )
    if stat is None or stat.octal is None:
        why = facts.why_missing("shm_stat") if stat is None else msg("reasons.system.stat_not_understood")
        return inconclusive(msg("reasons.system.shm_mode_unknown", why=why))
    evidence = facts.evidence("shm_stat", [stat.line])
    if stat.octal != "1777":
        return confirmed(
            msg("reasons.system.shm_mode", mode=stat.octal, symbolic=stat.symbolic, owner=stat.user), evidence
        )
    return ruled_out(msg("reasons.system.shm_mode_ok"), evidence)


def logind_remove_ipc(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """systemd-logind's RemoveIPC: `yes` set confirms, `no` rules out, unset (default yes) decides nothing."""
    conf = facts.get("logind_conf")
    if conf is None:
        return inconclusive(facts.why_missing("logind_conf"))
    if not conf.recognized:
        return inconclusive(msg("reasons.system.no_login_section"))
    if conf.remove_ipc is True:
        return confirmed(msg("reasons.system.remove_ipc_yes"), facts.evidence("logind_conf", [conf.line]))
    if conf.remove_ipc is False:
        return ruled_out(msg("reasons.system.remove_ipc_no"), facts.evidence("logind_conf", [conf.line]))
    return inconclusive(
        msg("reasons.system.remove_ipc_default"),
        facts.evidence("logind_conf", [conf.default_line] if conf.default_line else []),
    )


def nccl_library(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """More than one libnccl.so.2 on the loader path, or a GPU job preloading one; none in the cache
    and no GPU job pointing LD_PRELOAD/LD_LIBRARY_PATH at one rules out."""
    cache = facts.get("ldconfig_p")
    if cache is None:
        return inconclusive(facts.why_missing("ldconfig_p"))
    if cache.header is None:
        return inconclusive(msg("reasons.system.not_ldconfig"))
    found = [e for e in cache.named("libnccl.so") if "libnccl-net" not in e.name]
    paths = sorted({e.path for e in found if e.name.startswith("libnccl.so.2")})
    torch = facts.get("torch_probe")
    wheel: Msg = (
        msg("reasons.system.torch_nccl", version=torch.nccl)
        if torch is not None and torch.nccl
        else msg("reasons.system.torch_own_nccl")
    )
    probe = facts.get("nvml_probe")
    jobs = [j for j in (probe.jobs or ()) if j.environ is not None] if probe is not None else []
    preload = [
        f"{j.label}: {k}={v}"
        for j in jobs
        for k, v in sorted((j.environ or {}).items())
        if k in ("LD_PRELOAD", "LD_LIBRARY_PATH") and "nccl" in v.lower()
    ]
    if len(paths) > 1:
        return confirmed(
            msg("reasons.system.nccl_many", n=len(paths), wheel=wheel),
            facts.evidence("ldconfig_p", [e.line for e in found]),
        )
    if preload:
        return confirmed(
            msg("reasons.system.nccl_preload", wheel=wheel), facts.evidence("nvml_probe", preload)
        )
    if paths:
        return inconclusive(
            msg("reasons.system.nccl_system", path=paths[0], wheel=wheel),
            facts.evidence("ldconfig_p", [e.line for e in found]),
        )
    if not jobs:
        return inconclusive(
            msg("reasons.system.nccl_env_unread"), facts.evidence("ldconfig_p", [cache.header])
        )
    return ruled_out(
        msg("reasons.system.nccl_only_wheel", wheel=wheel),
        facts.evidence("ldconfig_p", [cache.header]),
    )


def rdma_stack_versions(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """MLNX_OFED's release (ofed_info -s) and the loaded mlx5_core module's version differ."""
    ofed = facts.get("ofed_info")
    if ofed is None or ofed.version is None:
        why = facts.why_missing("ofed_info") if ofed is None else msg("reasons.no_version", tool="ofed_info")
        return inconclusive(msg("reasons.system.no_ofed", why=why))
    module = facts.get("mlx5_version")
    if module is None or module.base is None:
        why = (
            facts.why_missing("mlx5_version") if module is None else msg("reasons.system.module_version_odd")
        )
        return inconclusive(
            msg("reasons.system.mlx5_unknown", version=ofed.version, why=why),
            facts.evidence("ofed_info", [ofed.line]),
        )
    evidence = (facts.evidence("ofed_info", [ofed.line]), facts.evidence("mlx5_version", [module.line]))
    if ofed.base != module.base:
        return confirmed(
            msg("reasons.system.ofed_mismatch", ofed=ofed.version, module=module.version), *evidence
        )
    return ruled_out(msg("reasons.system.ofed_match", ofed=ofed.version, module=module.version), *evidence)


def _global_ipv6_v2(gid: Any) -> bool:
    """A RoCE v2 GID that is a routable IPv6 address: not link-local (fe80::), not IPv4-mapped, not zero."""
    text = gid.gid.lower()
    return (
        gid.version == "v2"
        and not gid.ipv4
        and not text.startswith(("fe8", "fe9", "fea", "feb", "0000:0000:0000:0000:0000:ffff:"))
        and bool(set(text) - {"0", ":"})
    )


def roce_gid_index(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """The GID NCCL will use on RoCE is missing or not RoCE v2 with an IPv4 address: no GIDs at all,
    NCCL_IB_GID_INDEX of a GPU job pointing at a wrong entry, or NCCL < 2.21 defaulting to index 0."""
    table = facts.get("show_gids")
    if table is None:
        return inconclusive(facts.why_missing("show_gids"))
    if not table.header:
        return inconclusive(msg("reasons.system.not_output_of", command="show_gids"))
    if not table.gids:
        if table.count == 0:
            return confirmed(msg("reasons.system.no_gid"), facts.evidence("show_gids", [table.count_line]))
        return inconclusive(msg("reasons.system.no_gid_row"))
    usable = table.usable
    probe = facts.get("nvml_probe")
    jobs = (probe.jobs or ()) if probe is not None else ()
    settings = {(j.environ or {}).get(RDMA_ENV_INDEX) for j in jobs} - {None}
    rows = {g.index: g for g in table.gids}
    if settings:
        index = sorted(settings)[0]  # type: ignore[type-var]
        row = rows.get(int(index)) if str(index).isdigit() else None  # type: ignore[arg-type]
        setting = facts.evidence("nvml_probe", [f"{RDMA_ENV_INDEX}={index} in a running GPU process"])
        if row is None or row not in usable:
            return confirmed(
                msg("reasons.system.gid_index_missing", setting=f"{RDMA_ENV_INDEX}={index}")
                if row is None
                else msg(
                    "reasons.system.gid_index_wrong", setting=f"{RDMA_ENV_INDEX}={index}", version=row.version
                ),
                setting,
                facts.evidence("show_gids", [row.line] if row else [g.line for g in usable[:4]]),
            )
        return ruled_out(
            msg("reasons.system.gid_index_ok", setting=f"{RDMA_ENV_INDEX}={index}"),
            setting,
            facts.evidence("show_gids", [row.line]),
        )
    ipv6 = [g for g in table.gids if _global_ipv6_v2(g)]
    if not usable and ipv6:  # RoCE v2 over IPv6 routes too; NCCL needs AF_INET6 (or a GID index) to pick it
        return inconclusive(
            msg("reasons.system.v2_ipv6_only", index=ipv6[0].index, dev=ipv6[0].dev),
            facts.evidence("show_gids", [g.line for g in ipv6[:6]]),
        )
    if not usable:
        return confirmed(
            msg("reasons.system.no_v2_gid"),
            facts.evidence("show_gids", [g.line for g in table.gids[:6]]),
        )
    torch = facts.get("torch_probe")
    nccl = version_tuple(torch.nccl) if torch is not None and torch.nccl else None
    zero = rows.get(0)
    if torch is not None and nccl is not None and nccl < (2, 21) and zero is not None and zero not in usable:
        return confirmed(
            msg("reasons.system.gid_zero", nccl=torch.nccl, version=zero.version, index=usable[0].index),
            facts.evidence("show_gids", [zero.line, usable[0].line]),
            facts.evidence("torch_probe", [f"nccl {torch.nccl}"]),
        )
    if torch is not None and nccl is not None and nccl >= (2, 21):
        return ruled_out(
            msg("reasons.system.gid_auto", nccl=torch.nccl, index=usable[0].index),
            facts.evidence("show_gids", [usable[0].line]),
            facts.evidence("torch_probe", [f"nccl {torch.nccl}"]),
        )
    return inconclusive(
        msg("reasons.system.gid_undecided", index=usable[0].index),
        facts.evidence("show_gids", [usable[0].line]),
    )


def _d(en: str, zh: str) -> dict[str, str]:
    return {"en": en, "zh": zh}


def slurm_gpu_gres(facts: Facts, params: Mapping[str, Any], ctx: CheckContext) -> Verdict:
    """This node's Slurm record disagrees with its GPUs: a drain or invalid reason about GRES, or a GPU
    count (CfgTRES / Gres) other than the GPUs the host has. Agreeing counts stay inconclusive: device
    confinement (ConstrainDevices in cgroup.conf) is not read; so does a count of MIG slices, which
    need not equal the boards."""
    record = facts.get("slurm_node")
    if record is None:
        return inconclusive(facts.why_missing("slurm_node"))
    if not record.nodes:
        return inconclusive(msg("reasons.system.no_slurm_node", error=record.error or "-"))
    node = record.nodes[0]
    shown = [f"{key}={value}" for key, value in (("Gres", node.gres), ("State", node.state)) if value]
    if node.reason and "gres" in node.reason.lower():
        return confirmed(
            msg("reasons.system.slurm_gres_reason", node=node.name, reason=node.reason),
            facts.evidence("slurm_node", [*shown, f"Reason={node.reason}"]),
        )
    source, gpus = facts.gpus()
    if source is None or gpus is None:
        return inconclusive(msg("reasons.system.slurm_gpus_unknown", why=facts.why_missing("nvml_probe")))
    have = len(gpus)
    evidence = (
        facts.evidence("slurm_node", shown or [f"NodeName={node.name}"]),
        facts.evidence(source, [f"GPU {g.label}: {g.name}" for g in gpus[:8]]),
    )
    if node.gpus is None and have:
        return confirmed(msg("reasons.system.slurm_no_gpu_gres", node=node.name, have=have), *evidence)
    if node.gpus is not None and node.gpus != have and node.sliced:
        return inconclusive(
            msg("reasons.system.slurm_gpu_slices", node=node.name, configured=node.gpus, have=have), *evidence
        )
    if node.gpus is not None and node.gpus != have:
        return confirmed(
            msg("reasons.system.slurm_gpu_count", node=node.name, configured=node.gpus, have=have), *evidence
        )
    return inconclusive(msg("reasons.system.slurm_gres_agrees", node=node.name, n=have), *evidence)


SPECS = (
    spec(
        hostname_loopback,
        ("hostname", "getent_self", "etc_hosts"),
        describe=_d(
            "Resolves the host's own name (as `hostname` prints it) with getent, else /etc/hosts: a "
            "loopback address (127.x, ::1) confirms it, a routable address rules it out.",
            "用 getent（否则查 /etc/hosts）解析主机自己的名字（取自 `hostname`）："
            "解析到回环地址（127.x、::1）即确认，解析到可路由地址则排除。",
        ),
    ),
    spec(
        port_listening,
        ("ss_listen", "nvml_probe"),
        {"port": "TCP port (default: a GPU job's MASTER_PORT, else 29500)"},
        describe=_d(
            "Lists listening TCP ports: the rendezvous port in use while no GPU job runs confirms it, "
            "the port free rules it out; in use while a GPU job runs decides nothing.",
            "列出正在监听的 TCP 端口：没有 GPU 作业运行时会合端口仍被占用即确认，端口空闲则排除；"
            "有 GPU 作业在跑时被占用不作结论。",
        ),
    ),
    spec(
        shm_mode,
        ("shm_stat", "mount"),
        describe=_d(
            "Reads the mode of /dev/shm and its mount options: a mode other than 1777 or a read-only "
            "mount confirms it, mode 1777 rules it out.",
            "读取 /dev/shm 的权限和挂载选项：权限不是 1777 或以只读挂载即确认，权限为 1777 则排除。",
        ),
    ),
    spec(
        logind_remove_ipc,
        ("logind_conf",),
        describe=_d(
            "Reads systemd-logind's configuration with drop-ins: RemoveIPC=yes confirms it, RemoveIPC=no "
            "rules it out, the unset default decides nothing.",
            "读取 systemd-logind 的配置（含 drop-in）：RemoveIPC=yes 即确认，RemoveIPC=no 则排除，"
            "未设置（默认值）不作结论。",
        ),
    ),
    spec(
        nccl_library,
        ("ldconfig_p", "torch_probe", "nvml_probe"),
        describe=_d(
            "Lists the loader cache's libnccl and the GPU processes' LD_PRELOAD/LD_LIBRARY_PATH: two "
            "libnccl.so.2 or a preloaded NCCL confirm it, none anywhere rules it out.",
            "列出动态链接器缓存里的 libnccl，以及 GPU 进程的 LD_PRELOAD/LD_LIBRARY_PATH：存在两份 "
            "libnccl.so.2 或预加载了 NCCL 即确认，都没有则排除。",
        ),
    ),
    spec(
        rdma_stack_versions,
        ("ofed_info", "mlx5_version"),
        describe=_d(
            "Compares the installed MLNX_OFED release with the version of the loaded mlx5 core "
            "kernel module: different releases confirm it, the same release rules it out.",
            "比较已安装的 MLNX_OFED 版本与已加载的 mlx5 核心内核模块版本：版本不同即确认，相同则排除。",
        ),
    ),
    spec(
        roce_gid_index,
        ("show_gids", "torch_probe", "nvml_probe"),
        describe=_d(
            "Reads the RoCE GID table with the jobs' NCCL_IB_GID_INDEX and torch's NCCL version: no "
            "GID, a setting that points at a wrong entry, or NCCL < 2.21 on a link-local index 0 "
            "confirm it; a RoCE v2 IPv4 GID in use rules it out.",
            "读取 RoCE 的 GID 表、作业的 NCCL_IB_GID_INDEX 和 torch 的 NCCL 版本：没有 GID、"
            "设置指向错误的条目，或 NCCL < 2.21 使用链路本地的 0 号索引即确认；"
            "使用的是 RoCE v2 IPv4 GID 则排除。",
        ),
    ),
    spec(
        slurm_gpu_gres,
        ("slurm_node", "nvml_probe"),
        describe={
            "en": (
                "Reads this node's Slurm record (scontrol show node) and counts the host's GPUs: a drain "
                "reason about GRES, or a configured GPU count other than the GPUs present, confirms it; "
                "agreeing counts decide nothing, since whether jobs are fenced to their GPUs is not read."
            ),
            "zh": (
                "读取本节点在 Slurm 里的记录（scontrol show node）并数一下主机上的 GPU："
                "drain 原因与 GRES 有关，或配置的 GPU 数和实际不同即确认；"
                "数量一致不作结论，因为没有读取作业是否被隔离在自己的 GPU 上。"
            ),
        },
    ),
)

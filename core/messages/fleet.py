"""Fleet and job wording: the odd one out (collectors/compare.py), folded diagnoses, Slurm jobs."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "fleet.fact.driver": ("NVIDIA driver {value}", "NVIDIA 驱动 {value}"),
    "fleet.fact.cuda": ("CUDA {value} (driver)", "CUDA {value}（驱动）"),
    "fleet.fact.torch": ("torch {value}", "torch 版本 {value}"),
    "fleet.fact.torch_cuda": ("torch built for CUDA {value}", "torch 编译所用 CUDA {value}"),
    "fleet.fact.nccl": ("NCCL {value}", "NCCL {value}"),
    "fleet.fact.kernel": ("kernel {value}", "内核 {value}"),
    "fleet.fact.os": ("OS {value}", "操作系统 {value}"),
    "fleet.fact.cpu_model": ("CPU {value}", "CPU {value}"),
    "fleet.fact.gpu_model": ("GPU model {value}", "GPU 型号 {value}"),
    "fleet.fact.gpu_count": ("{value} GPUs", "{value} 块 GPU"),
    "fleet.fact.form_factor": ("form factor {value}", "形态 {value}"),
    "fleet.fact.vbios": ("VBIOS {value} on GPU{subject}", "GPU{subject} 的 VBIOS {value}"),
    "fleet.fact.pcie": ("PCIe {value} on GPU{subject}", "GPU{subject} 的 PCIe {value}"),
    "fleet.fact.nvlink_up": ("{value} NVLinks up on GPU{subject}", "GPU{subject} 有 {value} 条 NVLink 在线"),
    "fleet.fact.throttle": ("clock events {value} on GPU{subject}", "GPU{subject} 降频原因 {value}"),
    "fleet.fact.temperature": ("temperature {value} on GPU{subject}", "GPU{subject} 温度 {value}"),
    "fleet.fact.power": ("power {value} on GPU{subject}", "GPU{subject} 功耗 {value}"),
    "fleet.fact.power_limit": ("power limit {value} on GPU{subject}", "GPU{subject} 功耗上限 {value}"),
    "fleet.fact.ecc_uncorrected": (
        "{value} uncorrected ECC errors on GPU{subject}",
        "GPU{subject} 有 {value} 个不可纠正 ECC 错误",
    ),
    "fleet.fact.ecc_corrected": (
        "{value} corrected ECC errors on GPU{subject}",
        "GPU{subject} 有 {value} 个可纠正 ECC 错误",
    ),
    "fleet.fact.remap_uncorrectable": (
        "{value} rows remapped (uncorrectable) on GPU{subject}",
        "GPU{subject} 有 {value} 行因不可纠正错误被重映射",
    ),
    "fleet.fact.remap_pending": (
        "row remap pending {value} on GPU{subject}",
        "GPU{subject} 行重映射待生效 {value}",
    ),
    "fleet.fact.nic_firmware": ("NIC firmware {value} on {subject}", "{subject} 网卡固件 {value}"),
    "fleet.fact.nic_driver": ("NIC driver {value} on {subject}", "{subject} 网卡驱动 {value}"),
    "fleet.fact.mtu": ("MTU {value} on {subject}", "{subject} 的 MTU {value}"),
    "fleet.fact.ib_state": ("port {subject} {value}", "端口 {subject} 状态 {value}"),
    "fleet.fact.ib_rate": ("port {subject} at {value}", "端口 {subject} 速率 {value}"),
    "fleet.fact.hca_firmware": ("HCA firmware {value} on {subject}", "{subject} HCA 固件 {value}"),
    "fleet.fact.numa_nodes": ("{value} NUMA nodes", "{value} 个 NUMA 节点"),
    "fleet.fact.raid_cache": ("RAID cache {value} on {subject}", "{subject} RAID 缓存策略 {value}"),
    "fleet.outlier": ("{fact} (peers {peers})", "{fact}（其他节点 {peers}）"),
    "fleet.outlier.median": ("{fact} (peers median {peers})", "{fact}（其他节点中位数 {peers}）"),
    "fleet.more": ("{n} more", "另有 {n} 项"),
    "fleet.differs": ("{host} differs from {peers} peers: {facts}", "{host} 与 {peers} 个节点不同：{facts}"),
    "fleet.job.bad_id": (
        "'{job}' is not a Slurm job id: digits, then an optional _TASK and .STEP (123456, 123_4, 123.0)",
        "'{job}' 不是 Slurm 作业号：应为数字，可带 _数组序号 和 .步骤号（123456、123_4、123.0）",
    ),
    "fleet.job.no_controller": (
        "no Slurm controller is configured: add `slurm: {{controller: HOST}}` to the inventory",
        "未配置 Slurm 控制节点：请在 inventory 中加入 `slurm: {{controller: HOST}}`",
    ),
    "fleet.job.unreachable": (
        "could not ask Slurm on {host}: {error}",
        "无法在 {host} 上查询 Slurm：{error}",
    ),
    "fleet.job.not_found": (
        "Slurm job {job} is not known on {host} ({said})",
        "{host} 上的 Slurm 不认识作业 {job}（{said}）",
    ),
    "fleet.job.no_nodes": (
        "Slurm job {job} ({state}) has no nodes yet: nothing to diagnose",
        "Slurm 作业 {job}（{state}）尚未分配节点，无可诊断的机器",
    ),
    "fleet.job.outside_inventory": (
        "{n} node(s) of the job are not in the inventory and were not checked: {hosts}",
        "作业中有 {n} 个节点不在 inventory 中，未检查：{hosts}",
    ),
    "fleet.job.header": (
        "Slurm job {job} {name}({state}) on {n} node(s) {nodes}; logs read {span}",
        "Slurm 作业 {job} {name}（{state}），{n} 个节点 {nodes}；日志范围 {span}",
    ),
    "fleet.job.span": ("from {start} to {end}", "从 {start} 到 {end}"),
    "fleet.job.running": ("now (still running)", "现在（仍在运行）"),
}

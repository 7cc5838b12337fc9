"""Verdict reasons: what each check found, in words; the parameters are data (GPU labels, numbers,
device names, quoted output), never prose. One template per distinct reason, shared by the checks
that reach it; composition templates (`reasons.but`, `reasons.consistent`, `reasons.all`) wrap
another reason."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # composition (collectors/checks/registry.py)
    "reasons.all": ("{reasons}", "{reasons}"),
    "reasons.but": ("{reason}, but {why}", "{reason}，但{why}"),
    "reasons.consistent": ("consistent with this cause: {reason}", "与这个原因相符：{reason}"),
    "reasons.unquoted": (
        "no line from output that was read shows it",
        "读到的输出里没有一行能证明这一点",
    ),
    "reasons.cut": (
        "the output of {commands} was cut at the size cap",
        "{commands} 的输出超过大小上限被截断了",
    ),
    "reasons.check_failed": ("check {check} failed: {error}", "检查 {check} 出错：{error}"),
    "reasons.unknown_check": ("unknown check '{check}'", "未知的检查 '{check}'"),
    "reasons.no_check": (
        "no read-only check is defined for this cause",
        "这个原因还没有只读检查",
    ),
    "reasons.no_check_because": (
        "no read-only check is defined for this cause: {note}",
        "这个原因还没有只读检查：{note}",
    ),
    # why a command's output cannot be read (collectors/facts.py, catalog privileged hints)
    "reasons.read.not_installed": ("{tool} not installed", "未安装 {tool}"),
    "reasons.read.timed_out": ("`{command}` timed out", "`{command}` 超时"),
    "reasons.read.could_not_run": ("`{command}` could not run", "`{command}` 无法运行"),
    "reasons.read.could_not_run_because": (
        "`{command}` could not run: {error}",
        "`{command}` 无法运行：{error}",
    ),
    "reasons.read.needs_root": ("`{command}` needs root", "`{command}` 需要 root 权限"),
    "reasons.read.failed": (
        "`{command}` failed (exit {exit}): {error}",
        "`{command}` 失败（退出码 {exit}）：{error}",
    ),
    "reasons.read.failed_silently": (
        "`{command}` failed (exit {exit}) without output",
        "`{command}` 失败（退出码 {exit}），没有输出",
    ),
    "reasons.read.printed_nothing": ("`{command}` printed nothing", "`{command}` 没有任何输出"),
    "reasons.read.not_collected": ("{collector} was not collected", "没有采集 {collector}"),
    "reasons.read.no_usable_output": ("no usable output", "没有可用的输出"),
    "reasons.read.of": ("{collector}: {why}", "{collector}：{why}"),
    "reasons.read.nothing_read": ("no output could be read", "没有读到任何输出"),
    "reasons.read.hint.kernel_log": (
        "kernel log not readable without root (or the adm / systemd-journal group)",
        "没有 root 权限（或 adm / systemd-journal 组）读不了内核日志",
    ),
    "reasons.read.hint.dmesg": (
        "kernel log not readable without root (kernel.dmesg_restrict=1)",
        "没有 root 权限读不了内核日志（kernel.dmesg_restrict=1）",
    ),
    "reasons.read.hint.lspci": ("lspci link fields need root", "lspci 的链路字段需要 root 权限"),
    "reasons.read.hint.storcli": ("storcli needs root", "storcli 需要 root 权限"),
    "reasons.read.hint.megacli": ("MegaCli needs root", "MegaCli 需要 root 权限"),
    "reasons.read.hint.ipmi_sel": (
        "the BMC event log needs root (/dev/ipmi0)",
        "读取 BMC 事件日志需要 root 权限（/dev/ipmi0）",
    ),
    "reasons.read.hint.ipmi_sensor": (
        "the BMC sensors need root (/dev/ipmi0)",
        "读取 BMC 传感器需要 root 权限（/dev/ipmi0）",
    ),
    # the time window of log checks (collectors/checks/base.py)
    "reasons.window.boot": ("since boot", "自本次开机以来"),
    "reasons.window.since": ("since {since} UTC", "自 {since} UTC 以来"),
    "reasons.window.span": ("from {since} to {until} UTC", "从 {since} 到 {until} UTC"),
    # per-GPU verdicts (collectors/checks/base.py per_gpu, gpus_or_reason)
    "reasons.gpu.no_facts": ("no GPU facts: {why}", "读不到 GPU 信息：{why}"),
    "reasons.gpu.smi_said": ("nvidia-smi: {error}", "nvidia-smi 报错：{error}"),
    "reasons.gpu.probe_said": ("NVML probe: {error}", "NVML 探针报错：{error}"),
    "reasons.gpu.found_on": ("{what} on GPU {gpus}", "GPU {gpus}：{what}"),
    "reasons.gpu.absent": ("{what} ({n} GPU(s) read)", "{what}（已读取 {n} 张 GPU）"),
    "reasons.gpu.cannot_tell": ("cannot tell for every GPU ({why})", "无法判断每张 GPU 的情况（{why}）"),
    "reasons.gpu.error_on": ("GPU {gpu}: {error}", "GPU {gpu}：{error}"),
    "reasons.gpu.unreadable_on": ("GPU {gpu}: value not readable", "GPU {gpu}：读不到这个值"),
    "reasons.unknown_param": ("unknown {param} '{value}'", "未知的 {param} 取值 '{value}'"),
    # GPU state (collectors/checks/gpu.py)
    "reasons.gpu.unknown_clock_event": (
        "unknown clock event reason(s): {names}",
        "未知的降频原因：{names}",
    ),
    "reasons.gpu.clock_event": ("clock event reason `{names}` active", "降频原因 `{names}` 正在生效"),
    "reasons.gpu.no_clock_event": ("no GPU reports `{names}`", "没有 GPU 报告 `{names}`"),
    "reasons.gpu.clock_event_unexplained": (
        "`{names}` active on GPU {gpus}, but `{unless}` (which would explain it) is not reported, "
        "so its cause is unknown",
        "GPU {gpus} 上 `{names}` 正在生效，但没有报告 `{unless}`（它能解释这一降频），所以原因未知",
    ),
    "reasons.gpu.no_clock_event_unless": (
        "no GPU reports `{names}` without `{unless}`",
        "没有 GPU 在没有 `{unless}` 的情况下报告 `{names}`",
    ),
    "reasons.gpu.hot": ("temperature at or above {limit} C", "温度达到或超过 {limit} C"),
    "reasons.gpu.not_hot": ("every GPU below {limit} C", "每张 GPU 都低于 {limit} C"),
    "reasons.gpu.outlier_needs_three": (
        "an outlier needs at least three GPUs with a readable temperature",
        "判断温度异常至少需要三张能读到温度的 GPU",
    ),
    "reasons.gpu.hot_outlier": (
        "GPU {gpus} runs {delta}+ C above the median {median} C without drawing more power than its peers"
        " (consistent with a cooling defect on that GPU)",
        "GPU {gpus} 比中位数 {median} C 高出 {delta} C 以上，功耗却不比其他卡高（与这张卡散热故障相符）",
    ),
    "reasons.gpu.hot_from_load": (
        "the hottest GPUs also draw the most power (load, not cooling)",
        "最热的 GPU 功耗也最高（是负载，不是散热问题）",
    ),
    "reasons.gpu.no_hot_outlier": (
        "no GPU is {delta} C above the median {median} C",
        "没有 GPU 比中位数 {median} C 高出 {delta} C",
    ),
    "reasons.gpu.remapped": ("remapped rows `{state}`", "行重映射 `{state}`"),
    "reasons.gpu.not_remapped": ("no remapped rows `{state}`", "没有 `{state}` 状态的行重映射"),
    "reasons.gpu.remap_pending": (
        "row remapping pending (reset the GPU to apply)",
        "行重映射待生效（重置 GPU 后生效）",
    ),
    "reasons.gpu.xid_instead": (
        "{what}: the kernel log of this boot has Xid {xid} and the GPU facts cannot be read ({why})",
        "{what}：本次开机的内核日志里有 Xid {xid}，而 GPU 信息读不到（{why}）",
    ),
    "reasons.gpu.ecc_uncorrected": (
        "uncorrectable ECC errors (`{counter}`)",
        "有不可纠正的 ECC 错误（`{counter}`）",
    ),
    "reasons.gpu.no_ecc_uncorrected": (
        "no uncorrectable ECC errors (`{counter}`)",
        "没有不可纠正的 ECC 错误（`{counter}`）",
    ),
    "reasons.gpu.ecc_corrected": (
        "{n}+ corrected ECC errors (`{counter}`; read again later to see the rate)",
        "已纠正的 ECC 错误达到 {n} 个以上（`{counter}`；过一段时间再读一次看增长速度）",
    ),
    "reasons.gpu.few_ecc_corrected": (
        "fewer than {n} corrected ECC errors (`{counter}`)",
        "已纠正的 ECC 错误少于 {n} 个（`{counter}`）",
    ),
    "reasons.gpu.retired": ("retired pages (`{state}`)", "有退役页（`{state}`）"),
    "reasons.gpu.not_retired": ("no retired pages (`{state}`)", "没有退役页（`{state}`）"),
    "reasons.gpu.retire_pending": (
        "page retirement pending (reboot to apply)",
        "页退役待生效（重启后生效）",
    ),
    "reasons.gpu.retire_note": (
        "{reason}; GPUs from Ampere on use row remapping, not page retirement",
        "{reason}；从 Ampere 架构起 GPU 用行重映射，不再用页退役",
    ),
    "reasons.gpu.persistence_off": ("persistence mode disabled", "持久模式已关闭"),
    "reasons.gpu.persistence_on": ("persistence mode enabled everywhere", "所有 GPU 都开启了持久模式"),
    "reasons.gpu.compute_mode_changed": ("compute mode is not Default", "计算模式不是 Default"),
    "reasons.gpu.compute_mode_default": (
        "compute mode Default everywhere",
        "所有 GPU 的计算模式都是 Default",
    ),
    "reasons.gpu.mig_on": ("MIG mode enabled", "MIG 模式已开启"),
    "reasons.gpu.mig_off": (
        "MIG mode disabled or not supported (N/A) everywhere",
        "所有 GPU 的 MIG 模式都关闭或不支持（N/A）",
    ),
    "reasons.gpu.mig_note": (
        "{reason} (GPUs without MIG support report N/A)",
        "{reason}（不支持 MIG 的 GPU 显示 N/A）",
    ),
    "reasons.gpu.memory_held": (
        "{mib}+ MiB held while the GPU is idle",
        "GPU 空闲时仍占用 {mib} MiB 以上显存",
    ),
    "reasons.gpu.memory_free": ("no idle GPU holds {mib}+ MiB", "没有空闲 GPU 占用 {mib} MiB 以上显存"),
    "reasons.gpu.no_process_list": (
        "the GPU process list cannot be read",
        "读不到 GPU 进程列表",
    ),
    "reasons.gpu.held_by_live_process": (
        "{reason}, held by a process that is still running: check whether it is still wanted",
        "{reason}，占用它的进程还在运行：确认这个进程是否还需要",
    ),
    "reasons.gpu.held_by_nobody": (
        "{reason} and no process is listed (held from another PID namespace, or by a zombie)",
        "{reason}，且没有列出任何进程（被其他 PID 命名空间或僵尸进程占用）",
    ),
    "reasons.gpu.no_expected_model": (
        "no expected GPU model or form factor in the inventory for this host",
        "清单里没有写这台主机应有的 GPU 型号或形态",
    ),
    "reasons.gpu.sku_differs": ("expected {expected}, found otherwise", "应为 {expected}，实际不符"),
    "reasons.gpu.form_factor_unknown": ("cannot tell the form factor of {model}", "无法判断 {model} 的形态"),
    "reasons.gpu.sku_matches": ("every GPU matches {expected}", "每张 GPU 都符合 {expected}"),
    "reasons.gpu.no_expected_count": (
        "no expected GPU count in the inventory for this host",
        "清单里没有写这台主机应有的 GPU 数量",
    ),
    "reasons.gpu.too_few": ("{n} usable GPU(s), {expected} expected", "可用 GPU {n} 张，应有 {expected} 张"),
    "reasons.gpu.count_ok": ("{n} GPU(s) as expected", "GPU 数量 {n}，符合预期"),
    "reasons.gpu.err_fields": (
        "nvidia-smi shows ERR! in several fields of a GPU (the GPU is in a bad state)",
        "nvidia-smi 在一张 GPU 的多个字段显示 ERR!（这张 GPU 状态异常）",
    ),
    "reasons.gpu.lost": ("GPU lost (`NVML_ERROR_GPU_IS_LOST`)", "GPU 已丢失（`NVML_ERROR_GPU_IS_LOST`）"),
    "reasons.gpu.none_lost": ("no GPU is lost", "没有 GPU 丢失"),
    "reasons.gpu.handle_error": (
        "nvidia-smi could not open a GPU but does not say it is lost: {error};"
        " read the kernel log (Xid) for why",
        "nvidia-smi 打不开一张 GPU，但没有说它已丢失：{error}；请查看内核日志（Xid）找原因",
    ),
    "reasons.gpu.err_one_field": (
        "nvidia-smi shows ERR! only in the {fields} field of a GPU: one unreadable sensor, not a lost GPU;"
        " read `nvidia-smi -q` for that GPU",
        "nvidia-smi 只在一张 GPU 的 {fields} 字段显示 ERR!：是一个读不到的传感器，不是 GPU 丢失；"
        "请对这张 GPU 运行 `nvidia-smi -q`",
    ),
    "reasons.gpu.older_than": ("GPU older than {arch}", "GPU 早于 {arch} 架构"),
    "reasons.gpu.not_older_than": ("every GPU is {arch} or newer", "每张 GPU 都是 {arch} 或更新的架构"),
    "reasons.gpu.model_not_shown": ("the model of some GPU is not shown", "有 GPU 没有显示型号"),
    "reasons.gpu.mixed_models": (
        "{n} different GPU models: CUDA's default order (fastest first) differs from nvidia-smi's PCI order"
        " unless `CUDA_DEVICE_ORDER=PCI_BUS_ID`",
        "有 {n} 种不同的 GPU 型号：除非设置 `CUDA_DEVICE_ORDER=PCI_BUS_ID`，CUDA 默认顺序（最快的在前）"
        "与 nvidia-smi 的 PCI 顺序不同",
    ),
    "reasons.gpu.one_model": (
        "all GPUs are the same model, so device order cannot change the model used",
        "所有 GPU 型号相同，设备顺序不会改变用到的型号",
    ),
    "reasons.gpu.pcie_gen_unreadable": ("PCIe generation not readable", "读不到 PCIe 代数"),
    "reasons.gpu.pcie_gen_max": (
        "every GPU link runs at its maximum generation",
        "每张 GPU 的链路都运行在最高代数",
    ),
    "reasons.gpu.pcie_idle_saving": (
        "lower PCIe generation only on idle GPUs with full width: normal power saving",
        "只有空闲且满宽度的 GPU 降低了 PCIe 代数：正常的节能行为",
    ),
    "reasons.gpu.pcie_busy_downclock": (
        "a GPU is downclocked while busy or at reduced width: not the benign idle case",
        "有 GPU 在繁忙时降速或链路宽度降低：不是无害的空闲降速",
    ),
    "reasons.gpu.need_two_process_lists": (
        "process lists of at least two GPUs are needed",
        "至少需要两张 GPU 的进程列表",
    ),
    "reasons.gpu.crowded": (
        "GPU {gpus} carries {extra}+ more processes than its peers"
        " (ranks creating a context on the wrong GPU)",
        "GPU {gpus} 上的进程比其他卡多 {extra} 个以上（有 rank 在错误的 GPU 上创建了上下文）",
    ),
    "reasons.gpu.spread_evenly": ("processes are spread evenly over the GPUs", "进程均匀分布在各张 GPU 上"),
    "reasons.gpu.platform_caps_pcie": (
        "the platform caps the PCIe generation below the GPU's own maximum (BIOS/slot setting)",
        "平台把 PCIe 代数限制在 GPU 自身最高代数以下（BIOS 或插槽设置）",
    ),
    "reasons.gpu.platform_allows_pcie": (
        "the platform allows each GPU's own maximum PCIe generation",
        "平台允许每张 GPU 使用自身最高的 PCIe 代数",
    ),
    "reasons.gpu.device_max_note": (
        "{reason} (older drivers print no 'Device Max')",
        "{reason}（旧驱动不输出 'Device Max'）",
    ),
    # tools and versions, shared by every module
    "reasons.installed": ("{tool} {version} installed", "已安装 {tool} {version}"),
    "reasons.no_version": ("{tool} printed no version", "{tool} 没有输出版本号"),
    # containers (collectors/checks/container.py)
    "reasons.container.cli_without_ctk": (
        "Docker lists no nvidia runtime and nvidia-ctk is not installed, but nvidia-container-cli "
        "{version} is: toolkits before 1.12 have no nvidia-ctk, and Docker 19.03+ gives `--gpus` "
        "containers their GPUs through the toolkit's hook without an nvidia runtime",
        "Docker 没有列出 nvidia 运行时，也没装 nvidia-ctk，但装了 nvidia-container-cli {version}："
        "1.12 之前的 toolkit 没有 nvidia-ctk，Docker 19.03+ 不需要 nvidia 运行时，"
        "通过 toolkit 的钩子就能把 GPU 交给 `--gpus` 容器",
    ),
    "reasons.container.no_engine": ("no container engine answered: {why}", "没有容器引擎应答：{why}"),
    "reasons.container.daemon_unreachable": (
        "docker daemon not reachable: {error}",
        "连不上 docker 守护进程：{error}",
    ),
    "reasons.container.nothing_listed": (
        "docker info lists neither runtimes nor CDI devices",
        "docker info 既没有列出运行时，也没有列出 CDI 设备",
    ),
    "reasons.container.runtime_registered": (
        "the nvidia runtime is registered with Docker",
        "Docker 已注册 nvidia 运行时",
    ),
    "reasons.container.cdi_listed": (
        "Docker lists NVIDIA CDI devices (the toolkit's CDI spec: `--device nvidia.com/gpu=all` works"
        " without an nvidia runtime)",
        "Docker 列出了 NVIDIA CDI 设备（工具包的 CDI 规范：没有 nvidia 运行时也能用"
        " `--device nvidia.com/gpu=all`）",
    ),
    "reasons.container.no_toolkit": (
        "Docker has neither an nvidia runtime nor NVIDIA CDI devices, and nvidia-ctk is not installed",
        "Docker 既没有 nvidia 运行时也没有 NVIDIA CDI 设备，而且没有安装 nvidia-ctk",
    ),
    "reasons.container.toolkit_unconfigured": (
        "{tool} {version} is installed but Docker lists no nvidia runtime and no NVIDIA CDI device:"
        " `docker run --gpus` still works through the toolkit's hook; if it fails, configure Docker"
        " (`nvidia-ctk runtime configure --runtime=docker`) or generate the CDI spec",
        "已安装 {tool} {version}，但 Docker 没有列出 nvidia 运行时和 NVIDIA CDI 设备：`docker run --gpus`"
        " 仍可通过工具包的 hook 工作；如果失败，请配置 Docker"
        "（`nvidia-ctk runtime configure --runtime=docker`）"
        "或生成 CDI 规范",
    ),
    "reasons.container.toolkit_unknown": (
        "Docker lists no nvidia runtime and no NVIDIA CDI device; whether the toolkit is installed was not"
        " read: {why}",
        "Docker 没有列出 nvidia 运行时和 NVIDIA CDI 设备；没能读到工具包是否安装：{why}",
    ),
    "reasons.container.ctk_not_needed": (
        "nvidia-ctk is not installed, and no container engine answered, so nothing here needs it: {why}",
        "没有安装 nvidia-ctk，也没有容器引擎应答，所以这里用不到它：{why}",
    ),
    "reasons.container.no_os": (
        "docker info shows neither the operating system nor the kernel",
        "docker info 既没有显示操作系统也没有显示内核",
    ),
    "reasons.container.desktop": (
        "the Docker daemon is Docker Desktop's VM (no GPU passthrough on Linux)",
        "Docker 守护进程运行在 Docker Desktop 的虚拟机里（在 Linux 上不能直通 GPU）",
    ),
    "reasons.container.engine_on_host": (
        "the Docker daemon runs on the host itself",
        "Docker 守护进程直接运行在主机上",
    ),
    "reasons.container.cgroup_not_listed": (
        "the mounts show neither a cgroup v2 file system at /sys/fs/cgroup nor a cgroup v1 devices hierarchy",
        "挂载信息里既没有挂在 /sys/fs/cgroup 的 cgroup v2 文件系统，也没有 cgroup v1 的 devices 层级",
    ),
    "reasons.container.cgroup_v1": (
        "the host gives device access through the cgroup v1 devices hierarchy ({mount}), which every"
        " libnvidia-container version supports",
        "主机通过 cgroup v1 的 devices 层级（{mount}）控制设备访问，所有版本的 libnvidia-container 都支持",
    ),
    "reasons.container.cgroup_v2_version_unknown": (
        "the host runs the cgroup v2 unified hierarchy; libnvidia-container's version was not read: {why}",
        "主机使用 cgroup v2 统一层级；没能读到 libnvidia-container 的版本：{why}",
    ),
    "reasons.container.toolkit_too_old_v2": (
        "the host runs the cgroup v2 unified hierarchy and libnvidia-container is {version}, older than"
        " {need}, the first release that supports it",
        "主机使用 cgroup v2 统一层级，而 libnvidia-container 是 {version}，低于第一个支持它的版本 {need}",
    ),
    "reasons.container.toolkit_supports_v2": (
        "libnvidia-container {version} supports the host's cgroup v2 unified hierarchy ({need} and later do)",
        "libnvidia-container {version} 支持主机的 cgroup v2 统一层级（{need} 及以后的版本都支持）",
    ),
    # driver and framework (collectors/checks/driver.py)
    "reasons.driver.smi_fails": ("nvidia-smi fails: {error}", "nvidia-smi 报错：{error}"),
    "reasons.driver.smi_fails_otherwise": (
        "nvidia-smi fails differently: {error}",
        "nvidia-smi 的报错与此不同：{error}",
    ),
    "reasons.driver.smi_works": (
        "nvidia-smi works and lists {n} GPU(s)",
        "nvidia-smi 工作正常，列出 {n} 张 GPU",
    ),
    "reasons.driver.smi_works_plain": ("nvidia-smi works", "nvidia-smi 工作正常"),
    "reasons.driver.smi_unknown": (
        "nvidia-smi printed neither GPUs nor a known error",
        "nvidia-smi 既没有列出 GPU，也没有已知的报错",
    ),
    "reasons.driver.nvml_mismatch": (
        "NVML reports a driver/library version mismatch",
        "NVML 报告驱动与库的版本不一致",
    ),
    "reasons.driver.module_differs": (
        "loaded kernel module and user-space driver differ: {versions}",
        "已加载的内核模块与用户态驱动版本不同：{versions}",
    ),
    "reasons.driver.same_everywhere": ("driver {version} everywhere", "各处驱动版本都是 {version}"),
    "reasons.driver.api_mismatch": (
        "the kernel log shows an NVRM API mismatch: user space {client}, kernel module {module}",
        "内核日志显示 NVRM API 不匹配：用户态 {client}，内核模块 {module}",
    ),
    "reasons.driver.cannot_compare": ("cannot compare: {why}", "无法比较：{why}"),
    "reasons.driver.fewer_than_two": (
        "fewer than two driver versions readable: {why}",
        "能读到的驱动版本不足两个：{why}",
    ),
    "reasons.driver.components_disagree": (
        "driver components disagree: {versions}",
        "驱动各组件版本不一致：{versions}",
    ),
    "reasons.driver.both_same": (
        "kernel module and user-space driver are both {version}",
        "内核模块与用户态驱动都是 {version}",
    ),
    "reasons.driver.no_required_branch": (
        "no required driver branch in the inventory for this host",
        "清单里没有写这台主机要求的驱动分支",
    ),
    "reasons.driver.unknown": ("installed driver unknown: {why}", "不知道安装的驱动版本：{why}"),
    "reasons.driver.incomparable": (
        "cannot compare driver {version} with {required}",
        "无法比较驱动 {version} 与 {required}",
    ),
    "reasons.driver.below": (
        "driver {version} is below the required {required}",
        "驱动 {version} 低于要求的 {required}",
    ),
    "reasons.driver.meets": (
        "driver {version} meets the required {required}",
        "驱动 {version} 满足要求的 {required}",
    ),
    "reasons.driver.no_torch": (
        "torch is not installed for the host's python3 (the job may use another environment)",
        "主机的 python3 没有安装 torch（作业可能用的是另一个环境）",
    ),
    "reasons.driver.torch_cpu": (
        "CPU-only torch build {version} (`torch.version.cuda` is None)",
        "torch {version} 是只支持 CPU 的版本（`torch.version.cuda` 为 None）",
    ),
    "reasons.driver.torch_no_cuda": (
        "CUDA build {version} but CUDA is not available (driver or container problem)",
        "torch {version} 是 CUDA 版本，但 CUDA 不可用（驱动或容器问题）",
    ),
    "reasons.driver.torch_cuda": (
        "torch {version} is built for CUDA {cuda}",
        "torch {version} 是为 CUDA {cuda} 构建的",
    ),
    "reasons.driver.runtime_unknown": (
        "CUDA runtime version unknown: {why}",
        "不知道 CUDA 运行时版本：{why}",
    ),
    "reasons.driver.driver_cuda_unknown": (
        "driver's CUDA version unknown: {why}",
        "不知道驱动支持的 CUDA 版本：{why}",
    ),
    "reasons.driver.cuda_too_new": (
        "CUDA {runtime} is newer than the driver's CUDA {driver}",
        "CUDA {runtime} 比驱动支持的 CUDA {driver} 新",
    ),
    "reasons.driver.cuda_covered": (
        "driver CUDA {driver} covers runtime CUDA {runtime}",
        "驱动支持的 CUDA {driver} 覆盖运行时 CUDA {runtime}",
    ),
    # NVLink and Fabric Manager (collectors/checks/fabric.py)
    "reasons.fabric.fm_not_installed": (
        "nvidia-fabricmanager is not installed (needed only on NVSwitch systems)",
        "没有安装 nvidia-fabricmanager（只有 NVSwitch 系统需要）",
    ),
    "reasons.fabric.state_not_shown": ("service state not shown", "没有显示服务状态"),
    "reasons.fabric.fm_running": (
        "nvidia-fabricmanager is active (running)",
        "nvidia-fabricmanager 正在运行（active）",
    ),
    "reasons.fabric.fm_state": (
        "nvidia-fabricmanager is `{state}`",
        "nvidia-fabricmanager 的状态是 `{state}`",
    ),
    "reasons.fabric.fabric_pending_fm_down": (
        "the GPU fabric is not initialised on {gpus} (`In Progress`, `Not Started` or a failure status)"
        " and nvidia-fabricmanager is `{state}`",
        "{gpus} 的 GPU fabric 没有完成初始化（`In Progress`、`Not Started` 或失败状态），"
        "且 nvidia-fabricmanager 的状态是 `{state}`",
    ),
    "reasons.fabric.fabric_pending": (
        "the GPU fabric is not initialised on {gpus}, but nvidia-fabricmanager is not shown down"
        " (running, not installed here, or its state unread): it may still be starting, run in a service"
        " VM, or be failing (see its log)",
        "{gpus} 的 GPU fabric 没有完成初始化，但看不到 nvidia-fabricmanager 停止"
        "（在运行、本机没装或状态没读到）：可能还在启动、跑在服务虚拟机里，或者正在出错（看它的日志）",
    ),
    "reasons.fabric.fabric_completed": (
        "the fabric is initialised on {n} GPU(s) (State `Completed`, Status `Success`): CUDA is not held"
        " back by Fabric Manager",
        "{n} 张 GPU 的 fabric 已完成初始化（State `Completed`、Status `Success`）："
        "CUDA 不会因为 Fabric Manager 被卡住",
    ),
    "reasons.fabric.no_nvlink_expected": (
        "no NVLink reported, {expected} links per GPU expected",
        "没有报告任何 NVLink，每张 GPU 应有 {expected} 条",
    ),
    "reasons.fabric.no_nvlink": ("no NVLink-capable GPU reported", "没有报告支持 NVLink 的 GPU"),
    "reasons.fabric.gpu_without_links": (
        "a GPU is listed without any NVLink line",
        "有 GPU 列出来了但没有任何 NVLink 行",
    ),
    "reasons.fabric.links_down": ("NVLinks down or missing on {gpus}", "{gpus} 的 NVLink 断开或缺失"),
    "reasons.fabric.links_down_expected": (
        "NVLinks down or missing on {gpus}, {expected} per GPU expected",
        "{gpus} 的 NVLink 断开或缺失，每张 GPU 应有 {expected} 条",
    ),
    "reasons.fabric.links_unknown": (
        "NVLink state not recognised for links of {gpus} (unrecognised/all): counted neither up nor down,"
        " so nothing is decided",
        "{gpus} 有 NVLink 的状态无法识别（无法识别/全部）：既不算正常也不算断开，无法判断",
    ),
    "reasons.fabric.links_up": ("all NVLinks up on {n} GPU(s)", "{n} 张 GPU 的 NVLink 全部正常"),
    "reasons.fabric.fewer_than_two_gpus": (
        "fewer than two GPUs: no GPU-to-GPU path to judge",
        "GPU 少于两张：没有 GPU 之间的通路可判断",
    ),
    "reasons.fabric.no_expectation": (
        "no NVLink expectation (`nvlink_count` or `form_factor` SXM) for this host",
        "这台主机没有 NVLink 预期（`nvlink_count` 或 `form_factor` SXM）",
    ),
    "reasons.fabric.pcie_not_sxm": (
        "the GPUs are PCIe cards although SXM was expected: missing NVLinks follow from the SKU"
        " (see `wrong-gpu-sku-delivered`)",
        "这些 GPU 是 PCIe 卡，而预期是 SXM：缺少 NVLink 是型号造成的（见 `wrong-gpu-sku-delivered`）",
    ),
    "reasons.fabric.weak_pairs": (
        "{n} GPU pair(s) below the expected NVLink connectivity ({sample})",
        "{n} 对 GPU 的 NVLink 连接低于预期（{sample}）",
    ),
    "reasons.fabric.pairs_ok": (
        "every GPU pair is connected by NVLink as expected",
        "每对 GPU 都按预期通过 NVLink 相连",
    ),
    # comparisons across hosts (collectors/checks/fleet.py)
    "reasons.fleet.needs_peers": (
        "decided by comparing hosts that run one job (a `--job` diagnose, or hosts named with the error);"
        " a single host, or a sweep of unrelated hosts, cannot show it",
        "要比较运行同一个作业的多台主机才能判断（用 `--job` 诊断，或随报错一起指定主机）；"
        "单台主机或互不相关的主机巡检看不出来",
    ),
    "reasons.fleet.too_few_hosts": (
        "decided by comparing hosts: fewer than two hosts of this diagnose reported {facts}",
        "要比较多台主机才能判断：本次诊断中报告了 {facts} 的主机不足两台",
    ),
    "reasons.fleet.none_reported": (
        "this host reported none of {facts}",
        "这台主机没有报告 {facts} 中的任何一项",
    ),
    "reasons.fleet.all_same": ("all {n} hosts run {versions}", "全部 {n} 台主机都运行 {versions}"),
    "reasons.fleet.as_peers": ("same as {n} peers: {versions}", "与其他 {n} 台主机相同：{versions}"),
    "reasons.fleet.partly_known": (
        "same as the peers where known; this host did not report {missing}",
        "已知部分与其他主机相同；这台主机没有报告 {missing}",
    ),
    "reasons.fleet.differs": (
        "this host runs {versions}; the peers run {peers}",
        "这台主机运行 {versions}；其他主机运行 {peers}",
    ),
    "reasons.fleet.no_majority": (
        "this host runs {versions}; the peers have no majority version",
        "这台主机运行 {versions}；其他主机没有占多数的版本",
    ),
    "reasons.needs_param": ("{check} needs a '{param}' parameter", "{check} 需要参数 '{param}'"),
    # host (collectors/checks/host.py)
    "reasons.host.no_cpufreq": (
        "no cpufreq driver active (a VM, or the BIOS owns frequency control)",
        "没有启用 cpufreq 驱动（虚拟机，或由 BIOS 控制频率）",
    ),
    "reasons.host.governor_not_shown": ("governor not shown", "没有显示调频策略"),
    "reasons.host.governor_other": (
        "governor `{governor}` (driver `{driver}`), not `{expect}`",
        "调频策略是 `{governor}`（驱动 `{driver}`），不是 `{expect}`",
    ),
    "reasons.host.governor_ok": ("governor `{governor}`", "调频策略是 `{governor}`"),
    "reasons.host.governor_scales": (
        "governor `{governor}` raises clocks with load, not `{expect}`: the setting alone does not show slow"
        " cores; compare `current CPU frequency` under load with a good node",
        "调频策略 `{governor}` 会随负载升频，不是 `{expect}`：仅凭这个设置看不出 CPU 慢；"
        "请在负载下把 `current CPU frequency` 与正常节点比较",
    ),
    "reasons.host.cmdline_repeated": (
        "`{flag}` is given more than once on the kernel command line, `{value}` only some of those "
        "times; the kernel may apply every one, so whether `{flag}={value}` holds is not clear",
        "内核命令行里 `{flag}` 出现了多次，只有其中几次是 `{value}`；内核可能逐个应用，"
        "所以无法判断 `{flag}={value}` 是否生效",
    ),
    "reasons.host.cmdline_has": ("kernel command line has `{flag}`", "内核启动参数里有 `{flag}`"),
    "reasons.host.cmdline_has_unless": (
        "kernel command line has `{flag}` but also `{unless}`",
        "内核启动参数里有 `{flag}`，但也有 `{unless}`",
    ),
    "reasons.host.cmdline_lacks": ("kernel command line lacks `{flag}`", "内核启动参数里没有 `{flag}`"),
    "reasons.host.cmdline_unrecognized": (
        "kernel command line lacks `{flag}`, but the output does not read as /proc/cmdline"
        " (one line with `root=`, `BOOT_IMAGE=` or the usual flags)",
        "内核启动参数里没有 `{flag}`，但这段输出不像 /proc/cmdline"
        "（应是一行，含 `root=`、`BOOT_IMAGE=` 或常见参数）",
    ),
    "reasons.host.one_numa_node": (
        "one NUMA node: CPU/memory binding cannot be on the wrong node",
        "只有一个 NUMA 节点：CPU/内存不可能绑错节点",
    ),
    "reasons.host.numa_layout": (
        "{n} NUMA nodes; GPUs attached to node(s) {nodes}. Whether the job is bound to the far node is not"
        " visible from here: compare the job's numactl/taskset binding (or `/proc/<pid>/status`"
        " `Cpus_allowed_list`) with the GPU's CPU affinity",
        "{n} 个 NUMA 节点；GPU 挂在节点 {nodes} 上。从这里看不出作业是否绑到了远端节点：请把作业的"
        " numactl/taskset 绑定（或 `/proc/<pid>/status` 的 `Cpus_allowed_list`）与 GPU 的 CPU 亲和性对比",
    ),
    "reasons.host.no_gpu_nic_pairs": ("no GPU/NIC pairs in the topology matrix", "拓扑矩阵里没有 GPU/网卡对"),
    "reasons.host.far_nics": (
        "{gpus} reach every NIC only across the CPU interconnect (SYS)",
        "{gpus} 只能跨 CPU 互联（SYS）访问所有网卡",
    ),
    "reasons.host.near_nics": (
        "every GPU has a NIC on its own PCIe switch or NUMA node",
        "每张 GPU 在自己的 PCIe 交换机或 NUMA 节点上都有网卡",
    ),
    "reasons.host.no_sensor": ("no sensor matches `/{pattern}/`", "没有传感器匹配 `/{pattern}/`"),
    "reasons.host.sensor_alarm": ("sensor(s) {sensors} outside thresholds", "传感器 {sensors} 超出阈值"),
    "reasons.host.sensors_na": ("matching sensors read 'na' (absent)", "匹配的传感器读数为 'na'（不存在）"),
    "reasons.host.sensors_unread": (
        "sensor(s) {sensors} give a discrete state word or a status without a reading, not a value to hold"
        " against thresholds; decode them with `ipmitool sdr elist`",
        "传感器 {sensors} 给出的是离散状态字或没有读数的状态，不是可与阈值比较的数值；"
        "请用 `ipmitool sdr elist` 解读",
    ),
    "reasons.host.sensors_ok": ("matching sensors within thresholds", "匹配的传感器都在阈值内"),
    "reasons.entry_text": ("{text}", "{text}"),
    # GPU processes (collectors/checks/job.py)
    "reasons.job.no_process_facts": ("the NVML probe reported no process facts", "NVML 探针没有报告进程信息"),
    "reasons.job.no_process": ("no GPU process running to inspect", "没有正在运行的 GPU 进程可检查"),
    "reasons.job.error_on": ("{job}: {error}", "{job}：{error}"),
    "reasons.job.unreadable_on": ("{job}: not readable", "{job}：读不到"),
    "reasons.job.none_readable": (
        "cannot read `/proc/PID/{field}` of any GPU process ({why})",
        "读不到任何 GPU 进程的 `/proc/PID/{field}`（{why}）",
    ),
    "reasons.job.absent_in_readable": (
        "{reason} in the readable GPU processes; not readable: {why}",
        "能读到的 GPU 进程里{reason}；读不到的：{why}",
    ),
    "reasons.job.absent": ("{reason} ({n} GPU process(es) read)", "{reason}（已读取 {n} 个 GPU 进程）"),
    "reasons.job.rdma_unknown": ("cannot tell whether RDMA is in use: {why}", "无法判断是否在用 RDMA：{why}"),
    "reasons.job.env_not_set": ("`{names}` not set", "没有设置 `{names}`"),
    "reasons.job.env_set": ("`{names}` set in a running GPU process", "运行中的 GPU 进程设置了 `{names}`"),
    "reasons.job.no_active_port": (
        "{found}, but ibstat shows no active port, so it changes nothing",
        "{found}，但 ibstat 显示没有活动端口，所以没有影响",
    ),
    "reasons.job.while_port": ("{found} while {port}", "{found}，同时 {port}"),
    "reasons.job.ifname_bad": (
        "`NCCL_SOCKET_IFNAME` names no interface that exists and is up",
        "`NCCL_SOCKET_IFNAME` 指定的网卡都不存在或没有启用",
    ),
    "reasons.job.ifname_ok": (
        "`NCCL_SOCKET_IFNAME` matches an interface that is up",
        "`NCCL_SOCKET_IFNAME` 匹配到一个已启用的网卡",
    ),
    "reasons.job.limit_param": (
        "`job_limit` needs `limit` as one of {names}",
        "`job_limit` 的参数 `limit` 必须是 {names} 之一",
    ),
    "reasons.job.limited_no_port": (
        "`{limit}` is limited, but ibstat shows no active port",
        "`{limit}` 有限制，但 ibstat 显示没有活动端口",
    ),
    "reasons.job.limited_while_port": (
        "`{limit}` of a GPU process is limited while {port}",
        "GPU 进程的 `{limit}` 有限制，同时 {port}",
    ),
    "reasons.job.limit_value": ("`{limit}` of a GPU process: {value}", "GPU 进程的 `{limit}`：{value}"),
    "reasons.job.limit_undecided": ("`{limit}` does not decide it", "`{limit}` 不能决定"),
    "reasons.job.limit_fine": ("`{limit}` is fine", "`{limit}` 正常"),
    "reasons.job.cmdline_matches": (
        "a GPU process's command line matches",
        "有 GPU 进程的命令行匹配",
    ),
    "reasons.job.no_cmdline_match": (
        "no GPU process command line matches `{pattern}`",
        "没有 GPU 进程的命令行匹配 `{pattern}`",
    ),
    "reasons.job.no_arch_list": (
        "no arch list from the torch probe ({line})",
        "torch 探针没有给出架构列表（{line}）",
    ),
    "reasons.job.no_arch_list_plain": (
        "no arch list from the torch probe (torch not read)",
        "torch 探针没有给出架构列表（没有读到 torch）",
    ),
    "reasons.job.no_archs": (
        "torch {version} lists no CUDA architectures (a CPU-only build)",
        "torch {version} 没有列出任何 CUDA 架构（只支持 CPU 的版本）",
    ),
    "reasons.job.arch_missing": (
        "the GPU's architecture is not compiled into torch",
        "torch 没有编译这张 GPU 的架构",
    ),
    "reasons.job.cc_unknown": ("compute capability unknown for {models}", "不知道 {models} 的计算能力"),
    "reasons.job.arch_ok": ("every GPU's architecture is compiled in", "每张 GPU 的架构都已编译进 torch"),
    "reasons.needs_one_of": (
        "{check} needs one of these parameters: {params}",
        "{check} 需要以下参数之一：{params}",
    ),
    # logs (collectors/checks/logs.py)
    "reasons.logs.xid": ("Xid {xids}", "Xid {xids} 错误"),
    "reasons.logs.pattern": ("`/{pattern}/`", "`/{pattern}/`"),
    "reasons.logs.kinds": ("`{kinds}`", "`{kinds}`"),
    "reasons.logs.xid_or_pattern": ("Xid {xids} or `/{pattern}/`", "Xid {xids} 或 `/{pattern}/`"),
    "reasons.logs.consequence": (
        "{label} present but {causes} also occurred {window}: follow that one, this is a consequence",
        "出现了{label}，但{window}也出现了 {causes}：请先查那个，这只是它的后果",
    ),
    "reasons.logs.found": (
        "{n} kernel log line(s) {window} match {label}{where}{note}",
        "{window}内核日志里有 {n} 行匹配{label}{where}{note}",
    ),
    "reasons.logs.on_pci": (" on PCI {pcis}", "（PCI {pcis}）"),
    "reasons.logs.untimed": (
        " ({n} without a wall-clock time, counted as this boot)",
        "（其中 {n} 行没有时间，按本次开机计）",
    ),
    "reasons.logs.absent": ("not in the kernel log {window}: {label}", "{window}内核日志里没有：{label}"),
    "reasons.logs.absent_older": (
        "not in the kernel log {window}: {label} ({n} older line(s) outside the window ignored)",
        "{window}内核日志里没有：{label}（时间窗口外更早的 {n} 行已忽略）",
    ),
    "reasons.logs.not_from_boot": (
        "{reason}, but the log does not reach back to boot (it starts at `{first}`, without the "
        "kernel's boot banner): earlier messages were overwritten or cut, so an absence since boot "
        "shows nothing",
        "{reason}，但这段日志没有追溯到开机（从 `{first}` 开始，没有内核的开机横幅）："
        "更早的消息已被覆盖或截掉，所以开机以来没找到也说明不了什么",
    ),
    "reasons.logs.not_a_kernel_log": (
        "{reason}, but the output does not read as a kernel log (no timestamps or `kernel:` prefixes),"
        " so an absence shows nothing",
        "{reason}，但这段输出不像内核日志（没有时间戳或 `kernel:` 前缀），所以没找到也说明不了什么",
    ),
    "reasons.logs.no_healthy_line": (
        "{reason}, and no line shows the healthy state (`{pattern}`)",
        "{reason}，也没有一行显示正常状态（`{pattern}`）",
    ),
    "reasons.logs.healthy_state": ("the healthy state", "正常状态"),
    "reasons.logs.healthy_logged": ("{reason}; {health} is logged", "{reason}；日志里有{health}"),
    "reasons.logs.fm_found": (
        "{n} Fabric Manager log line(s) show {label}",
        "Fabric Manager 日志里有 {n} 行显示{label}",
    ),
    "reasons.logs.fm_absent": (
        "not in the Fabric Manager log: {label}",
        "Fabric Manager 日志里没有：{label}",
    ),
    "reasons.logs.no_fm_log": (
        "{reason}, but there is no Fabric Manager log on this host (no line written by it),"
        " so nothing can be ruled out",
        "{reason}，但这台主机上没有 Fabric Manager 日志（它没有写过任何一行），所以什么也排除不了",
    ),
    "reasons.logs.sel_found": (
        "{n} BMC event(s) {window} match {label}",
        "{window} BMC 有 {n} 条事件匹配{label}",
    ),
    "reasons.logs.and_note": ("{reason}; {note}", "{reason}；{note}"),
    "reasons.logs.sel_recovered": (
        "{n} BMC event(s) {window} match {label}, each deasserted later (the condition ended)",
        "{window} BMC 有 {n} 条事件匹配{label}，但每条之后都已解除（状况已结束）",
    ),
    "reasons.logs.sel_absent": (
        "no BMC event matching {label} {window}",
        "{window}没有匹配{label}的 BMC 事件",
    ),
    "reasons.logs.not_a_sel": (
        "no BMC event matching {label} {window}, but the output does not read as a BMC event list"
        " (no `id | date | time | sensor | event` rows), so an absence shows nothing",
        "{window}没有匹配{label}的 BMC 事件，但这段输出不像 BMC 事件列表"
        "（没有 `编号 | 日期 | 时间 | 传感器 | 事件` 行），所以没找到也说明不了什么",
    ),
    "reasons.logs.sel_undated": (
        "no dated BMC event matching {label} {window}, but {n} matching event(s) have no date"
        " (written before the BMC clock was set), so they may be recent",
        "{window}没有带日期的 BMC 事件匹配{label}，但有 {n} 条匹配事件没有日期"
        "（在 BMC 时钟设定前写入），可能是最近的",
    ),
    "reasons.logs.sel_absent_older": (
        "no BMC event matching {label} {window} ({n} older event(s) ignored; the BMC clock may be wrong)",
        "{window}没有匹配{label}的 BMC 事件（更早的 {n} 条已忽略；BMC 时钟可能不准）",
    ),
    # network and InfiniBand (collectors/checks/network.py)
    "reasons.network.driver_unused": ("no interface uses {driver}", "没有网口使用 {driver}"),
    "reasons.network.no_minimum": (
        "{driver} in use; no minimum version given to compare with",
        "正在使用 {driver}；没有给出可比较的最低版本",
    ),
    "reasons.network.driver_in_tree_fixed": (
        "the {driver} driver is the kernel's own (in-tree): `version: {version}` is a fixed string it always"
        " prints, not a MLNX_OFED release, so it cannot be compared with {minimum}; its code is the"
        " kernel's (compare the kernel release with the vendor's notes, or install MLNX_OFED/DOCA if"
        " {minimum} is needed)",
        "{driver} 是内核自带的驱动：`version: {version}` 是它固定打印的字符串，不是 MLNX_OFED 的版本号，"
        "无法与 {minimum} 比较；它的代码随内核走"
        "（请对照厂商说明检查内核版本，或在需要 {minimum} 时安装 MLNX_OFED/DOCA）",
    ),
    "reasons.network.driver_unversioned": (
        "the {driver} driver reports no version of its own (`version: {version}`: the kernel's release or"
        " none, as in-tree drivers print): compare the kernel release with the vendor's notes instead",
        "{driver} 驱动没有报告自己的版本（`version: {version}`：内核自带驱动打印的是内核版本或不打印）："
        "请改为对照厂商说明检查内核版本",
    ),
    "reasons.network.driver_old": (
        "{driver} {version} is older than {minimum}",
        "{driver} {version} 比 {minimum} 旧",
    ),
    "reasons.network.driver_ok": (
        "{driver} is {version} (>= {minimum})",
        "{driver} 是 {version}（>= {minimum}）",
    ),
    "reasons.network.no_counters": (
        "no error counters (`ip -s link` statistics missing)",
        "没有错误计数（缺少 `ip -s link` 统计）",
    ),
    "reasons.network.errors": (
        "errors counted on {ifaces} (cumulative since boot: read twice to see if they grow)",
        "{ifaces} 上有错误计数（开机以来累计：读两次看是否在增长）",
    ),
    "reasons.network.no_errors": ("no RX/TX errors on active interfaces", "活动网口上没有 RX/TX 错误"),
    "reasons.network.no_mtu": ("no active interface with a known MTU", "没有已知 MTU 的活动网口"),
    "reasons.network.no_expected_mtu": (
        "no expected MTU in the inventory; compare these across nodes and switches",
        "清单里没有预期的 MTU；请在各节点和交换机之间对比这些值",
    ),
    "reasons.network.mtu_differs": ("MTU differs from {mtu} on {ifaces}", "{ifaces} 的 MTU 不是 {mtu}"),
    "reasons.network.mtu_ok": ("MTU {mtu} on every active interface", "每个活动网口的 MTU 都是 {mtu}"),
    "reasons.network.no_rdma_ports": (
        "the kernel lists no RDMA port: none is fitted, or the RDMA service that loads its drivers is"
        " stopped",
        "内核没有列出任何 RDMA 端口：要么没装 RDMA 网卡，要么加载其驱动的 RDMA 服务没有启动",
    ),
    "reasons.network.verbs_unread": (
        "the kernel lists RDMA ports, but what libibverbs sees was not read: {why}",
        "内核列出了 RDMA 端口，但没能读到 libibverbs 看到的设备：{why}",
    ),
    "reasons.network.verbs_abi": (
        "libibverbs refuses the kernel's ABI: a version mismatch between rdma-core and the driver, not a"
        " missing userspace",
        "libibverbs 不接受内核的 ABI：这是 rdma-core 和驱动版本不匹配，而不是缺少用户态",
    ),
    "reasons.network.verbs_host_ok": (
        "libibverbs on the host lists {n} port(s): the host's verbs userspace works; a container image"
        " needs its own copy, so look inside the job's image",
        "宿主机上的 libibverbs 列出了 {n} 个端口：宿主机的 verbs 用户态正常；"
        "容器镜像需要自带一份，请到任务的镜像里查看",
    ),
    "reasons.network.verbs_silent": (
        "ibv_devinfo printed neither a device nor a complaint",
        "ibv_devinfo 既没有列出设备，也没有报错",
    ),
    "reasons.network.verbs_missing": (
        "the kernel lists {n} RDMA port(s) but libibverbs lists no device: its provider library or the RDMA"
        " service is missing",
        "内核列出了 {n} 个 RDMA 端口，但 libibverbs 一个设备都列不出："
        "缺少它的 provider 库，或者 RDMA 服务没起来",
    ),
    "reasons.network.link_layer_not_shown": (
        "{ports}: no `Link layer` line (the output was cut?), so InfiniBand or RoCE is unknown",
        "{ports}：没有 `Link layer` 一行（输出被截断？），无法判断是 InfiniBand 还是 RoCE",
    ),
    "reasons.network.no_port": ("no `{layer}` port found", "没有找到 `{layer}` 端口"),
    "reasons.network.stray_line": (
        "a line naming an HCA or port was not understood: {line}",
        "有一行提到 HCA 或端口，但无法解析：{line}",
    ),
    "reasons.network.state_not_shown": (
        "the state of {n} {layer} port(s) is not shown",
        "{n} 个 {layer} 端口没有显示状态",
    ),
    "reasons.network.ports_bad": (
        "{n} {layer} port(s) `{state}`: {ports}",
        "{n} 个 {layer} 端口 `{state}`：{ports}",
    ),
    "reasons.network.ports_held_down": (
        "{n} {layer} port(s) logically Down while the physical link is up ({ports}): not a dead link, and not"
        " shown to be a missing subnet manager; read the SM lid and the switch side of the port",
        "{n} 个 {layer} 端口逻辑状态为 Down 但物理链路是通的（{ports}）：不是链路断了，也不能据此断定没有"
        "子网管理器；请查看 SM lid 和交换机那一侧的端口",
    ),
    "reasons.network.ports_ok": (
        "all {n} {layer} port(s) are fine for `{state}`",
        "全部 {n} 个 {layer} 端口在 `{state}` 这一项上都正常",
    ),
    "reasons.network.no_active_ib_port": (
        "no active InfiniBand port with its link layer shown among {n} port(s): no rate to compare",
        "{n} 个端口中没有显示了链路层的活动 InfiniBand 端口：没有可比较的速率",
    ),
    "reasons.network.rate_not_shown": (
        "the rate of some active InfiniBand port is not shown",
        "有活动 InfiniBand 端口没有显示速率",
    ),
    "reasons.network.rate_low": (
        "{n} port(s) below {rate} Gb/s (degraded link width or speed)",
        "{n} 个端口低于 {rate} Gb/s（链路宽度或速度降级）",
    ),
    "reasons.network.rate_ok": (
        "every active InfiniBand port at {rate} Gb/s or more",
        "每个活动 InfiniBand 端口都达到 {rate} Gb/s 或更高",
    ),
    # PCIe (collectors/checks/pcie.py)
    "reasons.pcie.no_device": ("no `{kind}` device in lspci output", "lspci 输出里没有 `{kind}` 设备"),
    "reasons.pcie.downgraded": (
        "{n} `{kind}` link(s) run below capability (re-check under load: idle GPUs lower the speed"
        " on purpose)",
        "{n} 条 `{kind}` 链路低于其能力运行（请在负载下再查：空闲 GPU 会主动降速）",
    ),
    "reasons.pcie.slower_idle": (
        "{n} GPU link(s) run at a lower speed at full width while the GPU is idle, which GPUs do to"
        " save power: whether the link reaches full speed needs a reading under load",
        "{n} 条 GPU 链路在满宽度下速率较低，而 GPU 正空闲，这是 GPU 的节能行为："
        "链路能否跑到满速，需要在负载下再读一次",
    ),
    "reasons.pcie.slower_load_unknown": (
        "{n} GPU link(s) run at a lower speed at full width, but the GPU's load was not read: an idle"
        " GPU lowers its link speed on purpose, so re-check under load",
        "{n} 条 GPU 链路在满宽度下速率较低，但没读到 GPU 的负载：空闲的 GPU 会主动降速，请在负载下再查",
    ),
    "reasons.pcie.status_denied": (
        "link status unreadable: access denied (needs root)",
        "读不到链路状态：权限不足（需要 root）",
    ),
    "reasons.pcie.status_missing": (
        "link status unreadable: no LnkCap/LnkSta lines",
        "读不到链路状态：没有 LnkCap/LnkSta 行",
    ),
    "reasons.pcie.links_ok": ("every `{kind}` link runs at its capability", "每条 `{kind}` 链路都按能力运行"),
    "reasons.pcie.no_gpu_p2p": (
        "no NVIDIA GPU in lspci output: no GPU peer-to-peer path to judge",
        "lspci 输出里没有 NVIDIA GPU：没有 GPU 点对点通路可判断",
    ),
    "reasons.pcie.no_acs_line": (
        "no ACSCtl line on a bridge above the GPUs (no ACS-capable bridge there, or lspci not run as root)",
        "GPU 上游的桥上没有 ACSCtl 行（那里没有支持 ACS 的桥，或 lspci 不是以 root 运行）",
    ),
    "reasons.pcie.acs_on": (
        "ACS request/completion redirect enabled on PCIe bridges above the GPUs: GPU peer-to-peer traffic"
        " goes through the root complex",
        "GPU 上游的 PCIe 桥开启了 ACS 请求/完成重定向：GPU 点对点流量要绕经根复合体",
    ),
    "reasons.pcie.acs_off": (
        "ACS redirection disabled on every bridge above the GPUs",
        "GPU 上游的每个桥都关闭了 ACS 重定向",
    ),
    "reasons.pcie.no_gpu": ("no NVIDIA GPU in lspci output", "lspci 输出里没有 NVIDIA GPU"),
    "reasons.pcie.bound_to": ("an NVIDIA GPU is bound to `{driver}`", "有 NVIDIA GPU 绑定在 `{driver}` 上"),
    "reasons.pcie.unbound": (
        "no kernel driver bound to the GPUs (module not loaded?)",
        "GPU 没有绑定任何内核驱动（模块没有加载？）",
    ),
    "reasons.pcie.not_bound_to": ("no GPU is bound to `{driver}`", "没有 GPU 绑定在 `{driver}` 上"),
    # storage (collectors/checks/storage.py)
    "reasons.storage.no_raid": (
        "no RAID controller CLI output: {why}",
        "没有 RAID 卡命令行工具的输出：{why}",
    ),
    "reasons.storage.no_vd": ("no virtual drive listed", "没有列出虚拟盘"),
    "reasons.storage.vds_missing": (
        "storcli declares {declared} virtual drive(s) but only {n} row(s) were read (the output was cut):"
        " the others are not known",
        "storcli 声明有 {declared} 个虚拟盘，但只读到 {n} 行（输出被截断）：其余虚拟盘的情况未知",
    ),
    "reasons.storage.write_through": (
        "virtual drive(s) {vds} in write-through",
        "虚拟盘 {vds} 处于直写（write-through）模式",
    ),
    "reasons.storage.policy_not_shown": ("write policy not shown", "没有显示写策略"),
    "reasons.storage.write_back": (
        "every virtual drive uses write-back",
        "每个虚拟盘都使用回写（write-back）",
    ),
    "reasons.storage.fell_back": (
        "default write-back but current write-through: the controller fell back (BBU/CacheVault)",
        "默认是回写但当前是直写：RAID 卡已回退（BBU/CacheVault）",
    ),
    "reasons.storage.megacli_no_battery": (
        "`MegaCli -LDInfo` does not show the battery; current policy matches the default",
        "`MegaCli -LDInfo` 不显示电池状态；当前策略与默认一致",
    ),
    "reasons.storage.no_bbu_state": (
        "no BBU/CacheVault state in storcli output",
        "storcli 输出里没有 BBU/CacheVault 状态",
    ),
    "reasons.storage.bbu_bad": ("BBU/CacheVault not optimal", "BBU/CacheVault 状态不正常"),
    "reasons.storage.bbu_ok": ("BBU/CacheVault optimal", "BBU/CacheVault 状态正常"),
    "reasons.storage.vd_state_not_shown": (
        "the state of some virtual drive is not shown",
        "有虚拟盘没有显示状态",
    ),
    "reasons.storage.vd_bad": (
        "virtual drive(s) {vds} not optimal ({states})",
        "虚拟盘 {vds} 状态不正常（{states}）",
    ),
    "reasons.storage.vd_ok": ("every virtual drive optimal", "每个虚拟盘状态都正常"),
    "reasons.storage.no_usage": ("no filesystem with a usage figure", "没有带使用率的文件系统"),
    "reasons.storage.full": ("{mounts} at {pct}%+ use", "{mounts} 使用率达到 {pct}% 以上"),
    "reasons.storage.not_full": (
        "every filesystem below {pct}% (inodes not checked: `df -i`)",
        "每个文件系统都低于 {pct}%（没有检查 inode：`df -i`）",
    ),
    "reasons.storage.no_shm": ("/dev/shm not listed by df", "df 没有列出 /dev/shm"),
    "reasons.storage.shm_small": ("/dev/shm is only {mib} MiB", "/dev/shm 只有 {mib} MiB"),
    "reasons.storage.shm_host": (
        "/dev/shm is {mib} MiB on the host (a container gets its own, 64 MiB unless `--shm-size` or"
        " `--ipc=host`)",
        "主机上的 /dev/shm 有 {mib} MiB（容器有自己的 /dev/shm，"
        "除非用 `--shm-size` 或 `--ipc=host`，否则只有 64 MiB）",
    ),
    # host system (collectors/checks/system.py)
    "reasons.system.no_slurm_node": (
        "Slurm printed no record of this node: {error}",
        "Slurm 没有输出本节点的记录：{error}",
    ),
    "reasons.system.slurm_gres_reason": (
        "Slurm holds node {node} out of service for its GRES: {reason}",
        "Slurm 因为 GRES 把节点 {node} 停用了：{reason}",
    ),
    "reasons.system.slurm_gpus_unknown": (
        "Slurm's record shows no GRES problem; the host's GPUs were not counted: {why}",
        "Slurm 的记录里没有 GRES 问题；没能数出主机上的 GPU：{why}",
    ),
    "reasons.system.slurm_no_gpu_gres": (
        "Slurm's record of node {node} has no GPU GRES, but the host has {have} GPU(s)",
        "Slurm 里节点 {node} 的记录没有 GPU GRES，而主机上有 {have} 张 GPU",
    ),
    "reasons.system.slurm_gpu_count": (
        "Slurm configures {configured} GPU(s) for node {node}, the host has {have}",
        "Slurm 给节点 {node} 配置了 {configured} 张 GPU，主机上实际有 {have} 张",
    ),
    "reasons.system.slurm_gpu_slices": (
        "Slurm configures {configured} GPU(s) for node {node} and the host has {have} board(s), but its GPU"
        " GRES counts MIG slices (a MIG profile type, or typed counts that do not add up), so the two"
        " need not match",
        "Slurm 给节点 {node} 配置了 {configured} 个 GPU，主机上有 {have} 张卡，但它的 GPU GRES 按 MIG"
        " 切片计数（有 MIG 规格类型，或分类型计数加起来对不上总数），两者本来就可能不一样",
    ),
    "reasons.system.slurm_gres_agrees": (
        "Slurm's GPU count for node {node} matches the host ({n}); whether jobs are fenced to their GPUs"
        " (ConstrainDevices in cgroup.conf) is not read",
        "Slurm 给节点 {node} 配置的 GPU 数和主机一致（{n} 张）；作业是否被隔离在自己的 GPU 上"
        "（cgroup.conf 里的 ConstrainDevices）没有读取",
    ),
    "reasons.system.no_hostname": ("the host's own name is not known: {why}", "不知道主机自己的名字：{why}"),
    "reasons.system.loopback": (
        "{name} resolves to {address}, a loopback address: peers on other nodes that are told this address"
        " connect to themselves",
        "{name} 解析为回环地址 {address}：其他节点拿到这个地址后会连到它们自己",
    ),
    "reasons.system.not_loopback": (
        "{name} resolves to {address}, not a loopback address",
        "{name} 解析为 {address}，不是回环地址",
    ),
    "reasons.system.no_resolution": (
        "no resolution of {name} was read: {why} (or /etc/hosts does not list it and DNS decides)",
        "没有读到 {name} 的解析结果：{why}（或 /etc/hosts 没有列出它，由 DNS 决定）",
    ),
    "reasons.system.not_output_of": (
        "the output does not read as `{command}` (no column header)",
        "这段输出不像 `{command}` 的输出（没有表头）",
    ),
    "reasons.system.port_free": (
        "nothing listens on TCP port {port} ({n} listening socket(s) read)",
        "TCP 端口 {port} 上没有监听（已读取 {n} 个监听套接字）",
    ),
    "reasons.system.port_owner_unknown": (
        "TCP port {port} is in use; whether a running GPU job owns it is not known: {why}",
        "TCP 端口 {port} 已被占用；不知道是不是正在运行的 GPU 作业占用的：{why}",
    ),
    "reasons.system.port_maybe_job": (
        "TCP port {port} is in use while {n} GPU process(es) run: it may be the running job's own store"
        " (find the owner with `ss -ltnp`)",
        "TCP 端口 {port} 已被占用，同时有 {n} 个 GPU 进程在运行：可能是正在运行的作业自己的 store"
        "（用 `ss -ltnp` 找到占用者）",
    ),
    "reasons.system.port_taken": (
        "TCP port {port} is already in use and no GPU job runs: a leftover process or another"
        " service holds it",
        "TCP 端口 {port} 已被占用，且没有 GPU 作业在运行：被残留进程或其他服务占用",
    ),
    "reasons.system.shm_readonly": ("/dev/shm is mounted read-only", "/dev/shm 以只读方式挂载"),
    "reasons.system.stat_not_understood": ("the stat line was not understood", "无法解析 stat 的输出行"),
    "reasons.system.shm_mode_unknown": (
        "the mode of /dev/shm is unknown: {why}",
        "不知道 /dev/shm 的权限：{why}",
    ),
    "reasons.system.shm_mode": (
        "/dev/shm has mode {mode} ({symbolic}, owner {owner}), not 1777: ordinary users cannot create"
        " shared-memory segments",
        "/dev/shm 的权限是 {mode}（{symbolic}，属主 {owner}），不是 1777：普通用户无法创建共享内存段",
    ),
    "reasons.system.shm_mode_ok": (
        "/dev/shm has mode 1777 (drwxrwxrwt)",
        "/dev/shm 的权限是 1777（drwxrwxrwt）",
    ),
    "reasons.system.no_login_section": (
        "the output has no `[Login]` section: not the logind configuration",
        "输出里没有 `[Login]` 段：不是 logind 的配置",
    ),
    "reasons.system.remove_ipc_yes": (
        "`RemoveIPC=yes`: logind deletes a user's /dev/shm segments when the user's last session ends",
        "`RemoveIPC=yes`：用户最后一个会话结束时，logind 会删除该用户的 /dev/shm 段",
    ),
    "reasons.system.remove_ipc_no": ("`RemoveIPC=no` is set", "已设置 `RemoveIPC=no`"),
    "reasons.system.remove_ipc_default": (
        "`RemoveIPC` is not set, so the default (yes) applies: it bites only jobs of non-system users whose"
        " last session ends while they run (set `RemoveIPC=no` to be sure)",
        "没有设置 `RemoveIPC`，所以按默认值（yes）：只影响非系统用户在运行中最后一个会话结束的作业"
        "（保险起见设置 `RemoveIPC=no`）",
    ),
    "reasons.system.not_ldconfig": (
        "the output does not read as `ldconfig -p` (no `libs found in cache` line)",
        "这段输出不像 `ldconfig -p` 的输出（没有 `libs found in cache` 行）",
    ),
    "reasons.system.torch_nccl": ("torch's NCCL {version}", "torch 自带的 NCCL {version}"),
    "reasons.system.torch_own_nccl": ("torch's own NCCL", "torch 自带的 NCCL"),
    "reasons.system.nccl_many": (
        "{n} different libnccl.so.2 in the loader cache: whichever comes first replaces {wheel}",
        "加载器缓存里有 {n} 个不同的 libnccl.so.2：排在前面的那个会替代{wheel}",
    ),
    "reasons.system.nccl_preload": (
        "a GPU process points `LD_PRELOAD`/`LD_LIBRARY_PATH` at an NCCL, which replaces {wheel}",
        "有 GPU 进程用 `LD_PRELOAD`/`LD_LIBRARY_PATH` 指向一个 NCCL，它会替代{wheel}",
    ),
    "reasons.system.nccl_system": (
        "a system NCCL is installed ({path}); it replaces {wheel} only through `LD_LIBRARY_PATH`/`LD_PRELOAD`"
        " or a torch built against it: compare the NCCL version at init",
        "系统装了 NCCL（{path}）；只有通过 `LD_LIBRARY_PATH`/`LD_PRELOAD` 或针对它构建的 torch 才会替代"
        "{wheel}：请对比初始化时打印的 NCCL 版本",
    ),
    "reasons.system.nccl_env_unread": (
        "no libnccl in the loader cache, but no GPU process environment was read to rule out"
        " `LD_LIBRARY_PATH`/`LD_PRELOAD`",
        "加载器缓存里没有 libnccl，但没有读到 GPU 进程的环境变量，无法排除 `LD_LIBRARY_PATH`/`LD_PRELOAD`",
    ),
    "reasons.system.nccl_only_wheel": (
        "no libnccl in the loader cache and no GPU process preloads one: only {wheel} can load",
        "加载器缓存里没有 libnccl，也没有 GPU 进程预加载：只会加载{wheel}",
    ),
    "reasons.system.no_ofed": (
        "no MLNX_OFED release read ({why}): an in-box rdma-core stack is compared across nodes, not"
        " on one host",
        "没有读到 MLNX_OFED 版本（{why}）：系统自带的 rdma-core 要在节点之间对比，单台主机看不出",
    ),
    "reasons.system.module_version_odd": (
        "the module version is not understood",
        "无法解析模块版本",
    ),
    "reasons.system.mlx5_unknown": (
        "MLNX_OFED {version} is installed but the loaded mlx5_core's version is unknown ({why})",
        "已安装 MLNX_OFED {version}，但不知道已加载的 mlx5_core 的版本（{why}）",
    ),
    "reasons.system.ofed_mismatch": (
        "MLNX_OFED {ofed} user space but mlx5_core {module} loaded: the kernel modules are not the ones"
        " this OFED built",
        "用户态是 MLNX_OFED {ofed}，加载的却是 mlx5_core {module}：内核模块不是这个 OFED 编译的",
    ),
    "reasons.system.ofed_match": (
        "mlx5_core {module} belongs to MLNX_OFED {ofed}",
        "mlx5_core {module} 属于 MLNX_OFED {ofed}",
    ),
    "reasons.system.no_gid": (
        "the port has no GID at all (`n_gids_found=0`): RDMA over this port cannot connect",
        "端口上没有任何 GID（`n_gids_found=0`）：经这个端口的 RDMA 无法建立连接",
    ),
    "reasons.system.no_gid_row": ("show_gids listed no GID row", "show_gids 没有列出 GID 行"),
    "reasons.system.gid_index_missing": (
        "`{setting}` points at no such entry",
        "`{setting}` 指向的条目不存在",
    ),
    "reasons.system.gid_index_wrong": (
        "`{setting}` points at a RoCE {version} GID without IPv4",
        "`{setting}` 指向一个没有 IPv4 的 RoCE {version} GID",
    ),
    "reasons.system.gid_index_ok": ("`{setting}` is a RoCE v2 IPv4 GID", "`{setting}` 是 RoCE v2 IPv4 GID"),
    "reasons.system.v2_ipv6_only": (
        "the RoCE v2 GIDs carry IPv6 addresses only (first: {dev} index {index}): routable, but NCCL"
        " picks one only with NCCL_IB_ADDR_FAMILY=AF_INET6 or NCCL_IB_GID_INDEX set,"
        " and no GPU job here shows either",
        "RoCE v2 GID 只有 IPv6 地址（第一个：{dev} 索引 {index}）：可以路由，但 NCCL 只有在设置了"
        " NCCL_IB_ADDR_FAMILY=AF_INET6 或 NCCL_IB_GID_INDEX 时才会选用，这里没有看到哪个 GPU 任务设置了它们",
    ),
    "reasons.system.no_v2_gid": (
        "no RoCE v2 GID with an IPv4 address: traffic cannot be routed between subnets",
        "没有带 IPv4 地址的 RoCE v2 GID：流量无法跨子网路由",
    ),
    "reasons.system.gid_zero": (
        "NCCL {nccl} uses GID index 0 unless `NCCL_IB_GID_INDEX` is set, and index 0 is RoCE {version}"
        " link-local; the routable one is index {index}",
        "不设置 `NCCL_IB_GID_INDEX` 时 NCCL {nccl} 用 GID 索引 0，而索引 0 是 RoCE {version} 链路本地地址；"
        "可路由的是索引 {index}",
    ),
    "reasons.system.gid_auto": (
        "NCCL {nccl} picks the RoCE v2 IPv4 GID itself (index {index} exists)",
        "NCCL {nccl} 会自己选 RoCE v2 IPv4 GID（索引 {index} 存在）",
    ),
    "reasons.system.gid_undecided": (
        "a RoCE v2 IPv4 GID exists (index {index}); which index NCCL uses depends on its version"
        " (< 2.21 uses 0)"
        " and `NCCL_IB_GID_INDEX`, neither read",
        "存在 RoCE v2 IPv4 GID（索引 {index}）；NCCL 用哪个索引取决于它的版本（< 2.21 用 0）和"
        " `NCCL_IB_GID_INDEX`，两者都没读到",
    ),
}

"""A small Chinese -> English glossary of GPU-operations terms, and the English view of Chinese text.

The bundled embedding model only knows English: to it every Chinese sentence looks alike (an
unrelated Chinese question scores 0.6+ against Chinese symptoms). So Chinese text, on both the
entry side and the query side, is embedded through its English view: glossary terms translated
in place, Latin words and codes kept, other Chinese characters dropped.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from pitstop.core.i18n import CJK, detect_lang
from pitstop.kb.store import text_hash

GLOSSARY: dict[str, str] = {
    "显存": "GPU memory",
    "爆显存": "CUDA out of memory",
    "显存不足": "CUDA out of memory",
    "显存泄漏": "GPU memory leak",
    "显存占用": "GPU memory used by process",
    "内存": "host memory RAM",
    "内存不足": "out of memory OOM",
    "被杀": "killed OOM killer",
    "杀掉": "killed",
    "降频": "clock throttling slowdown",
    "掉频": "clock throttling slowdown",
    "掉卡": "GPU fell off the bus lost",
    "掉了": "lost disappeared",
    "认不到": "not detected not found",
    "识别不到": "not detected not found",
    "找不到": "not found",
    "看不到": "not visible not found",
    "少了一张": "GPU missing",
    "少卡": "GPU missing",
    "卡死": "hang stuck",
    "卡住": "hang stuck",
    "不动": "hang stuck no progress",
    "挂掉": "crash died",
    "挂了": "crash died",
    "崩溃": "crash",
    "死机": "system freeze hang",
    "重启": "reboot restart",
    "自动重启": "unexpected reboot",
    "断电": "power loss",
    "电源": "power supply PSU",
    "功耗": "power draw",
    "温度": "temperature",
    "过热": "overheating thermal",
    "高温": "high temperature thermal",
    "风扇": "fan",
    "散热": "cooling",
    "灰": "dust",
    "训练": "training",
    "推理": "inference",
    "多机": "multi-node",
    "多卡": "multi-GPU",
    "八卡": "8 GPU",
    "单卡": "single GPU",
    "很慢": "slow",
    "变慢": "slow slowdown",
    "越来越慢": "gets slower over time",
    "慢": "slow",
    "吞吐": "throughput",
    "带宽": "bandwidth",
    "延迟": "latency",
    "抖": "fluctuates unstable jitter",
    "波动": "fluctuates unstable",
    "心电图": "spiky unstable",
    "不稳定": "unstable",
    "超时": "timeout",
    "报错": "error",
    "错误": "error",
    "失败": "failed",
    "异常": "exception abnormal",
    "驱动": "driver",
    "驱动版本": "driver version",
    "版本不匹配": "version mismatch",
    "不匹配": "mismatch",
    "升级": "upgrade",
    "更新": "update",
    "内核": "kernel",
    "网卡": "NIC network interface",
    "网络": "network",
    "丢包": "packet loss drops",
    "交换机": "switch",
    "光模块": "optical transceiver",
    "线缆": "cable",
    "链路": "link",
    "端口": "port",
    "磁盘": "disk",
    "硬盘": "disk drive",
    "满了": "full no space left",
    "空间不足": "no space left on device",
    "存储": "storage",
    "挂载": "mount",
    "读写": "read write IO",
    "写入": "write",
    "缓存": "cache",
    "容器": "container docker",
    "镜像": "image",
    "共享内存": "shared memory /dev/shm",
    "权限": "permission denied",
    "插槽": "PCIe slot",
    "金手指": "connector contacts",
    "接触不良": "loose connection seating",
    "带宽减半": "half bandwidth link width downgraded",
    "链路降级": "link downtrained degraded",
    "拓扑": "topology",
    "通信": "communication",
    "梯度": "gradient",
    "精度": "precision",
    "损失": "loss",
    "半精度": "fp16 half precision",
    "溢出": "overflow",
    "坏卡": "faulty GPU hardware failure",
    "坏块": "bad blocks",
    "坏页": "retired pages",
    "利用率": "utilization",
    "利用率低": "low GPU utilization",
    "占满": "fully used",
    "进程": "process",
    "僵尸进程": "zombie stale process",
    "残留": "leftover stale",
    "时钟": "clock",
    "时间不同步": "clock skew time not synchronized",
    "主机名": "hostname",
    "防火墙": "firewall",
    "环境变量": "environment variable",
    "编译": "compile build",
    "安装": "install",
    "装完": "after installing",
    "卸载": "uninstall",
    "重装": "reinstall",
    "休眠": "suspend sleep",
    "唤醒": "resume wake",
    "风冷": "air cooling",
    "机房": "data center room",
    "显卡": "GPU",
    "合盖": "suspend lid closed",
    "黑屏": "black screen freeze",
    "掉线": "disconnected dropped",
    "卡顿": "stall stutter jitter",
    "拖后腿": "straggler slowest rank",
    "跑满": "fully loaded 100%",
    "绑核": "CPU binding affinity numactl",
    "转速": "fan speed RPM",
    "电压": "voltage",
    "误码": "symbol errors bit errors",
    "速率": "link rate speed",
    "协商": "negotiated link speed",
    "固件": "firmware",
    "内核参数": "kernel command line parameters",
    "安全启动": "Secure Boot",
    "自动更新": "automatic update unattended-upgrades",
    "共享存储": "shared storage network filesystem NFS",
    "集群": "cluster",
    "节点": "node",
    "单机": "single node",
    "网口": "network port NIC",
    "光纤": "fiber optic cable",
    "重建": "rebuild rebuilding",
    "降级": "degraded",
    "电池": "battery BBU",
    "写缓存": "write cache write-back",
    "直通": "passthrough",
    "虚拟化": "virtualization VM",
    "碎片": "fragmentation",
    "动态库": "shared library",
    "冲突": "conflict",
    "混装": "mixed installation",
    "僵尸": "zombie",
    "功耗墙": "power cap power limit",
    "功耗上限": "power limit",
    "温度墙": "thermal limit slowdown",
    "降速": "slowdown",
    "掉速": "slowdown speed drop",
    "频率": "clock frequency",
    "主频": "CPU frequency",
    "节能": "power saving powersave",
    "性能模式": "performance mode",
    "初始化": "initialization init",
    "占用": "occupied in use",
    "被占用": "already in use",
    "权限不足": "permission denied",
    "只读": "read-only",
    "断开": "disconnected link down",
    "不识别": "not detected",
    "坏了": "broken faulty",
    "返厂": "RMA",
    "报修": "RMA repair",
    "重插": "reseat",
    "拔插": "reseat",
    "灰尘": "dust",
    "氧化": "oxidation",
    "供电": "power delivery",
    "电源线": "power cable",
    "子网管理": "subnet manager",
    "起不来": "fails to start",
    "加载": "load loaded",
    "模块": "kernel module",
    "签名": "signed signature",
    "密钥": "key",
    # Everyday words of Chinese ops chat (added with the real-v2 corpus; generic, not per case).
    "阵列": "RAID array",
    "数据加载": "dataloader data loading",
    "宕机": "crash host down",
    "蓝屏": "crash blue screen",
    "刷固件": "firmware update flash",
    "主板": "motherboard",
    "功率": "power draw watts",
    "满载": "full load",
    "压测": "stress test",
    "烤机": "stress test burn-in",
    "分布式": "distributed",
    "并行": "parallel",
    "损坏": "corrupted damaged",
    "坏道": "bad sectors disk",
    "校验": "checksum verification",
    "文件系统": "filesystem",
    "句柄": "file handles descriptors",
    "连接": "connection",
    "拒绝": "refused denied",
    "不通": "unreachable cannot connect",
    "解析": "resolve resolution",
    "路由": "routing route",
    "子网": "subnet",
    "虚拟机": "virtual machine VM",
    "算力": "compute capability",
    "计算能力": "compute capability",
    "架构": "architecture arch",
    "不支持": "not supported unsupported",
    "兼容": "compatible compatibility",
    "混用": "mixed",
    "混插": "mixed GPU models",
    "型号": "model type",
    "性能": "performance",
    "抖动": "jitter fluctuating",
    "慢节点": "straggler slow node",
    "日志": "log",
    "乱码": "garbage characters",
    "游戏卡": "consumer GeForce GPU",
    "消费级": "consumer GeForce",
    "全零": "zeros",
    "全是0": "zeros",
}

# Words of Chinese ops chat, gathered from Chinese posts (search tool) and the KB's own Chinese text,
# never from an evaluation case. The word index keeps them whole beside the character bigrams
# (kb.tokens.word_text), so a paste that says 带宽上不去 or 宿主机 matches the entries that say it
# more strongly than ones sharing a stray bigram. They are not translated: adding them to GLOSSARY
# dragged generic English words into the queries and lost on the tuning cases (bench/RESULTS.md,
# "Chinese query understanding").
SEGMENT_WORDS: frozenset[str] = frozenset(
    """
    机器 台机器 服务器 主机 宿主机 物理机 整机 同一台 另一台 两台 几台 每台 计算节点 主节点 张卡 块卡 号卡
    一张卡 这张卡 那张卡 某张卡 每张卡 其他卡 别的卡 两张卡 所有卡 卡上 卡数 计算卡 加速卡 算力卡 单机八卡
    单机多卡 多机多卡 四卡 两卡 双卡 卡间 机间 节点间 机内 跨机 跨节点 任务 作业 程序 脚本 消失 不见了 丢失
    丢卡 卡丢了 卡没了 没了 失联 离线 掉线了 识别 认不出 检测不到 看不到卡 找不到卡 找不到设备 没有设备
    只显示 显示 提示 报了 就报 出错 报错了 跑不起来 跑不了 用不了 不可用 无法 不能 不了 不行 没用 不生效
    没反应 无响应 卡着 卡在 卡住不动 一动不动 没有进展 没输出 不报错 没有报错 也不报错 挂起 假死 夯住 阻塞
    死锁 中断 断了 断开连接 跑着跑着 跑一会 跑一段时间 一段时间后 几个小时后 突然 偶发 偶尔 间歇性 时好时坏
    时不时 随机 不定期 反复 频繁 经常 每次 必现 复现 稳定复现 恢复 恢复正常 正常 好了 重启后 重启就好 重启才
    冷重启 热重启 断电重启 开机 开机后 启动 启动失败 启动不了 起不来了 初始化失败 初始化阶段 硬件 硬件故障
    硬件问题 故障 坏掉 有问题 换卡 换槽 换一个槽 换插槽 槽位 转接卡 背板 总线 链路宽度 宽度 降到 降为 变成
    减半 一半 信号 热插拔 枚举 鼓包 焦味 纠错 可纠正 不可纠正 不可恢复 致命 显存错误 显存坏了 页退役 退役
    重映射 行重映射 待处理 隔离 重置 复位 重置失败 温度过高 温度很高 度以上 风扇不转 风扇坏了 风扇故障 积灰
    风道 空调 进风 出风 液冷 水冷 机柜 机架 整柜 电源模块 冗余 额定功率 瞬时功耗 功耗突增 跳闸 掉电 供电不足
    供电不稳 电压不稳 带外 带外管理 管理口 事件日志 告警 显卡驱动 装驱动 驱动装不上 装不上 安装失败 装了
    新装 开源驱动 禁用 黑名单 头文件 内核头文件 内核升级 内核更新 升级内核 内核版本 内核模块 加载失败
    编译失败 源码编译 版本 版本号 新版本 新版 旧版本 旧版 老版本 回退 回滚 对不上 不一致 一致 不兼容 运行时
    工具包 找不到库 软链接 环境 虚拟环境 依赖 自带 自带的 默认 配置 设置 参数 配置文件 服务 守护进程
    开机自启 持久模式 计算模式 独占 切分 实例 容器里 容器内 映射 挂进去 插件 设备插件 调度 调度器 资源 申请
    配额 网线 口子 带宽上不去 上不去 跑不满 打不满 速度上不去 重传 拥塞 流控 无损 组网 网段 网关 网桥
    虚拟网卡 多网卡 双网卡 选错网卡 绑定 互联 直连 连不上 连接超时 断连 端口被占 端口占用 连通性 拥堵 速度
    训练速度 突然变慢 慢了 变卡 吞吐量 瓶颈 等待 等数据 空闲 空转 忽高忽低 时快时慢 利用率上不去 跑不快 耗时
    每步 迭代 线程 占着 没释放 释放 退出 杀不掉 泄露 内存泄漏 内存泄露 显存泄露 一直涨 越来越大 耗尽 用完
    不够用 不够 锁页内存 分配 分配器 模型 数据 数据集 预处理 保存 检查点 断点续训 前向 反向 反向传播 同步
    集合通信 通信超时 多进程 系统盘 数据盘 固态 阵列卡 掉盘 坏盘 变成只读 系统 操作系统 系统日志 内核日志
    软锁 内核崩溃 大页 透明大页 时间同步 用户态 块盘
    """.split()
)

_TERMS = sorted(GLOSSARY, key=len, reverse=True)
_LONGEST = re.compile("|".join(re.escape(term) for term in _TERMS))
VIEW_RULES = 2  # bump when english_view/dense_text change, so cached vectors are rebuilt
VERSION = hashlib.sha256(repr((VIEW_RULES, sorted(GLOSSARY.items()))).encode()).hexdigest()[:12]


def english_view(text: str) -> str:
    """`text` with glossary terms replaced by English and remaining Chinese characters dropped."""
    translated = _LONGEST.sub(lambda m: f" {GLOSSARY[m.group(0)]} ", text)
    return re.sub(r"\s+", " ", CJK.sub(" ", translated)).strip()


def dense_text(text: str) -> str:
    """What the English-only model should embed for `text` ('' when no word is left)."""
    view = text if detect_lang(text) == "en" else english_view(text)
    return view if re.search(r"[A-Za-z0-9]", view) else ""


@dataclass(frozen=True)
class DenseView:
    """The text the model embeds for some input, and the hash its stored vector is keyed by."""

    text: str
    digest: str


def dense_view(text: str) -> DenseView | None:
    """The one embedding view of a stored text (examples at build and run time, incident texts).

    None when nothing is left to embed (the text is then found by the lexical signals only).
    """
    view = dense_text(text)
    return DenseView(view, text_hash(view)) if view else None


def translate_terms(text: str) -> list[str]:
    """English renderings of the glossary terms found in `text`, longest match first, no overlaps."""
    found: list[str] = []
    taken = [False] * len(text)
    for term in _TERMS:
        start = text.find(term)
        while start != -1:
            span = range(start, start + len(term))
            if not any(taken[i] for i in span):
                for i in span:
                    taken[i] = True
                found.append(GLOSSARY[term])
            start = text.find(term, start + 1)
    return list(dict.fromkeys(found))

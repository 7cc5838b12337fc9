"""What Slack and the console say when something cannot be done: errors, a full queue, a stale
button, a resolution form that is not filled in right."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "chat.error.not_allowed": ("Not allowed: {message}", "不允许：{message}"),
    "chat.error.not_found": ("Not found: {message}", "未找到：{message}"),
    "chat.error.unexpected": (
        "Sorry, something went wrong inside Pitstop ({kind}); the details are in its log.",
        "抱歉，Pitstop 内部出错了（{kind}）；详情见它的日志。",
    ),
    "chat.busy": ("Pitstop is busy; ask again in a minute.", "Pitstop 正忙，请一分钟后再问。"),
    "chat.busy_checks": (
        "Pitstop is busy with other checks; try again in a minute.",
        "Pitstop 正忙于其他检查，请一分钟后再试。",
    ),
    "chat.cannot_post": (
        "I cannot post here ({error}); invite me with /invite @pitstop.",
        "我无法在这里发消息（{error}）；请用 /invite @pitstop 邀请我。",
    ),
    "chat.form.both": (
        "Pick a known cause or describe a new one, not both.",
        "请选择一个已知原因或描述一个新原因，不要两样都填。",
    ),
    "chat.form.neither": (
        "Pick the real cause, or describe a new one below.",
        "请选择真正的原因，或者在下面描述一个新原因。",
    ),
    "chat.form.needed": ("Needed for a new cause.", "描述新原因时必须填写。"),
    "chat.diagnose_usage": (
        "Usage: `/diagnose HOSTS [error text]`, where HOSTS is a host, a group, a list or a range "
        "such as `gpu[01-04]`, e.g. `/diagnose gpu-node-3 nccl unknown error after FP16`; "
        "or `/diagnose job 123456` for the nodes of a Slurm job.",
        "用法：`/diagnose HOSTS [报错文字]`，HOSTS 可以是一台主机、一个组、一个列表"
        "或 `gpu[01-04]` 这样的范围，"
        "例如 `/diagnose gpu-node-3 nccl unknown error after FP16`；"
        "或者用 `/diagnose job 123456` 检查一个 Slurm 作业的节点。",
    ),
}

"""The fixed words of Pitstop's messages in English and Chinese."""

from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "causes": "Likely causes",
        "no_causes": "No known cause matches this text. Add more of the error output, "
        "or record the cause once found.",
        "why": "Why",
        "check": "Check",
        "fix": "Fix",
        "draft": "draft, not yet reviewed",
        "this": "This was it",
        "not_it": "Not it",
        "resolve": "Record resolution",
        "run": "Run checks on {host}",
        "pick_host": "Run checks on a host…",
        "diagnosing": "Checking {target}: {done}/{total} hosts done",
        "diagnosed": "Checks on {target}: {total} hosts",
        "no_verdicts": "No cause was confirmed or ruled out.",
        "outputs": "Full command outputs",
        "more": "… {n} more in the attached outputs file",
        "confirmed": "confirmed",
        "ruled_out": "ruled out",
        "inconclusive": "inconclusive",
        "benign": "benign",
        "pending": "running",
    },
    "zh": {
        "causes": "可能的原因",
        "no_causes": "知识库里没有与这段文字匹配的已知原因。请贴更多报错输出，找到原因后也可以记录下来。",
        "why": "匹配依据",
        "check": "检查",
        "fix": "修复",
        "draft": "草稿，尚未审核",
        "this": "就是这个",
        "not_it": "不是这个",
        "resolve": "记录解决方案",
        "run": "在 {host} 上检查",
        "pick_host": "选择主机进行检查…",
        "diagnosing": "正在检查 {target}：{done}/{total} 台主机已完成",
        "diagnosed": "{target} 检查结果：共 {total} 台主机",
        "no_verdicts": "没有原因被确认或排除。",
        "outputs": "完整命令输出",
        "more": "… 另有 {n} 项见附件中的输出文件",
        "confirmed": "已确认",
        "ruled_out": "已排除",
        "inconclusive": "无法判断",
        "benign": "无害",
        "pending": "运行中",
    },
}

VERDICT_ICONS: dict[str, str] = {"confirmed": "✅", "ruled_out": "⬜", "inconclusive": "❔"}


def label(lang: str, key: str, **fields: object) -> str:
    """The label `key` in `lang` (English when unknown), formatted with `fields`."""
    table = LABELS.get(lang, LABELS["en"])
    return table[key].format(**fields)

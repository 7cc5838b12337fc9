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
        "modal_title": "Record resolution",
        "save": "Save",
        "cancel": "Cancel",
        "search": "Search the knowledge base",
        "known_cause": "The real cause (known)",
        "or_new": "…or describe a new cause (a title and what was wrong are needed):",
        "new_title": "New cause: title",
        "new_what": "What was wrong",
        "new_fix": "How it was fixed",
        "new_symptoms": "Symptom lines (one per line)",
        "notes": "Notes",
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
        "modal_title": "记录解决方案",
        "save": "保存",
        "cancel": "取消",
        "search": "在知识库中搜索",
        "known_cause": "真正的原因（已知）",
        "or_new": "……或者描述一个新原因（至少需要标题和问题所在）：",
        "new_title": "新原因：标题",
        "new_what": "问题出在哪里",
        "new_fix": "如何修复的",
        "new_symptoms": "症状（每行一条）",
        "notes": "备注",
    },
}

VERDICT_ICONS: dict[str, str] = {"confirmed": "✅", "ruled_out": "⬜", "inconclusive": "❔"}


def label(lang: str, key: str, **fields: object) -> str:
    """The label `key` in `lang` (English when unknown), formatted with `fields`."""
    table = LABELS.get(lang, LABELS["en"])
    return table[key].format(**fields)

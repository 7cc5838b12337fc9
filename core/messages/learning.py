"""What the knowledge base says it learned from a resolved incident (stored with the resolution)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "learning.nothing": (
        "nothing to learn: the incident holds no error text",
        "没有可学习的内容：这个事件里没有报错文字",
    ),
    "learning.example": (
        "added the error text as example #{example} of '{cause}'",
        "已把报错文字加为 '{cause}' 的示例 #{example}",
    ),
    "learning.merge": (
        "proposed merging into '{target}' (similarity {similarity}); a maintainer decides with"
        " `pitstop kb approve {id}` or `pitstop kb reject {id}`",
        "已提议合并到 '{target}'（相似度 {similarity}）；由维护者用 `pitstop kb approve {id}` 或"
        " `pitstop kb reject {id}` 决定",
    ),
    "learning.draft": (
        "created draft pitfall '{cause}', unreviewed until a maintainer approves it",
        "已创建草稿条目 '{cause}'，维护者批准前不算审核通过",
    ),
    "learning.imported": (
        "imported {entries} entries as drafts ({entries_known} already known) and {examples} example(s)"
        " ({examples_known} already known, {orphaned} for unknown entries)",
        "已导入 {entries} 个条目（作为草稿，另有 {entries_known} 个已存在）和 {examples} 个示例"
        "（另有 {examples_known} 个已存在，{orphaned} 个所属条目在本地不存在）",
    ),
    "learning.imported.one": (
        "imported {entries} entry as drafts ({entries_known} already known) and {examples} example(s)"
        " ({examples_known} already known, {orphaned} for unknown entries)",
        "已导入 {entries} 个条目（作为草稿，另有 {entries_known} 个已存在）和 {examples} 个示例"
        "（另有 {examples_known} 个已存在，{orphaned} 个所属条目在本地不存在）",
    ),
}

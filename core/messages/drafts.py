"""Drafts and merge proposals under review: the card, its buttons, the edit modal, the outcomes."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "drafts.approved": (
        "approved '{id}': wrote {path} (commit it for review)",
        "已批准 '{id}'：已写入 {path}（请提交到 git 供审核）",
    ),
    "drafts.merged": ("merged into '{target}': {n} new example(s)", "已合并到 '{target}'：新增 {n} 个示例"),
    "drafts.rejected": ("rejected '{id}'", "已拒绝 '{id}'"),
    "drafts.edited": ("edited '{id}' ({user})", "已编辑 '{id}'（{user}）"),
    "drafts.kind.merge": ("merge proposal into {target}", "合并到 {target} 的提议"),
    "drafts.kind.new": ("new cause (draft)", "新原因（草稿）"),
    "drafts.symptoms": ("Symptoms", "症状"),
    "drafts.fix": ("Fix", "修复"),
    "drafts.status.approved": ("Approved", "已批准"),
    "drafts.status.rejected": ("Rejected", "已拒绝"),
    "drafts.decided": ("{status} by {who}.", "由 {who} {status}。"),
    "drafts.decided_anon": ("{status}.", "{status}。"),
    "drafts.approve": ("Approve draft", "批准草稿"),
    "drafts.edit": ("Edit", "编辑"),
    "drafts.reject": ("Reject draft", "拒绝草稿"),
    "drafts.review": (
        "A maintainer can review what this resolution taught Pitstop:",
        "维护者可以审核这次解决让 Pitstop 学到的内容：",
    ),
    "drafts.fallback": ("Draft for review: {title}", "待审核的草稿：{title}"),
    "drafts.field.title": ("Title", "标题"),
    "drafts.field.summary": ("Summary", "摘要"),
    "drafts.field.symptoms": ("Symptoms (one per line)", "症状（每行一条）"),
    "drafts.field.fix": ("Fix steps (one per line)", "修复步骤（每行一步）"),
    "drafts.modal_title": ("Edit draft", "编辑草稿"),
    "drafts.none": ("No drafts waiting for review.", "没有待审核的草稿。"),
    "drafts.list": (
        "Drafts waiting for review ([:approve ID] [:reject ID]):",
        "待审核的草稿（[:approve ID] [:reject ID]）：",
    ),
    "drafts.line.merge": ("merge into {target}", "合并到 {target}"),
    "drafts.line.new": ("new cause", "新原因"),
    "drafts.line": (
        "{id}: {title} ({what}, incident #{incident})",
        "{id}：{title}（{what}，事件 #{incident}）",
    ),
    "drafts.maintainers_only": (
        "Only Pitstop maintainers (PITSTOP_MAINTAINERS) may approve, edit or reject drafts.",
        "只有 Pitstop 维护者（PITSTOP_MAINTAINERS）可以批准、编辑或拒绝草稿。",
    ),
}

"""Why an answer names a cause, in words (the regexes and terms behind it are the details view)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "kb.why.signature": (
        "your paste has `{text}`, which this cause's signature matches",
        "你贴的内容里有 `{text}`，与这个原因的特征相符",
    ),
    "kb.why.words": (
        "your paste shares these words with this cause's description: {terms}",
        "你贴的内容和这个原因的描述有相同的词：{terms}",
    ),
    "kb.why.symptom": (
        "close to a known symptom of this cause: “{text}”",
        "和这个原因的一个已知症状很接近：“{text}”",
    ),
    "kb.why.description": (
        "close to how this cause is described",
        "和这个原因的描述很接近",
    ),
    "kb.why.incident": (
        "close to a symptom resolved in incident #{incident}: “{text}”",
        "和事件 #{incident} 中已解决的症状很接近：“{text}”",
    ),
    "kb.why.example": (
        "close to an example recorded for this cause: “{text}”",
        "和这个原因记录过的一个例子很接近：“{text}”",
    ),
    "kb.why.learned": (
        "resolved as this in incident #{incident} (a paste this close, similarity {similarity})",
        "事件 #{incident} 被确认为这个原因（那次的内容和这次很接近，相似度 {similarity}）",
    ),
    "kb.why.learned_unvouched": (
        "one person resolved incident #{incident} as this, not yet confirmed by a maintainer (a paste"
        " this close, similarity {similarity})",
        "有一个人把事件 #{incident} 定为这个原因，维护者还没确认（那次的内容和这次很接近，"
        "相似度 {similarity}）",
    ),
    "kb.why.prior": (
        "this team resolved {count} incident(s) as this cause, latest #{incident}",
        "这个团队已有 {count} 个事件确认为这个原因，最近一次是 #{incident}",
    ),
    "kb.why.host": (
        "host {host} had this cause before, in incident #{incident}",
        "主机 {host} 之前出过这个问题，见事件 #{incident}",
    ),
    "kb.why.weak": (
        "only a weak overall similarity",
        "只是整体上有些相似",
    ),
    "kb.why.demoted": (
        "ranked lower: {not_it} “Not it” vote(s) against {was_it} “This was it” on near-identical questions",
        "排名已下调：在几乎相同的问题上有 {not_it} 票“不是这个”，{was_it} 票“就是这个”",
    ),
    # an entry's severity, as `kb list` shows it
    "kb.severity.critical": ("critical", "严重"),
    "kb.severity.high": ("high", "高"),
    "kb.severity.medium": ("medium", "中"),
    "kb.severity.low": ("low", "低"),
    "kb.severity.info": ("info", "提示"),
    # the details view (Slack "Details", --verbose, `why` in JSON): the raw signals behind a rank
    "kb.detail.signature": ("signature /{pattern}/ matched '{text}'", "特征正则 /{pattern}/ 匹配到 '{text}'"),
    "kb.detail.terms": ("terms: {terms}", "共有的词：{terms}"),
    "kb.detail.nearest": ("nearest {kind} ({similarity}): {text}", "最相近的{kind}（{similarity}）：{text}"),
    "kb.detail.kind.title": ("title", "标题"),
    "kb.detail.kind.summary": ("summary", "摘要"),
    "kb.detail.kind.symptom": ("symptom", "症状"),
    "kb.detail.kind.incident": ("incident", "事件"),
    "kb.detail.kind.other": ("example", "示例"),
    "kb.detail.learned": (
        "resolved as this in incident #{incident} ({similarity})",
        "事件 #{incident} 按这个原因解决（相似度 {similarity}）",
    ),
    "kb.detail.learned_unvouched": (
        "resolved as this in incident #{incident} by one person, unconfirmed ({similarity})",
        "事件 #{incident} 由一人按这个原因解决，未经维护者确认（相似度 {similarity}）",
    ),
    "kb.detail.prior": (
        "this team resolved {count} incident(s) as this, latest #{incident}",
        "本团队有 {count} 个事件按这个原因解决，最近的是 #{incident}",
    ),
    "kb.detail.host": (
        "host {host} had this cause in incident #{incident}",
        "主机 {host} 在事件 #{incident} 中出过这个原因",
    ),
    "kb.detail.demoted": (
        "demoted by {delta}: {not_it} 'Not it' vote(s) against {was_it} 'This was it'"
        " on near-identical questions",
        "下调 {delta}：几乎相同的问题上 {not_it} 票“不是这个”，{was_it} 票“就是这个”",
    ),
    "kb.detail.weak": ("weak overall similarity", "整体相似度较弱"),
    "kb.detail.entry": (
        "the entry's whole text ranks #{rank} for the paste's words (BM25 {score})",
        "按粘贴内容的词，条目全文排第 {rank}（BM25 {score}）",
    ),
}

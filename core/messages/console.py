"""What the terminal console says about its own commands."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "console.cause.which": (
        "Say which cause: its number in the last answer or its id.",
        "请说明是哪个原因：上一条回答里的编号或它的 id。",
    ),
    "console.cause.unknown": (
        "'{ref}' is not a cause of the last answer: give its number (1-{n}) or its id.",
        "“{ref}”不是上一条回答里的原因：请给出编号（1-{n}）或 id。",
    ),
    "console.cause.no_list": (
        "'{ref}' is not a cause to choose from: the last result has no numbered list of causes (a "
        "diagnosis gives none). Name a diagnosed cause by its id (:resolve lists them), or paste the "
        "error text to get an answer whose causes you can pick by number.",
        "“{ref}”不是可选的原因：上一条结果没有编号的原因列表（诊断结果不提供编号）。"
        "请用 id 指明诊断出的原因（:resolve 会列出它们），或者粘贴报错文字，得到一条可按编号选择原因的回答。",
    ),
    "console.resolve.how": (
        "Pick the real cause with :resolve SLUG, or describe a new one with :resolve-new "
        "TITLE | WHAT WAS WRONG | HOW FIXED | SYMPTOM; SYMPTOM | NOTES",
        "用 :resolve SLUG 选出真正的原因，或者用 :resolve-new "
        "标题 | 问题所在 | 如何修复 | 症状; 症状 | 备注 描述一个新原因",
    ),
    "console.help": (
        """Paste an error (end it with an empty line) to get the likely causes. Commands:
  /diagnose HOSTS [error text]   run the read-only checks on HOSTS (names, groups, gpu[1-4])
  :run HOST                      "Run checks on HOST" for the last answer
  :this N | :notit N             "This was it" / "Not it" for cause N (or its id) of the last answer
  :resolve                       list the causes to pick from; :resolve SLUG [notes] records it
  :resolve-new TITLE | WHAT WAS WRONG | HOW FIXED | SYMPTOM; SYMPTOM | NOTES
  :search WORDS                  search the whole knowledge base for a cause
  :stats                         incident figures of the last 30 days (Slack's App Home)
  :drafts                        drafts and merge proposals waiting for review
  :approve ID | :reject ID       review a draft (the console user counts as a maintainer)
  :lang en|zh|auto               answer language (auto: follow the paste)
  :help  :quit""",
        """贴出报错（以一个空行结束）即可得到可能的原因。命令：
  /diagnose HOSTS [报错文字]     在 HOSTS（主机名、组、gpu[1-4]）上运行只读检查
  :run HOST                      对上一条回答执行“在 HOST 上检查”
  :this N | :notit N             对上一条回答的第 N 个原因（或其 id）选“就是这个”/“不是这个”
  :resolve                       列出可选的原因；:resolve SLUG [备注] 记录解决方案
  :resolve-new 标题 | 问题所在 | 如何修复 | 症状; 症状 | 备注
  :search 关键词                 在整个知识库里搜索原因
  :stats                         最近 30 天的事件统计（即 Slack 的 App Home）
  :drafts                        待审核的草稿和合并提议
  :approve ID | :reject ID       审核草稿（控制台用户视为维护者）
  :lang en|zh|auto               回答语言（auto：跟随粘贴内容）
  :help  :quit""",
    ),
    "console.unknown_command": (
        "Unknown command {word}; type :help for the list.",
        "未知命令 {word}；输入 :help 查看命令列表。",
    ),
    "console.which_host": ("Say which host: :run HOST", "请说明是哪台主机：:run HOST"),
    "console.progress": ("  … {host}: {done}/{total} hosts done", "  … {host}：{done}/{total} 台主机已完成"),
    "console.checking": ("Checking {target} ({n} hosts)…", "正在检查 {target}（{n} 台主机）…"),
    "console.checking.one": ("Checking {target} (1 host)…", "正在检查 {target}（1 台主机）…"),
    "console.paste_first": (
        "Paste an error first: the buttons refer to the last answer.",
        "请先贴出报错：这些命令针对的是上一条回答。",
    ),
    "console.which_draft": (
        "Say which draft: :approve ID or :reject ID (see :drafts).",
        "请说明是哪个草稿：:approve ID 或 :reject ID（见 :drafts）。",
    ),
    "console.nothing_found": ("Nothing found.", "什么也没找到。"),
}

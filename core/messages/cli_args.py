"""argparse's own messages (a wrong option, a missing argument, a bad value) in both languages.

`ARGPARSE` maps each message template argparse builds with `_()` or `ngettext()` (its gettext msgids,
`%`-style) to the catalogue key that says it here, with the names of its positional `%s`/`%r` fields
(a `%(name)s` field keeps its name). `pitstop.cli.argerrors` reads an error line argparse formatted back
against these templates and says it again in the reader's language. Several templates are argparse's
complaints about a badly built parser (conflicting option strings, a missing `dest=`); no user sees them,
they are here so that every template argparse has is accounted for (`tests/cli/test_argparse_errors.py`).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cli_args.error": ("{prog}: error: {message}", "{prog}：错误：{message}"),
    "cli_args.argument": ("argument {argument_name}: {message}", "参数 {argument_name}：{message}"),
    "cli_args.unrecognized": ("unrecognized arguments: {args}", "无法识别的参数：{args}"),
    "cli_args.ambiguous": (
        "ambiguous option: {option} could match {matches}",
        "选项 {option} 有歧义，可能是 {matches} 中的任一个",
    ),
    "cli_args.invalid_choice": (
        "invalid choice: {value} (choose from {choices})",
        "无效的取值：{value}（可选：{choices}）",
    ),
    "cli_args.invalid_type": ("invalid {type} value: {value}", "无效的 {type} 值：{value}"),
    "cli_args.required": (
        "the following arguments are required: {args}",
        "缺少必需的参数：{args}",
    ),
    "cli_args.one_required": ("one of the arguments {args} is required", "必须给出参数 {args} 中的一个"),
    "cli_args.not_allowed": ("not allowed with argument {other}", "不能与参数 {other} 同时使用"),
    "cli_args.expected_one": ("expected one argument", "需要一个值"),
    "cli_args.expected_at_most_one": ("expected at most one argument", "至多需要一个值"),
    "cli_args.expected_at_least_one": ("expected at least one argument", "至少需要一个值"),
    "cli_args.expected_n": ("expected {count} argument(s)", "需要 {count} 个值"),
    "cli_args.ignored_explicit": ("ignored explicit argument {value}", "忽略了显式给出的值 {value}"),
    "cli_args.unexpected_option": ("unexpected option string: {option}", "意外的选项：{option}"),
    "cli_args.cannot_open": ("can't open '{filename}': {error}", "无法打开 '{filename}'：{error}"),
    "cli_args.dash_mode": ('argument "-" with mode {mode}', '参数 "-" 不能用 {mode} 模式打开'),
    "cli_args.unknown_parser": (
        "unknown parser {parser_name} (choices: {choices})",
        "未知的子命令 {parser_name}（可选：{choices}）",
    ),
    "cli_args.subcommands": ("subcommands", "子命令"),
    # argparse's complaints about how a parser was built: a programming error, never a user's
    "cli_args.not_callable": ("{value} is not callable", "{value} 不可调用"),
    "cli_args.call_not_defined": (".__call__() not defined", "未定义 .__call__()"),
    "cli_args.required_positional": (
        "'required' is an invalid argument for positionals",
        "位置参数不能使用 'required'",
    ),
    "cli_args.exclusive_optional": (
        "mutually exclusive arguments must be optional",
        "互斥的参数必须是可选参数",
    ),
    "cli_args.merge_groups": (
        "cannot merge actions - two groups are named {name}",
        "无法合并参数：有两个参数组都叫 {name}",
    ),
    "cli_args.option_prefix": (
        "invalid option string {option}: must start with a character {prefix_chars}",
        "无效的选项 {option}：必须以字符 {prefix_chars} 开头",
    ),
    "cli_args.dest_required": (
        "dest= is required for options like {option}",
        "{option} 这样的选项必须给出 dest=",
    ),
    "cli_args.conflict_resolution": (
        "invalid conflict_resolution value: {value}",
        "无效的 conflict_resolution 取值：{value}",
    ),
    "cli_args.multiple_subparsers": (
        "cannot have multiple subparser arguments",
        "不能有多组子命令参数",
    ),
    "cli_args.conflicting_subparser": ("conflicting subparser: {name}", "子命令冲突：{name}"),
    "cli_args.conflicting_alias": ("conflicting subparser alias: {alias}", "子命令别名冲突：{alias}"),
    "cli_args.conflicting_option": ("conflicting option string(s): {options}", "选项冲突：{options}"),
}

# argparse's template -> (catalogue key, names of its positional fields in order)
ARGPARSE: dict[str, tuple[str, tuple[str, ...]]] = {
    "%(prog)s: error: %(message)s\n": ("cli_args.error", ()),
    "argument %(argument_name)s: %(message)s": ("cli_args.argument", ()),
    "unrecognized arguments: %s": ("cli_args.unrecognized", ("args",)),
    "ambiguous option: %(option)s could match %(matches)s": ("cli_args.ambiguous", ()),
    "invalid choice: %(value)r (choose from %(choices)s)": ("cli_args.invalid_choice", ()),
    "invalid %(type)s value: %(value)r": ("cli_args.invalid_type", ()),
    "the following arguments are required: %s": ("cli_args.required", ("args",)),
    "one of the arguments %s is required": ("cli_args.one_required", ("args",)),
    "not allowed with argument %s": ("cli_args.not_allowed", ("other",)),
    "expected one argument": ("cli_args.expected_one", ()),
    "expected at most one argument": ("cli_args.expected_at_most_one", ()),
    "expected at least one argument": ("cli_args.expected_at_least_one", ()),
    "expected %s argument": ("cli_args.expected_n", ("count",)),
    "expected %s arguments": ("cli_args.expected_n", ("count",)),
    "ignored explicit argument %r": ("cli_args.ignored_explicit", ("value",)),
    "unexpected option string: %s": ("cli_args.unexpected_option", ("option",)),
    "can't open '%(filename)s': %(error)s": ("cli_args.cannot_open", ()),
    'argument "-" with mode %r': ("cli_args.dash_mode", ("mode",)),
    "unknown parser %(parser_name)r (choices: %(choices)s)": ("cli_args.unknown_parser", ()),
    "usage: ": ("cli_help.main.usage", ()),
    "positional arguments": ("cli_help.main.positionals", ()),
    "options": ("cli_help.main.options", ()),
    "show this help message and exit": ("cli_help.main.help", ()),
    "subcommands": ("cli_args.subcommands", ()),
    "%r is not callable": ("cli_args.not_callable", ("value",)),
    ".__call__() not defined": ("cli_args.call_not_defined", ()),
    "'required' is an invalid argument for positionals": ("cli_args.required_positional", ()),
    "mutually exclusive arguments must be optional": ("cli_args.exclusive_optional", ()),
    "cannot merge actions - two groups are named %r": ("cli_args.merge_groups", ("name",)),
    "invalid option string %(option)r: must start with a character %(prefix_chars)r": (
        "cli_args.option_prefix",
        (),
    ),
    "dest= is required for options like %r": ("cli_args.dest_required", ("option",)),
    "invalid conflict_resolution value: %r": ("cli_args.conflict_resolution", ("value",)),
    "cannot have multiple subparser arguments": ("cli_args.multiple_subparsers", ()),
    "conflicting subparser: %s": ("cli_args.conflicting_subparser", ("name",)),
    "conflicting subparser alias: %s": ("cli_args.conflicting_alias", ("alias",)),
    "conflicting option string: %s": ("cli_args.conflicting_option", ("options",)),
    "conflicting option strings: %s": ("cli_args.conflicting_option", ("options",)),
}

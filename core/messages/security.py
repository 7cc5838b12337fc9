"""Hardening: the Pitstop host as a target, unusable databases and files, bad arguments, Slack at start."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "security.authz.self_host": (
        "you may not run checks on {hosts}{where}: {own} is the Pitstop host itself, which a policy rule "
        "must name explicitly (hosts: [{first}]), never through `*` or a group",
        "你无权{where}在 {hosts} 上运行检查：{own} 是 Pitstop 所在的主机，策略规则必须显式写出它"
        "（hosts: [{first}]），`*` 或分组不会匹配它",
    ),
    "security.db.missing_dir": (
        "the directory {directory} does not exist; create it (mode 0700) or point PITSTOP_DB at a file in an "
        "existing directory",
        "目录 {directory} 不存在；请先创建它（权限 0700），或把 PITSTOP_DB 指向已有目录中的文件",
    ),
    "security.db.not_a_dir": (
        "{directory} is not a directory; point PITSTOP_DB at a file in a directory",
        "{directory} 不是目录；请把 PITSTOP_DB 指向某个目录中的文件",
    ),
    "security.db.is_dir": (
        "{path} is a directory, not a database file; point PITSTOP_DB at a file",
        "{path} 是目录而不是数据库文件；请把 PITSTOP_DB 指向一个文件",
    ),
    "security.db.not_sqlite": (
        "{path} is not a SQLite database; point PITSTOP_DB at another file",
        "{path} 不是 SQLite 数据库；请把 PITSTOP_DB 指向其他文件",
    ),
    "security.db.unreadable": (
        "cannot use the database {path}: {reason}; point PITSTOP_DB at another file",
        "无法使用数据库 {path}：{reason}；请把 PITSTOP_DB 指向其他文件",
    ),
}

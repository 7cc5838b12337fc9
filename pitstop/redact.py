"""Redact secrets from text before it is stored or posted anywhere.

The patterns are shapes, not a blocklist of values: Slack tokens, bearer tokens, cloud keys,
private-key blocks, passwords in URLs and command lines, and environment variables whose name
says they hold a secret. Everything else, error codes, paths and numbers, stays untouched so
that evidence lines keep what matters.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # PEM private keys (any flavour), whole block.
    (re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S),
     MASK),
    # Slack tokens: bot, user, app-level, refresh, config, legacy workspace.
    (re.compile(r"\bx(?:ox[abprse]|app)-[A-Za-z0-9-]{10,}"), MASK),
    # Slack incoming webhooks.
    (re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]+"), MASK),
    # Authorization headers and bearer tokens.
    (re.compile(r"(?i)\b(authorization\s*[:=]\s*(?:bearer|basic|token)?\s*)[A-Za-z0-9._~+/=-]{8,}"), r"\1" + MASK),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), r"\1" + MASK),
    # AWS access key ids and secret keys.
    (re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"), MASK),
    (re.compile(r"(?i)(aws_secret_access_key\s*[=:]\s*)\S+"), r"\1" + MASK),
    # GitHub, GitLab, Hugging Face, OpenAI-style, Google API keys, npm/pypi tokens.
    (re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b"), MASK),
    (re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b"), MASK),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"), MASK),
    (re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b"), MASK),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), MASK),
    (re.compile(r"\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,})\b"), MASK),
    # JSON web tokens.
    (re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"), MASK),
    # user:password@ in URLs.
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+(@)"), r"\1" + MASK + r"\2"),
    # Passwords on command lines: --password X, --password=X, -p'X' for mysql-like tools.
    (re.compile(r"(?i)(--?(?:password|passwd|pass|secret|token|api[-_]?key)(?:=|\s+))(\"[^\"]*\"|'[^']*'|\S+)"),
     r"\1" + MASK),
    # NAME=value where NAME looks like it holds a secret (env vars, config files, docker -e).
    (re.compile(
        r"(?i)\b([A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)"
        r"[A-Z0-9_]*\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s,;]+)"),
     r"\1" + MASK),
)


def redact(text: str) -> str:
    """Return `text` with every secret-shaped substring replaced by `[REDACTED]`."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text

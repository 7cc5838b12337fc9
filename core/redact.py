"""Redact secrets from text before it is stored or posted anywhere.

The patterns are shapes, not a blocklist of values: Slack tokens, bearer tokens, cloud keys,
private-key blocks, passwords in URLs and command lines, and variables whose name says they hold a
secret (in English or Chinese). Everything else, Xid codes, PCI addresses, GPU UUIDs, versions and
kernel-log fields such as `startToken = 0x3`, stays untouched so that evidence lines keep what
matters. tests/security/test_redact.py holds the corpus of both.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MASK = "[REDACTED]"
_KEEP = r"\1" + MASK  # keep the label (group 1), mask what follows
_QUOTED_OR_WORD = r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s,;&\"']+)"
# Names that say "secret" when they end a variable or key name: HF_TOKEN, db_password, clientSecret.
_SECRET_NAME = re.compile(
    r"(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|ACCOUNT_?KEY|"
    r"PRIVATE_?KEY|CREDENTIALS?)\d*$",
    re.I,
)
# Values that are kernel-log numbers or switches rather than secrets (`startToken = 0x3`, `TOKEN: 12`).
_NOT_A_SECRET = re.compile(r"(?:0x[0-9A-Fa-f]{1,16}|\d{1,4}|true|false|none|null)", re.I)
# A name starts where no name character precedes it, so a long run of name characters is tried once.
_ASSIGNMENT = re.compile(r"(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{1,80})([\"']?\s*[=:]\s*)" + _QUOTED_OR_WORD)


def _mask_assignment(m: re.Match[str]) -> str:
    name, sep, value = m.groups()
    if not _SECRET_NAME.search(name) or _NOT_A_SECRET.fullmatch(value):
        return m.group(0)
    return name + sep + MASK


_RULES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # PEM and PGP private keys (any flavour), whole block; a paste cut short is masked to its end.
    (
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?"
            r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            re.S,
        ),
        MASK,
    ),
    # Slack tokens: bot, user, app-level, refresh, config, legacy workspace; incoming webhooks.
    (re.compile(r"\bx(?:ox[abprse]|app)-[A-Za-z0-9-]{10,}"), MASK),
    (re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]+"), MASK),
    # Authorization headers with a scheme, bare long ones, bearer tokens anywhere; cookies.
    (re.compile(r"(?i)\b(authorization\s*[:=]\s*(?:bearer|basic|token)\s+)[^\s'\"]{6,}"), _KEEP),
    (re.compile(r"(?i)\b(authorization\s*[:=]\s*(?:digest|aws4-hmac-sha256)\s+)[^\n]+"), _KEEP),
    (
        re.compile(
            r"(?i)\b(authorization\s*[:=]\s*)(?!(?:bearer|basic|token|digest|aws4-hmac-sha256)\b)"
            r"[A-Za-z0-9._~+/=-]{16,}"
        ),
        _KEEP,
    ),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), _KEEP),
    (re.compile(r"(?i)\b((?:set-)?cookie\s*:\s*)\S.*"), _KEEP),
    # AWS access key ids; signatures and credentials in signed URLs' queries (S3, Azure SAS).
    (re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"), MASK),
    (re.compile(r"(?i)([?&](?:X-Amz-(?:Signature|Credential|Security-Token)|sig)=)[^&\s\"']+"), _KEEP),
    # GitHub, GitLab, Hugging Face, OpenAI/Anthropic-style, Google API keys, npm/PyPI tokens, JWTs.
    (re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b"), MASK),
    (re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b"), MASK),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"), MASK),
    (re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b"), MASK),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), MASK),
    (re.compile(r"\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,})\b"), MASK),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b"), MASK),
    # user:password@ in URLs (the user may be empty: redis://:pw@host).
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,30}://[^\s:/@]{0,256}:)[^\s@/]{1,256}(@)"), _KEEP + r"\2"),
    # Passwords on command lines: --password X, --password=X, mysql -pX, sshpass -p X, curl -u user:X.
    (
        re.compile(r"(?i)(--?(?:password|passwd|pass|secret|token|api[-_]?key)(?:=|\s+))" + _QUOTED_OR_WORD),
        _KEEP,
    ),
    (re.compile(r"(\bmysql(?:dump|admin)?\b[^\n]{0,200}?\s-p)([^\s'\"]+|'[^'\n]*'|\"[^\"\n]*\")"), _KEEP),
    (re.compile(r"(\bsshpass\s+-p\s*)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(\b(?:curl|wget)\b[^\n]{0,400}?\s(?:-u|--user)[\s=]*['\"]?[^\s:'\"]+:)([^\s'\"]+)"), _KEEP),
    # NAME=value, NAME: value, "name": "value" where NAME ends like a secret (env vars, configs, JSON).
    (_ASSIGNMENT, _mask_assignment),
    (re.compile(r"(?i)(\"auth\"\s*:\s*)\"[^\"\n]+\""), _KEEP),
    # Chinese labels: 密码 (password), 口令 (passphrase), 令牌 (token), 密钥 (secret key).
    (re.compile(r"((?:密码|口令|令牌|密钥|私钥)\s*[:：=]\s*)(\S+)"), _KEEP),
)


def redact(text: str) -> str:
    """Return `text` with every secret-shaped substring replaced by `[REDACTED]`."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text

"""Redact secrets from text before it is stored or posted anywhere.

The patterns are shapes, not a blocklist of values: Slack tokens, bearer tokens, cloud keys,
private-key blocks, passwords in URLs and command lines, and variables whose name says they hold a
secret (in English or Chinese). Everything else, Xid codes, PCI addresses, GPU UUIDs, versions and
kernel-log fields such as `startToken = 0x3`, stays untouched so that evidence lines keep what
matters. tests/security/test_redact.py holds the corpus of both.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Callable
from typing import Any

from pitstop.core.strings import map_strings
from pitstop.core.terminal import printable

MASK = "[REDACTED]"
_KEEP = r"\1" + MASK  # keep the label (group 1), mask what follows
_QUOTED_OR_WORD = r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s,;&\"']+)"
# Names that say "secret" when they end a variable or key name: HF_TOKEN, db_password, clientSecret,
# x-api-key, client-key-data; and, in upper-case environment names, *_KEY, *_PWD, *_PASS*, *_SECRET*.
_SECRET_NAME = (
    r"(?:[A-Za-z0-9_.-]{0,80}?(?i:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|"
    r"ACCOUNT[_-]?KEY|SECRET[_-]?KEY|PRIVATE[_-]?KEY(?:[_-]?ID)?|KEY[_-]DATA|CREDENTIALS?)\d*"
    r"|[A-Za-z0-9_.-]{0,80}?(?:_KEY|_PWD)\d*"
    r"|[A-Za-z0-9_.-]{0,80}?_(?:PASS|SECRET)[A-Za-z0-9_.-]{0,40})"
)
# Values that are kernel-log numbers or switches rather than secrets (`startToken = 0x3`, `TOKEN: 12`).
_NOT_A_SECRET = re.compile(r"(?:0x[0-9A-Fa-f]{1,16}|\d{1,4}|true|false|none|null|\[REDACTED\])", re.I)
# A name starts where no name character precedes it; the separator stays on the name's line.
_ASSIGNMENT = re.compile(
    r"(?<![A-Za-z0-9_.-])(" + _SECRET_NAME + r")(?![A-Za-z0-9_.-])([\"']?[ \t]*[=:][ \t]*)" + _QUOTED_OR_WORD
)
# Tokens recognisable by their prefix alone (gitleaks' and detect-secrets' rules, and vendors' docs).
_PREFIXED_TOKENS = (
    r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{40,}"
    r"|gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt|agent)-[A-Za-z0-9_-]{20,}"
    r"|hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,}"
    r"|sk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,}|nvapi-[A-Za-z0-9_-]{20,}"
    r"|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}|dckr_pat_[A-Za-z0-9_-]{20,}|dapi[0-9a-f]{32}"
    r"|dop_v1_[0-9a-f]{64}|glsa_[A-Za-z0-9_]{32,}|gsk_[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,}"
    r"|GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[0-9A-Za-z_-]{20,}|AIza[0-9A-Za-z_-]{35}"
    r"|LTAI[0-9A-Za-z]{12,30}|AKID[0-9A-Za-z]{32,}|hvs\.[A-Za-z0-9_-]{20,}"
    r"|AGE-SECRET-KEY-1[0-9A-Z]{40,}|SG\.[\w-]{16,}\.[\w-]{30,}"
    r"|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}"
)


def _mask_assignment(m: re.Match[str]) -> str:
    name, sep, value = m.groups()
    if _NOT_A_SECRET.fullmatch(value.strip("\"'")):
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
    # PuTTY private keys (.ppk v2 and v3): the whole file to its MAC line, or to the end.
    (re.compile(r"PuTTY-User-Key-File-\d+:.*?(?:Private-(?:MAC|Hash):[^\n]*|\Z)", re.S), MASK),
    # Slack tokens: bot, user, app-level, refresh, config, session, legacy workspace; incoming webhooks.
    (re.compile(r"\bx(?:ox[abprsecd]|app)-[A-Za-z0-9-]{10,}"), MASK),
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
    # Vendor tokens by prefix; JWTs; Telegram bot tokens.
    (re.compile(r"(?<![A-Za-z0-9])(?:" + _PREFIXED_TOKENS + r")"), MASK),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"), MASK),
    (re.compile(r"(?<!\d)(\d{8,10}:)AA[A-Za-z0-9_-]{30,}"), _KEEP),
    # user:password@ in URLs; the password may hold '/' or '@' (the last '@' before the host ends it).
    (
        re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,30}://[^\s:/@]{0,256}:)\S{1,256}?(@[^\s@/]+(?:[/\s]|$))"),
        _KEEP + r"\2",
    ),
    # Passwords on command lines: --password X, --password=X, mysql -pX, sshpass -p X, curl -u user:X,
    # docker/podman login -p X, redis-cli -a X, ipmitool -P X, openssl pass:X, ssh-keygen -N X,
    # smbclient -U user%X, htpasswd -b FILE USER X, wandb login KEY.
    (
        re.compile(r"(?i)(--?(?:password|passwd|pass|secret|token|api[-_]?key)(?:=|\s+))" + _QUOTED_OR_WORD),
        _KEEP,
    ),
    (re.compile(r"(\bmysql(?:dump|admin)?\b[^\n]{0,200}?\s-p)([^\s'\"]+|'[^'\n]*'|\"[^\"\n]*\")"), _KEEP),
    (re.compile(r"(\bsshpass\s+-p\s*)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(\b(?:curl|wget)\b[^\n]{0,400}?\s(?:-u|--user)[\s=]*['\"]?[^\s:'\"]+:)([^\s'\"]+)"), _KEEP),
    (
        re.compile(
            r"(\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm\s+registry)\s+login\b[^\n]{0,300}?\s-p[\s=]*)"
            + _QUOTED_OR_WORD
        ),
        _KEEP,
    ),
    (re.compile(r"(\bredis-cli\b[^\n]{0,300}?\s-a\s+)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(\bipmitool\b[^\n]{0,300}?\s-P\s*)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(-pass(?:in|out)\s+pass:)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(\bssh-keygen\b[^\n]{0,300}?\s-[NP]\s*)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(\b(?:smbclient|rpcclient|smbmap|smbget)\b[^\n]{0,300}?\s-U\s*[^\s%]+%)(\S+)"), _KEEP),
    (re.compile(r"(\bhtpasswd\s+(?:-\w+\s+)*-b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+)" + _QUOTED_OR_WORD), _KEEP),
    (re.compile(r"(\bwandb\s+login\s+(?:--\w+\s+)*)([0-9a-f]{40})\b"), _KEEP),
    # .netrc (one line or one token per line), ODBC's PWD=, and "password VALUE" when VALUE has a digit
    # or a symbol (prose such as "password authentication failed" stays).
    (re.compile(r"(?im)(\bmachine\s+\S+\s+(?:login\s+\S+\s+)?password\s+)(\S+)"), _KEEP),
    (re.compile(r"(?im)(^[ \t]*password[ \t]+)(\S+)[ \t]*$"), _KEEP),
    (re.compile(r"(?i)(;\s*PWD\s*=\s*)([^;\s}]+)"), _KEEP),
    (re.compile(r"(?i)(\bpass(?:word|wd|phrase)[ \t]+)(?=[^\s'\",;]*[\d!@#$%^&*~+=/])[^\s'\",;]{4,}"), _KEEP),
    # NAME=value, NAME: value, "name": "value" where NAME ends like a secret (env vars, configs, JSON).
    (_ASSIGNMENT, _mask_assignment),
    (re.compile(r"(?i)(\"auth\"\s*:\s*)\"[^\"\n]+\""), _KEEP),
    # Chinese labels: 密码 (password), 口令 (passphrase), 令牌 (token), 密钥 (secret key), 私钥 (private key),
    # followed by a colon or `=` (the value ends at Chinese punctuation), or by 是/为 ("is") and a value
    # of at least 6 ASCII characters (prose such as 密码是正确的 stays).
    (re.compile(r"((?:密码|口令|令牌|密钥|私钥)\s*[:：=]\s*)([^\s,;，。；、）]+)"), _KEEP),
    (re.compile(r"((?:密码|口令|令牌|密钥|私钥)\s*[是为]\s*)([!-~]{6,})"), _KEEP),
)

# Disguises a secret may wear: percent- or JSON-escaped characters, full-width forms of token
# characters (letters, digits, + - . / = _; not the full-width commas, colons and brackets of every
# Chinese sentence, which would send all Chinese text through the rules twice), invisible characters
# inside it, or a line break where a terminal wrapped it (a line ending in a 12-character run continued
# by a line that is one run). Where one is present the rules run again on the text as a reader would
# decode it, and what they find is masked in the original.
_RUN = r"[A-Za-z0-9_+/=.-]"
_FULL_WIDTH_RUN = r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff0b\uff0d-\uff0f\uff1d\uff3f]"
_DISGUISE = re.compile(
    r"[\u00ad\u180e\u200b-\u200d\u2060\ufeff]|" + _FULL_WIDTH_RUN + r"|%[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\/"
    rf"|(?<={_RUN}{{12}})\r?\n(?={_RUN}{{4,}}\r?$)",
    re.M,
)


def _apply(text: str) -> str:
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


def _decoded(piece: str) -> str:
    """What one disguise stands for: its character, or nothing (invisible characters, wrapped breaks)."""
    if piece[0] == "%":
        return chr(int(piece[1:], 16))
    if piece.startswith("\\u"):
        return chr(int(piece[2:], 16))
    if piece == "\\/":
        return "/"
    if "\uff01" <= piece <= "\uff5e":
        return chr(ord(piece) - 0xFEE0)
    return ""


def _view(text: str) -> tuple[str, list[tuple[int, int, int, bool]]]:
    """`text` decoded, and its pieces: (start in the view, start and end in `text`, kept as it is)."""
    parts: list[str] = []
    pieces: list[tuple[int, int, int, bool]] = []
    at = pos = 0
    for m in _DISGUISE.finditer(text):
        if m.start() > pos:
            pieces.append((at, pos, m.start(), True))
            parts.append(text[pos : m.start()])
            at += m.start() - pos
        char = _decoded(m.group())
        if char:
            pieces.append((at, m.start(), m.end(), False))
            parts.append(char)
            at += 1
        pos = m.end()
    pieces.append((at, pos, len(text), True))
    parts.append(text[pos:])
    return "".join(parts), pieces


def _masked(m: re.Match[str], replacement: str | Callable[[re.Match[str]], str]) -> tuple[int, int] | None:
    """The part of a rule's match that the rule masks."""
    if replacement == MASK:
        return m.span()
    if callable(replacement):  # an assignment: the value, unless it is not a secret
        return None if replacement(m) == m.group(0) else (m.start(3), m.end())
    return m.end(1), m.start(2) if replacement.endswith(r"\2") else m.end()


def _unmasked_disguises(text: str) -> str:
    """`text` with the secrets that only its decoded form shows replaced by MASK."""
    view, pieces = _view(text)
    starts = [p[0] for p in pieces]

    def original(index: int, end: bool) -> int:
        at, start, stop, kept = pieces[bisect.bisect_right(starts, index) - 1]
        if kept:
            return start + index - at + (1 if end else 0)
        return stop if end else start

    spans = sorted(
        (original(a, False), original(b - 1, True))
        for pattern, replacement in _RULES
        for m in pattern.finditer(view)
        if (span := _masked(m, replacement)) and (a := span[0]) < (b := span[1])
    )
    out, pos = [], 0
    for start, stop in spans:
        if stop <= pos:
            continue
        out.append(text[pos : max(pos, start)] + MASK)
        pos = stop
    return "".join(out) + text[pos:]


# A fleet sweep redacts the same short texts (a command's message, a reason) on every host, and the
# rules cost about 0.1 ms per text. Short texts found to hold nothing to mask are remembered (at most
# 4,096 of 1 KiB, then forgotten at once); a text that had a secret is never kept.
_CLEAN: dict[str, None] = {}
CLEAN_MAX, SHORT = 4096, 1024


def redact(text: str) -> str:
    """Return `text` with every secret-shaped substring replaced by `[REDACTED]`."""
    if not text or text in _CLEAN:
        return text
    out = _apply(_unmasked_disguises(text) if _DISGUISE.search(text) else text)
    if out == text and len(text) <= SHORT:
        if len(_CLEAN) >= CLEAN_MAX:
            _CLEAN.clear()
        _CLEAN[text] = None
    return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` with lone UTF-16 surrogates (from JSON escapes or undecodable bytes) replaced by U+FFFD;
    a proper pair becomes its character. Anything else is returned as it is."""
    if text.isascii() or not _SURROGATE.search(text):  # isascii: one C pass, no regex over a long paste
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def redact_data(value: Any) -> Any:
    """`value` (JSON-like: mappings, lists, strings) with every string redacted."""
    return map_strings(value, redact)


def install_log_redaction() -> None:
    """Redact every log record (message, arguments and traceback text) and show its control characters
    as escapes (core.terminal.printable) before any handler sees it.

    Installed once per process by the CLI and the bot; a library's log line that quotes a paste, a URL
    with a password or a token is masked like everything else Pitstop stores or posts.
    """
    factory = logging.getLogRecordFactory()
    if getattr(factory, "redacting", False):
        return

    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = factory(*args, **kwargs)
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed format string: keep the raw message, masked
            message = str(record.msg)
        record.msg, record.args = printable(redact(message)), None
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = printable(redact(logging.Formatter().formatException(record.exc_info)))
        return record

    make.redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(make)

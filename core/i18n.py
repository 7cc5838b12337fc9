"""The message catalogue: every sentence a person reads, in English and Chinese, rendered by key.

`t("verdict.confirmed", "zh")` renders one message; parameters fill `{name}` fields
(`str.format` syntax) and must match the message's fields exactly. A parameter may itself be a
`Msg`, rendered in the same language, so a reason can be built from parts ("consistent with
this cause: {reason}"); a list of `Msg` joins with "; "; a mapping `{"en": ..., "zh": ...}` is
text that already comes in both languages (a KB entry's own note) and gives the reader's.
Messages live in `pitstop.core.messages.<area>` modules as `MESSAGES = {key: (english, chinese)}`;
every key starts with its area (`cli.`, `bot.`, `check.`...).

The reader's language follows the paste (`detect_lang`), unless the person chose one
(`--lang`, the App Home setting): `resolve_lang(text, override)`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")
AUTO = "auto"  # a stored or given override meaning "follow the paste"

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


class CatalogueError(Exception):
    """A programming error: an unknown key or parameters that do not match the message."""


def detect_lang(text: str) -> Lang:
    """'zh' when Chinese characters outweigh Latin words, else 'en'."""
    cjk = len(CJK.findall(text))
    return "zh" if cjk >= 2 and cjk >= len(_LATIN_WORD.findall(text)) else "en"


def normalize_lang(value: str | None) -> Lang | None:
    """'en' / 'zh' (also 'zh-CN', 'zh_TW', 'english', 'chinese', '中文'); None for auto or unknown."""
    if not value:
        return None
    low = value.strip().lower().replace("_", "-")
    if low in ("zh", "cn", "chinese", "中文") or low.startswith("zh-"):
        return "zh"
    if low in ("en", "english") or low.startswith("en-"):
        return "en"
    return None


def resolve_lang(text: str | None, override: str | None = None) -> Lang:
    """The reader's language: a chosen one (`--lang`, App Home) wins, else the paste's, else English."""
    chosen = normalize_lang(override)
    if chosen is not None:
        return chosen
    return detect_lang(text) if text else "en"


@cache
def fields_of(template: str) -> frozenset[str]:
    """The `{name}` fields of a template (format specs and conversions ignored)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@cache
def catalogue() -> Mapping[str, tuple[str, str]]:
    """Every message of every area module, loaded once on first use."""
    from pitstop.core import messages

    merged: dict[str, tuple[str, str]] = {}
    for info in sorted(pkgutil.iter_modules(messages.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{messages.__name__}.{info.name}")
        for key, pair in module.MESSAGES.items():
            if key in merged:
                raise CatalogueError(f"message {key!r} defined twice")
            merged[key] = pair
    return merged


def t(key: str, lang: str, /, **params: Any) -> str:
    """Render message `key` in `lang` ('en' or 'zh'; anything else renders English)."""
    return render_pair(key, _pair(key), lang, **params)


def _pair(key: str) -> tuple[str, str]:
    try:
        return catalogue()[key]
    except KeyError:
        raise CatalogueError(f"no message {key!r} in the catalogue") from None


def render_pair(key: str, pair: tuple[str, str], lang: str, /, **params: Any) -> str:
    """`t` for a message already looked up (`pitstop --help` reads only its own area module: loading the
    whole catalogue costs about 50 ms of a start)."""
    en, zh = pair
    template = zh if lang == "zh" else en
    _check_fields(key, template, params)
    values = {name: _value(v, lang) for name, v in params.items()}
    return template.format(**values)


def _check_fields(key: str, template: str, params: Mapping[str, Any]) -> None:
    wanted = fields_of(template)
    if wanted != params.keys():
        raise CatalogueError(f"message {key!r} takes {sorted(wanted)}, got {sorted(params)}")


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, Mapping):  # text that comes in both languages (an entry's own note)
        return value.get(lang) or value.get("en", "")
    if isinstance(value, list | tuple) and value and all(isinstance(v, Msg) for v in value):
        return ("；" if lang == "zh" else "; ").join(v.render(lang) for v in value)
    return value


@dataclass(frozen=True)
class Msg:
    """A message not yet rendered: a key and its parameters (records carry these, readers render them)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str) -> str:
        """The message in `lang`."""
        return t(self.key, lang, **self.params)

    def __str__(self) -> str:
        return self.render("en")

    def map_text(self, fn: Callable[[str], str]) -> Msg:
        """The same message with `fn` applied to every text parameter, nested ones included (redaction)."""
        return Msg(self.key, {name: _map_param(value, fn) for name, value in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        """`{"key", "params"}`; a parameter that is a `Msg` nests the same way, a list stays a list."""
        return {"key": self.key, "params": {name: _param_json(v) for name, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        """The inverse of `to_json`; CatalogueError when the key or its parameters no longer match."""
        params = data.get("params") or {}
        if not isinstance(params, Mapping):
            raise CatalogueError(f"message parameters must be a mapping, not {type(params).__name__}")
        return msg(str(data.get("key", "")), **{name: _param_from_json(v) for name, v in params.items()})

    def __hash__(self) -> int:
        return hash((self.key, repr(sorted(self.params.items()))))


def _map_param(value: Any, fn: Callable[[str], str]) -> Any:
    if isinstance(value, Msg):
        return value.map_text(fn)
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, Mapping):
        return {lang: fn(str(text)) for lang, text in value.items()}
    if isinstance(value, list | tuple):
        return tuple(_map_param(v, fn) for v in value)
    return value


def _param_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_param_json(v) for v in value]
    return value


def _param_from_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Msg.from_json(value) if "key" in value else {str(k): str(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_param_from_json(v) for v in value)
    return value


def msg(key: str, /, **params: Any) -> Msg:
    """A `Msg`, its key and parameter names checked now so that a mistake fails where it is built
    (not rendered: a sweep builds hundreds per host; both languages take the same fields, test_i18n)."""
    _check_fields(key, _pair(key)[0], params)
    return Msg(key, params)


def stored(data: Any, text: str) -> Msg | str:
    """A message kept as `Msg.to_json` data, when it still matches the catalogue; else the stored
    `text` (a row written before messages were kept, or a message this version no longer has)."""
    if isinstance(data, Mapping):
        try:
            return Msg.from_json(data)
        except CatalogueError:
            pass
    return text


def render(text: str | Msg, lang: str) -> str:
    """A plain string as it is (quoted evidence, commands, error text), a `Msg` in `lang`."""
    return text.render(lang) if isinstance(text, Msg) else text

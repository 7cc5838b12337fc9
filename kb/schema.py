"""The pitfall entry: its fields, loading from `kb/pitfalls/*.yaml`, and validation.

One YAML file per root cause; the file name is `<id>.yaml`. See docs/KB.md for the
field reference and how to add an entry by copying one file.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitstop.core import yamlio
from pitstop.kb import signatures

PITFALLS_DIR = Path(__file__).parent / "pitfalls"

LAYERS = (
    "gpu",
    "memory",
    "driver",
    "nvlink-nvswitch",
    "pcie",
    "network",
    "infiniband",
    "storage",
    "cpu-numa",
    "power-thermal",
    "container",
    "framework",
    "kernel",
)
SEVERITIES = ("critical", "high", "medium", "low", "info")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{2,80}$")
MERGE_ID = re.compile(r"merge-[0-9]+")  # the name of incident N's merge proposal (incidents/learning.py)
REQUIRED_TEXT = ("id", "title", "title_zh", "layer", "severity", "summary", "summary_zh", "cause")
REQUIRED_LISTS = ("symptoms", "signatures", "fix", "references")
# Chinese counterparts: cause and the lists may be absent on drafts; `pitstop kb check` requires them
# on curated entries (`missing_translations`).
ZH_TEXT = ("cause_zh",)
ZH_LISTS = ("symptoms_zh", "fix_zh")
KNOWN_FIELDS = frozenset(
    REQUIRED_TEXT
    + REQUIRED_LISTS
    + ZH_TEXT
    + ZH_LISTS
    + ("benign", "checks", "checks_note", "status", "provenance")
)
LANG_KEYS = frozenset({"en", "zh"})
# Check parameters the checks compile as Python regexes (collectors/checks; tests/security/
# test_learning_inputs.py keeps this list equal to the parameters the check specs document as regexes)
REGEX_PARAMS = ("pattern", "unless_pattern", "health_pattern", "nic", "iface")
# A space between two Chinese characters or Chinese punctuation marks: where YAML folded a line break in
# Chinese text (`>-` joins lines with a space, which Chinese does not put between words)
_ZH = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
_FOLDED_ZH = re.compile(f"(?<=[{_ZH}]) +(?=[{_ZH}])")


def unfold_zh(text: str) -> str:
    """Chinese text without the spaces YAML's folding put between two Chinese characters."""
    return _FOLDED_ZH.sub("", text)


def _unfold(lang: str, text: str) -> str:
    """One language's text of a {en, zh} field, unfolded when Chinese."""
    return unfold_zh(text) if lang == "zh" else text


@dataclass(frozen=True)
class CheckRef:
    """A read-only check named by an entry, with its parameters (see collectors/checks)."""

    check: str
    params: dict[str, Any] = field(default_factory=dict)
    describe: dict[str, str] = field(default_factory=dict)  # {"en", "zh"}: this entry's own words, optional


@dataclass(frozen=True)
class Pitfall:
    """One known root cause."""

    id: str
    title: str
    title_zh: str
    layer: str
    severity: str
    summary: str
    summary_zh: str
    cause: str
    symptoms: tuple[str, ...]
    signatures: tuple[str, ...]
    fix: tuple[str, ...]
    references: tuple[str, ...]
    checks: tuple[CheckRef, ...] = ()
    benign: bool = False
    status: str = "curated"  # curated | draft
    provenance: str = ""
    symptoms_zh: tuple[str, ...] = ()  # how Chinese-speaking engineers report it, not only translations
    cause_zh: str = ""
    fix_zh: tuple[str, ...] = ()  # the same steps as `fix`, in Chinese
    checks_note: Mapping[str, str] = field(default_factory=dict)  # lang -> why no read-only check exists

    def text(self, name: str, lang: str) -> str:
        """`title`, `summary` or `cause` in `lang` (English when the Chinese is missing)."""
        english = getattr(self, name)
        return (getattr(self, f"{name}_zh") or english) if lang == "zh" else english

    def steps(self, lang: str) -> tuple[str, ...]:
        """The fix steps in `lang` (English when the Chinese is missing)."""
        return (self.fix_zh or self.fix) if lang == "zh" else self.fix

    def symptoms_in(self, lang: str) -> tuple[str, ...]:
        """The symptoms people report in `lang` (English when the Chinese is missing)."""
        return (self.symptoms_zh or self.symptoms) if lang == "zh" else self.symptoms

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pitfall:
        """Build an entry from parsed YAML (call `validate_entry` first for clear errors)."""
        return cls(
            id=str(data["id"]),
            title=str(data["title"]),
            title_zh=unfold_zh(str(data.get("title_zh") or "")),
            layer=str(data["layer"]),
            severity=str(data["severity"]),
            summary=str(data["summary"]).strip(),
            summary_zh=unfold_zh(str(data.get("summary_zh") or "").strip()),
            cause=str(data["cause"]).strip(),
            symptoms=tuple(str(s) for s in data.get("symptoms") or ()),
            signatures=tuple(str(s) for s in data.get("signatures") or ()),
            fix=tuple(str(s) for s in data.get("fix") or ()),
            references=tuple(str(s) for s in data.get("references") or ()),
            checks=tuple(
                CheckRef(
                    check=str(c["check"]),
                    params=dict(c.get("params") or {}),
                    describe={str(k): _unfold(str(k), str(v)) for k, v in (c.get("describe") or {}).items()},
                )
                for c in data.get("checks") or ()
            ),
            benign=bool(data.get("benign", False)),
            status=str(data.get("status") or "curated"),
            provenance=str(data.get("provenance") or ""),
            symptoms_zh=tuple(str(s) for s in data.get("symptoms_zh") or ()),
            cause_zh=unfold_zh(str(data.get("cause_zh") or "").strip()),
            fix_zh=tuple(unfold_zh(str(s)) for s in data.get("fix_zh") or ()),
            checks_note={
                str(k): _unfold(str(k), str(v).strip()) for k, v in (data.get("checks_note") or {}).items()
            },
        )

    def to_dict(self) -> dict[str, Any]:
        """The entry as plain data, in the YAML field order."""
        return {
            "id": self.id,
            "title": self.title,
            "title_zh": self.title_zh,
            "layer": self.layer,
            "severity": self.severity,
            "benign": self.benign,
            "summary": self.summary,
            "summary_zh": self.summary_zh,
            "symptoms": list(self.symptoms),
            **({"symptoms_zh": list(self.symptoms_zh)} if self.symptoms_zh else {}),
            "signatures": list(self.signatures),
            "cause": self.cause,
            **({"cause_zh": self.cause_zh} if self.cause_zh else {}),
            "checks": [
                {
                    "check": c.check,
                    "params": dict(c.params),
                    **({"describe": dict(c.describe)} if c.describe else {}),
                }
                for c in self.checks
            ],
            "fix": list(self.fix),
            **({"fix_zh": list(self.fix_zh)} if self.fix_zh else {}),
            **({"checks_note": dict(self.checks_note)} if self.checks_note else {}),
            "references": list(self.references),
            **({"status": self.status} if self.status != "curated" else {}),
            **({"provenance": self.provenance} if self.provenance else {}),
        }


def validate_entry(data: Any, source: str = "<entry>") -> list[str]:
    """Return human-readable problems with one parsed entry (empty when valid)."""
    if not isinstance(data, dict):
        return [f"{source}: not a mapping"]
    problems: list[str] = []
    for key in REQUIRED_TEXT:
        if not isinstance(data.get(key), str) or not data[key].strip():
            problems.append(f"{source}: '{key}' must be a non-empty string")
    for key in REQUIRED_LISTS:
        value = data.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            problems.append(f"{source}: '{key}' must be a non-empty list of strings")
    for key in ZH_TEXT:
        if key in data and (not isinstance(data[key], str) or not data[key].strip()):
            problems.append(f"{source}: '{key}' must be a non-empty string")
    for key in ZH_LISTS:
        value = data.get(key)
        if key in data and (
            not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value)
        ):
            problems.append(f"{source}: '{key}' must be a non-empty list of strings")
    if isinstance(data.get("fix_zh"), list) and isinstance(data.get("fix"), list):
        if len(data["fix_zh"]) != len(data["fix"]):
            problems.append(f"{source}: 'fix_zh' must have the same steps as 'fix' ({len(data['fix'])})")
    for key in sorted(set(data) - KNOWN_FIELDS):
        problems.append(f"{source}: unknown field '{key}'")
    if isinstance(data.get("id"), str) and not ID_PATTERN.fullmatch(data["id"]):
        problems.append(f"{source}: id '{data['id']}' must be lowercase letters, digits and dashes")
    elif isinstance(data.get("id"), str) and MERGE_ID.fullmatch(data["id"]):
        problems.append(f"{source}: id '{data['id']}' is the name of a merge proposal (merge-<incident>)")
    if data.get("layer") not in LAYERS:
        problems.append(f"{source}: layer '{data.get('layer')}' is not one of {', '.join(LAYERS)}")
    if data.get("severity") not in SEVERITIES:
        problems.append(f"{source}: severity '{data.get('severity')}' is not one of {', '.join(SEVERITIES)}")
    if "benign" in data and not isinstance(data["benign"], bool):
        problems.append(f"{source}: 'benign' must be true or false")
    for pattern in data.get("signatures") or ():
        refused = signatures.problem(str(pattern))
        if refused:
            problems.append(f"{source}: signature {pattern!r} {refused}")
    checks = data.get("checks") or []
    note = data.get("checks_note")
    if note is not None and not _is_bilingual(note):
        problems.append(f"{source}: 'checks_note' must be {{en: ..., zh: ...}}")
    if not isinstance(checks, list):
        problems.append(f"{source}: 'checks' must be a list")
    else:
        for item in checks:
            if not isinstance(item, dict) or not isinstance(item.get("check"), str):
                problems.append(f"{source}: each check needs a 'check' name: {item!r}")
            elif not isinstance(item.get("params") or {}, dict):
                problems.append(f"{source}: params of check '{item['check']}' must be a mapping")
            elif "describe" in item and not _is_bilingual(item["describe"]):
                problems.append(
                    f"{source}: 'describe' of check '{item['check']}' must be {{en: ..., zh: ...}}"
                )
            else:
                for key in REGEX_PARAMS:
                    value = (item.get("params") or {}).get(key)
                    refused = None if value is None else signatures.check_param_problem(str(value))
                    if refused:
                        problems.append(f"{source}: check '{item['check']}' {key} {str(value)!r} {refused}")
    return problems


def _is_bilingual(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == LANG_KEYS
        and all(isinstance(v, str) and v.strip() for v in value.values())
    )


# Check parameters whose value words a finding in the verdict's reason: both languages, like `describe`.
WORDED_PARAMS = ("label", "health_label", "found", "consistent_with")


def missing_translations(
    data: dict[str, Any], source: str = "<entry>", described: Container[str] = frozenset()
) -> list[str]:
    """What a curated entry lacks in one of the two languages (`pitstop kb check` fails on any).

    `described`: the checks whose own description has both languages; a check reference needs its
    own `describe` only when its check has none.
    """
    problems = [f"{source}: no '{key}' (Chinese)" for key in (*ZH_TEXT, *ZH_LISTS) if not data.get(key)]
    for item in data.get("checks") or ():
        if isinstance(item, dict) and "describe" not in item and item.get("check") not in described:
            problems.append(
                f"{source}: check '{item.get('check')}' has no description in English and Chinese"
            )
        params = item.get("params") if isinstance(item, dict) else None
        for key in WORDED_PARAMS:
            value = params.get(key) if isinstance(params, dict) else None
            if value is not None and not (isinstance(value, dict) and value.get("en") and value.get("zh")):
                problems.append(
                    f"{source}: check '{item.get('check')}' parameter '{key}' needs {{en: ..., zh: ...}}"
                )
    return problems


def read_entry_file(path: Path) -> Any:
    """Parse one entry file (YAML)."""
    with path.open(encoding="utf-8") as handle:
        return yamlio.safe_load(handle)


def load_pitfalls(directory: Path = PITFALLS_DIR) -> list[Pitfall]:
    """Load every entry file in `directory`, sorted by id; raises ValueError listing all problems."""
    entries: list[Pitfall] = []
    problems: list[str] = []
    for path in sorted(directory.glob("*.yaml")):
        data = read_entry_file(path)
        found = validate_entry(data, path.name)
        if not found and data["id"] != path.stem:
            found.append(f"{path.name}: id '{data['id']}' must equal the file name")
        problems.extend(found)
        if not found:
            entries.append(Pitfall.from_dict(data))
    if problems:
        raise ValueError("invalid KB entries:\n" + "\n".join(problems))
    return entries


def check_collection(
    entries: Iterable[Pitfall], required_ids: Iterable[str] = (), known_checks: Iterable[str] | None = None
) -> list[str]:
    """Cross-entry problems: duplicate ids, uncovered required ids, unknown check names, and (with the
    check names) a curated entry without checks that does not say why none can exist."""
    problems: list[str] = []
    seen: set[str] = set()
    entries = list(entries)
    for entry in entries:
        if entry.id in seen:
            problems.append(f"duplicate id '{entry.id}'")
        seen.add(entry.id)
    for missing in sorted(set(required_ids) - seen):
        problems.append(f"no entry covers taxonomy slug '{missing}'")
    if known_checks is not None:
        known = set(known_checks)
        for entry in entries:
            if not entry.checks and not entry.checks_note and entry.status == "curated":
                problems.append(
                    f"{entry.id}: no 'checks': add one, or say in 'checks_note' ({{en, zh}}) why no "
                    "read-only evidence can exist for this cause"
                )
            for ref in entry.checks:
                if ref.check not in known:
                    problems.append(f"{entry.id}: unknown check '{ref.check}'")
    return problems

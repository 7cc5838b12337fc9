"""`dcgmi diag -r N` tables (as pasted; not run by Pitstop, it is an active test) -> results per test."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pitstop.collectors.parsers._text import clean_lines

_RESULT = re.compile(r"^(Pass|Fail|Warn(?:ing)?|Skip|Error|Info)\b", re.I)


@dataclass(frozen=True)
class DiagResult:
    """One row: test name, result word, and the text of wrapped continuation rows joined."""

    test: str
    result: str
    detail: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class DcgmDiag:
    """All rows in order."""

    results: tuple[DiagResult, ...] = ()

    def failed(self) -> tuple[DiagResult, ...]:
        """Rows whose result is Fail, Error or Warning."""
        return tuple(r for r in self.results if r.result.lower().startswith(("fail", "error", "warn")))


def parse(text: str) -> DcgmDiag:
    """Read `| name | result ... |` rows; a row with an empty name continues the previous one."""
    rows: list[dict[str, Any]] = []  # one row per record, filled field by field
    for raw in clean_lines(text):
        cells = [c.strip() for c in raw.strip().strip("|").split("|")]
        if len(cells) < 2 or set(raw.strip()) <= set("+-=| ") or cells[0].startswith("-"):
            continue
        name, value = cells[0], " ".join(cells[1:]).strip()
        if name and (m := _RESULT.match(value)) is not None:
            rows.append(
                {"test": name, "result": m.group(1).capitalize(), "detail": value, "lines": [raw.strip()]}
            )
        elif name in ("Error", "Warning", "Info") and value:
            rows.append({"test": name, "result": name, "detail": value, "lines": [raw.strip()]})
        elif not name and rows and value:
            if (m := _RESULT.match(value)) is not None and m.group(1).lower().startswith(("fail", "error")):
                rows[-1]["result"] = m.group(1).capitalize()  # "Pass - GPUs: 1-7" then "Fail - GPU: 0"
            rows[-1]["detail"] = f"{rows[-1]['detail']} {value}"
            rows[-1]["lines"].append(raw.strip())
    return DcgmDiag(results=tuple(DiagResult(**{**r, "lines": tuple(r["lines"])}) for r in rows))

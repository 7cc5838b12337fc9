"""`nvidia-smi --query-gpu=... --format=csv` -> one dict per GPU; [N/A] and [Not Supported] become None."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from pitstop.collectors.parsers._text import clean_lines, is_unknown


@dataclass(frozen=True)
class QueryGpu:
    """Rows keyed by the header's field names (units in brackets removed)."""

    rows: tuple[dict[str, str | None], ...] = ()


def parse(text: str) -> QueryGpu:
    """Parse CSV with a header line; short rows are padded with None."""
    lines = [line for line in clean_lines(text) if line.strip()]
    if not lines:
        return QueryGpu()
    reader = csv.reader(io.StringIO("\n".join(lines)), skipinitialspace=True)
    try:
        header = [h.split(" [")[0].strip() for h in next(reader)]
    except (StopIteration, csv.Error):
        return QueryGpu()
    rows = []
    for cells in reader:
        row = {
            name: (
                None
                if is_unknown(value) or value.strip("[]").lower() in ("n/a", "not supported")
                else value.strip()
            )
            for name, value in zip(header, cells, strict=False)
        }
        rows.append(row)
    return QueryGpu(rows=tuple(rows))

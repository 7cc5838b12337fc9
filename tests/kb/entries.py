"""A minimal KB entry for retrieval tests: only its id, signatures, symptoms, layer and status matter."""

from __future__ import annotations

from pitstop.kb.schema import Pitfall


def make_entry(
    pitfall_id: str,
    signatures: tuple[str, ...],
    symptoms: tuple[str, ...] = (),
    *,
    layer: str = "driver",
    status: str = "curated",
) -> Pitfall:
    """An entry with placeholder prose, `signatures` and `symptoms` (its example texts)."""
    return Pitfall(
        id=pitfall_id,
        title=pitfall_id,
        title_zh="",
        layer=layer,
        severity="high",
        summary="s",
        summary_zh="",
        cause="c",
        symptoms=symptoms,
        signatures=signatures,
        fix=(),
        references=(),
        status=status,
    )

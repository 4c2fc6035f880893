"""Rows and spans the store's modules share: a section row, the part of a section that is its own
text, and the parts of stored text blocks that fall in a range."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple


class SectionRow(NamedTuple):
    id: int
    parent_id: int | None
    ord: int
    title: str
    level: int
    start: int
    end: int
    name: str  # unique within the document: the title, or `title (2)`… for a repeated one


def own_spans(rows: Sequence[SectionRow]) -> list[tuple[int, int]]:
    """Each section's own text, [start, first subsection's start or end): the spans ascend, do not
    overlap, and hold every character of the sections once. `rows` are in document order."""
    return [
        (row.start, after.start if after is not None and after.parent_id == row.id else row.end)
        for row, after in zip(rows, [*rows[1:], None], strict=True)
    ]


def rows_text(rows: Iterable[tuple[int, str]], start: int, end: int) -> Iterator[str]:
    """The parts of consecutive (offset, text) blocks that fall inside [start, end)."""
    for offset, body in rows:
        lo, hi = max(start - offset, 0), min(end - offset, len(body))
        if lo < hi:
            yield body[lo:hi]

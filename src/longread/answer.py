"""What every strategy returns: the answer, the spans it rests on, and what it cost."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Citation:
    """A half-open character span `[start, end)` of a document (or of one slice of a context)."""

    doc_id: str
    start: int
    end: int
    text: str
    span_id: str | None = None
    page: int | None = None


@dataclass
class Answer:
    text: str
    mode: str
    citations: list[Citation] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    stopped_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

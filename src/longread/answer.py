"""What every strategy returns: the answer, the spans it rests on, and what it cost."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from longread.text.slices import ContextSlice


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
class Claim:
    """One statement of an answer: its text, where it stands in the answer ([start, end)), the
    numbers of the citations it rests on (1-based, as its `[n]` marks), and whether they hold it."""

    text: str
    start: int
    end: int
    citations: list[int] = field(default_factory=list)
    supported: bool = False
    reason: str = ""


CITATION_MARK = re.compile(r"\[(\d+)\]")  # an answer's "[2]": its second citation


@dataclass
class Answer:
    text: str
    mode: str
    citations: list[Citation] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    stopped_by: str | None = None
    claims: list[Claim] = field(default_factory=list)
    # what code computed over the whole source (a count) that the answer's claims may rest on,
    # as well as on its citations; not part of its JSON
    computed: str = field(default="", repr=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["computed"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Answer:
        """The answer `to_dict` gave (as read back from JSON)."""
        return cls(
            **{
                **data,
                "citations": [Citation(**c) for c in data.get("citations", [])],
                "claims": [Claim(**c) for c in data.get("claims", [])],
            }
        )


def slice_citation(piece: ContextSlice, start: int, end: int, doc_id: str) -> Citation:
    """A citation of [start, end) within a slice's text: in document offsets for a slice of a text
    context, else relative to the slice (whose id then joins the document id)."""
    text = piece.text()[start:end]
    if "start" in piece.metadata:
        offset = piece.metadata["start"]
        return Citation(doc_id, offset + start, offset + end, text, piece.slice_id)
    return Citation(f"{doc_id}/{piece.slice_id}", start, end, text, piece.slice_id)

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


@dataclass
class Counts:
    """What a counted answer rests on, to show as a table and, for a grouping, a bar chart:
    `rows`, some of the rows counted (each cited: document, span, text) with each one's `labels`
    value (of the `label` column); `groups`, each group of `group` with its `figure`."""

    label: str = ""
    rows: list[Citation] = field(default_factory=list)
    labels: list[Any] = field(default_factory=list)
    group: str = ""
    figure: str = ""
    groups: list[tuple[str, float]] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Counts:
        rows = [Citation(**c) for c in data.get("rows", [])]
        groups = [(str(g), n) for g, n in data.get("groups", [])]
        return cls(**{**data, "rows": rows, "groups": groups})


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
    counts: Counts | None = None  # what a count, ranking or list was computed over
    # what code computed over the whole source (a count) that the answer's claims may rest on,
    # as well as on its citations; not part of its JSON
    computed: str = field(default="", repr=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["computed"]
        return data

    def _repr_html_(self) -> str:
        """The answer as Jupyter shows it: its text, claims, counts, citations and usage."""
        from longread.report import fragment

        return fragment(self, anchor=f"longread-{id(self):x}-")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Answer:
        """The answer `to_dict` gave (as read back from JSON)."""
        return cls(
            **{
                **data,
                "citations": [Citation(**c) for c in data.get("citations", [])],
                "claims": [Claim(**c) for c in data.get("claims", [])],
                "counts": Counts.from_dict(data["counts"]) if data.get("counts") else None,
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


def usage_line(usage: dict[str, Any]) -> str:
    """`N calls (S sub, C cached) · I in / O out tokens · $cost · T s` from a usage dict, and
    `· depth 0: N calls, 1: M calls` when child RLMs ran."""
    cost = f"${usage['cost_usd']:.4f}" if usage.get("cost_usd") is not None else "cost unknown"
    line = (
        f"{usage.get('calls', 0)} calls ({usage.get('subcalls', 0)} sub, "
        f"{usage.get('cached_calls', 0)} cached) · {usage.get('input_tokens', 0):,} in / "
        f"{usage.get('output_tokens', 0):,} out tokens · {cost} · {usage.get('seconds', 0):.1f} s"
    )
    depths = usage.get("by_depth") or []
    if len(depths) > 1:
        line += " · depth " + ", ".join(f"{row['depth']}: {row['calls']} calls" for row in depths)
    return line

"""Slice-by-slice hypothesis refinement without a code-writing root model. The sub-model
reads the most relevant slices in document order; each finding is kept only if its words occur in
the slice it read, and then refines the running hypothesis. Prompts are plain text: small local
models answer them in a second, where JSON-constrained decoding takes tens of seconds."""

from __future__ import annotations

from typing import Any

from longread.answer import Answer, Citation, slice_citation
from longread.errors import BudgetExceededError
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.text.grounding import clean_finding, grounded_span, is_grounded, says_nothing
from longread.text.rank import bm25_scores, focus_lines
from longread.text.slices import ContextSlice, ContextSlicer
from longread.tools.bounds import fit_chars
from longread.tools.hypothesis import HypothesisTracker

FIND = (
    "Text:\n"
    '"""\n'
    "{text}\n"
    '"""\n'
    "Question: {question}\n"
    "If the text answers the question, give the answer in one short sentence. "
    "If it does not, reply exactly: NONE"
)

REFINE = """Question: {question}
Answer so far: {current}
New information: {finding}
Write the improved answer in one or two sentences, keeping every correct detail."""


def choose_slices(question: str, pieces: list[ContextSlice], limit: int) -> list[ContextSlice]:
    """All slices if they are few, else the `limit` most relevant by BM25, in document order."""
    if len(pieces) <= limit:
        return pieces
    scores = bm25_scores(question, [p.text() for p in pieces])
    best = sorted(range(len(pieces)), key=lambda i: scores[i], reverse=True)[:limit]
    return [pieces[i] for i in sorted(best)]


class Refiner:
    """State of one refine run: the hypothesis, its citations, and counts of what was read."""

    def __init__(self, question: str, run: Run, doc_id: str, focus: bool = False):
        self.question = question
        self.focus = focus  # show only the slice's most relevant lines (for very small models)
        self.run = run
        self.doc_id = doc_id
        self.tracker = HypothesisTracker()
        self.citations: list[Citation] = []
        self.stats = {"slices_total": 0, "slices_read": 0, "findings": 0, "ungrounded": 0}

    def read(self, piece: ContextSlice) -> None:
        text = piece.text()
        shown = focus_lines(text, self.question) if self.focus else text
        reply = self.run.gateway.complete(
            self.run.sub,
            FIND.format(text=shown, question=self.question),
            purpose=Purpose.REFINE_SLICE,
            label=piece.slice_id,
            max_tokens=96,
        )
        self.stats["slices_read"] += 1
        finding = clean_finding(reply.text)
        if says_nothing(finding):
            return
        span = grounded_span(finding, text, self.question)
        if span is None:
            self.stats["ungrounded"] += 1
            return
        self.stats["findings"] += 1
        self.citations.append(slice_citation(piece, span[0], span[1], self.doc_id))
        self.tracker.update(self._merge(finding))
        self.run.emit(
            EventKind.HYPOTHESIS, slice_id=piece.slice_id, hypothesis=self.tracker.current
        )

    def _merge(self, finding: str) -> str:
        """The refined hypothesis: the sub-model merges old and new, unless that adds unsupported
        words."""
        current = self.tracker.current
        if not current:
            return finding
        merged = self.run.gateway.complete(
            self.run.sub,
            REFINE.format(question=self.question, current=current, finding=finding),
            purpose=Purpose.REFINE_MERGE,
            max_tokens=160,
        ).text
        merged = clean_finding(merged)
        keeps_new = is_grounded(
            finding, merged, current, share=0.5
        )  # the new finding's own words survive
        if (
            merged
            and keeps_new
            and is_grounded(merged, current + " " + finding, self.question, share=0.8)
        ):
            return merged
        return f"{current} {finding}"

    def answer(self, stopped_by: str | None = None) -> Answer:
        read, total = self.stats["slices_read"], self.stats["slices_total"]
        text = self.tracker.current or (
            f"Not found: none of the {read} slices read has a passage that answers the question."
        )
        if read < total:
            text += (
                f"\n\n(Read {read} of {total} slices, chosen by relevance; "
                f"{total - read} were not read.)"
            )
        self.run.emit(EventKind.FINAL, answer=text)
        return Answer(
            text=text,
            mode="refine",
            citations=self.citations,
            usage=self.run.gateway.usage.to_dict(),
            stats={**self.stats, "hypothesis_history": list(self.tracker.history)},
            stopped_by=stopped_by,
        )


def pack(pieces: list[ContextSlice], chunk: int) -> list[ContextSlice]:
    """Adjacent text slices joined while they fit in `chunk` characters (a lone `# Title` slice is
    not worth a model call of its own)."""
    packed: list[ContextSlice] = []
    for piece in pieces:
        last = packed[-1] if packed else None
        if (
            last is not None
            and isinstance(piece.content, str)
            and isinstance(last.content, str)
            and last.metadata.get("end") == piece.metadata.get("start") is not None
            and len(last.content) + len(piece.content) <= chunk
        ):
            packed[-1] = ContextSlice(
                last.slice_id,
                last.content + piece.content,
                {**last.metadata, "end": piece.metadata["end"]},
            )
        else:
            packed.append(piece)
    return packed


def run_refine(question: str, context: Any, run: Run, doc_id: str = "context") -> Answer:
    weak = not run.sub.writes_code  # a small model reads a few relevant lines far more accurately
    focus = weak if run.options.focus is None else run.options.focus
    chunk = run.options.refine_slice_chars or (
        2_000 if focus else min(8_000, fit_chars(run.sub, 400))
    )
    pieces = pack(list(ContextSlicer.from_context(context, chunk_chars=chunk)), chunk)
    chosen = choose_slices(question, pieces, run.options.max_slices or (8 if weak else 24))
    refiner = Refiner(question, run, doc_id, focus=focus)
    refiner.stats["slices_total"] = len(pieces)
    try:
        for number, piece in enumerate(chosen, 1):
            run.emit(EventKind.SLICE, index=number, total=len(chosen), slice_id=piece.slice_id)
            refiner.read(piece)
    except BudgetExceededError as error:
        error.partial = refiner.answer(stopped_by=error.limit)
        raise
    return refiner.answer()

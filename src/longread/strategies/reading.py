"""What the fixed strategies (map, tree, retrieval) share: a source they can read (`Readable`),
its passages cut into chunks and the ones chosen for a question, and the reading itself: the
sub-model reads chosen chunks in parallel and the root model joins what they say into one cited
answer. Every finding must rest on a sentence of its chunk, which becomes its citation; a finding
that does not is dropped and counted."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from longread.answer import Answer, Citation
from longread.events import EventKind
from longread.llm.jsonio import MalformedJSONError, complete_json
from longread.llm.usage import Purpose
from longread.strategies.common import Run, partial_on_budget
from longread.strategies.joining import joined
from longread.text.grounding import clean_finding, grounded_span, negates, says_nothing
from longread.text.loops import cut_echo
from longread.text.rank import bm25_scores, focus_lines, terms
from longread.text.slices import char_spans
from longread.tools.single_doc import SingleDocTools

if TYPE_CHECKING:
    from longread.strategies.floor import RankedByFloor

FOCUSED = (
    "Question: {question}\n"
    "Text: {text}\n"
    "Answer the question with words from the text, in one short sentence. "
    "If the text does not answer it, reply NONE."
)
SNIPPET = """Snippet {chunk_id} (from "{section}"):
\"\"\"
{text}
\"\"\"
Question: {question}
Use only facts stated in the snippet. Set relevant to false if it does not help answer the question.
summary: what the snippet says that answers it, in one or two sentences.
quote: the sentence of the snippet the summary rests on, copied exactly.
citations: ["{chunk_id}"]."""
SNIPPET_SCHEMA = {
    "type": "object",
    "properties": {
        "relevant": {"type": "boolean"},
        "summary": {"type": "string", "maxLength": 600},
        "quote": {"type": "string", "maxLength": 600},
        "citations": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
    },
    "required": ["relevant", "summary"],
}
SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


class Readable(Protocol):
    """A source the fixed strategies read: an indexed document, documents in memory, chosen
    documents of a corpus. Offsets run over the whole source."""

    def read_range(self, start: int, end: int) -> str: ...

    def section_at(self, offset: int) -> str:
        """What a passage at `offset` is named by (its section, its document)."""
        ...

    def citation(self, start: int, end: int) -> Citation: ...


@dataclass
class Chunk:
    """A span of the document to be read by one sub-call."""

    chunk_id: str
    section: str
    start: int
    end: int
    text: str


@dataclass
class Finding:
    chunk: Chunk
    text: str
    citation: Citation
    span: tuple[int, int] = (0, 0)  # the cited text's [start, end) in the source read


def chunk_plan(run: Run) -> tuple[int, int]:
    """(characters per chunk, chunks to read): few chunks for a weak sub-model, or one whose
    every call costs seconds of CPU."""
    weak = not run.sub.writes_code or run.sub.on_cpu
    chunk_chars = run.options.refine_slice_chars or 1_800
    return chunk_chars, run.options.max_slices or (8 if weak else 24)


def cut_chunks(source: Readable, spans: list[tuple[int, int]], chunk_chars: int) -> list[Chunk]:
    """Paragraph-bounded chunks of at most `chunk_chars` covering each span, in order."""
    chunks: list[Chunk] = []
    for start, end in sorted(set(spans)):
        text = source.read_range(start, end)
        for s, e in char_spans(text, 0, len(text), chunk_chars):
            if text[s:e].strip():
                chunks.append(
                    Chunk(
                        f"chunk-{len(chunks) + 1}",
                        source.section_at(start + s),
                        start + s,
                        start + e,
                        text[s:e],
                    )
                )
    return chunks


def search_chunks(
    question: str, tools: SingleDocTools, chunk_chars: int, sections: int
) -> list[Chunk]:
    """The passages of an indexed document's `sections` sections whose own text matches the
    question best (full-text search)."""
    hits = tools.search_ids(question, sections)
    spans = [tools.own_span(tools.section_name(section_id)) for section_id, _ in hits]
    return cut_chunks(tools, spans, chunk_chars)


def best_chunks(question: str, chunks: list[Chunk], limit: int) -> list[Chunk]:
    """The `limit` chunks sharing most with the question (BM25), in document order; the first
    ones if none shares a word with it."""
    scores = bm25_scores(question, [c.text for c in chunks])
    best = sorted(range(len(chunks)), key=lambda i: scores[i], reverse=True)[:limit]
    matching = sorted(i for i in best if scores[i] > 0)
    return [chunks[i] for i in matching] if matching else chunks[:limit]


class ChunkReader:
    """One sub-call per chunk: a plain one-line answer from a small model shown the chunk's best
    sentences (`focus`, the default for models that cannot write code or run on this CPU), else
    JSON
    `{relevant, summary, quote, citations}` about the whole chunk."""

    def __init__(
        self,
        question: str,
        run: Run,
        source: Readable | None,
        restates: bool = False,
        steps: bool = False,
    ) -> None:
        self.question = question
        self.restates = restates  # a passage's own sentence may stand in for a reply (`stated`)
        self.steps = steps  # and for a NONE: a first hop's passage may state a step of a chain
        self.run = run
        self.source = source  # (a corpus reader reads a view of other documents each round)
        brief = not run.sub.writes_code or run.sub.on_cpu  # (a line each: seconds, not a minute)
        self.focus = brief if run.options.focus is None else run.options.focus
        self.stats = {"chunks_read": 0, "findings": 0, "ungrounded": 0, "malformed": 0}
        self.findings: list[Finding] = []
        self.leading = 0  # the first findings, kept first in their order (a second hop's)
        self.ranking: RankedByFloor | None = None  # the lexical floor, when the caller sets one
        self._lock = threading.Lock()  # chunks are read on several threads at once

    def _count(self, key: str) -> None:
        with self._lock:
            self.stats[key] += 1

    def read_all(self, chunks: list[Chunk]) -> None:
        self.run.gateway.map(self.read, chunks)

    def read(self, chunk: Chunk) -> None:
        """Ask about one chunk; keep the finding if a sentence of the chunk supports it."""
        self.run.emit(EventKind.CHUNK, chunk_id=chunk.chunk_id, section=chunk.section)
        claim, quote = self._ask_focused(chunk) if self.focus else self._ask(chunk)
        self._count("chunks_read")
        nothing = not claim or says_nothing(claim)
        if nothing and not self.steps:
            return
        span = None  # (a step of a chain is no answer: its passage's sentence may be one)
        if not nothing:
            span = _exact(quote, chunk.text) or self.grounded(claim, chunk)
            if span is None:
                self._count("ungrounded")  # (the reply is dropped; the passage may still say it)
        if span is None or not self.on_point(chunk.text[span[0] : span[1]]):
            span = self.stated(chunk)  # (None: a reply resting on what is off the point goes)
            if span is not None:
                claim = " ".join(chunk.text[span[0] : span[1]].split())
        if span is None:
            return
        start, end = chunk.start + span[0], chunk.start + span[1]
        if self.ranking is not None:
            start, end = self.ranking.widened(start, end)
        assert self.source is not None
        citation = self.source.citation(start, end)
        if self.focus and negates(claim) and not negates(citation.text):
            claim = " ".join(citation.text.split())  # (a tiny model's "not" its text lacks)
        self._count("findings")
        self.findings.append(Finding(chunk, claim, citation, (start, end)))

    def grounded(self, claim: str, chunk: Chunk) -> tuple[int, int] | None:
        """The sentence of the chunk a reply rests on, near a word of the question."""
        return grounded_span(claim, chunk.text, self.question)

    def on_point(self, cited: str) -> bool:
        """Whether a sentence a reply rests on is about what this reader looks for (any is)."""
        return True

    def stated(self, chunk: Chunk) -> tuple[int, int] | None:
        """Where the passage itself states what was asked, for a small model's reply that it does
        not bear out (a tiny model often garbles the sentence it was shown: `hidden by a
        mysterious figure`): the passage's sentence holding the most of the question's words, if
        it holds half of them at least, for a reader that `restates` (a corpus's: over many
        documents a dropped finding loses the document; over one, the sentence holding most of
        the question's words led Macbeth's demo astray); None otherwise (the reply is dropped)."""
        asked = set(terms(self.question))
        if not self.restates or not self.focus or not asked:
            return None
        held = [
            (len(asked & set(terms(m.group(0)))), m.span()) for m in SENTENCE.finditer(chunk.text)
        ]
        most, span = max(held, key=lambda h: h[0], default=(0, (0, 0)))  # (the first best)
        return span if most >= len(asked) / 2 else None

    def answer(
        self, mode: str, total_chunks: int, stats: dict[str, Any], stopped_by: str | None = None
    ) -> Answer:
        """The findings, best-matching first (the `leading` ones first, as they are; with a
        lexical floor, ranked by its score, its sentences among them), joined into one answer. A
        root model that cannot weigh them gets only those that match the question at least half
        as well as the best one (a small model's tail of findings is mostly noise)."""
        found = self.findings
        if self.ranking is not None:
            found = self.ranking.findings(found)
            scores = self.ranking.scores(found)
            order = self.ranking.order(found, self.leading)
        else:
            scores = bm25_scores(self.question, [f.chunk.text for f in found])
            rest = sorted(range(self.leading, len(found)), key=lambda i: -scores[i])
            order = list(range(self.leading)) + rest
        if order and not self.run.root.writes_code:
            order = self.kept(found, order, scores)
        ranked = self.arranged([found[i] for i in order])
        read = self.stats["chunks_read"]
        citations: list[Citation] = []
        if ranked:
            assert self.source is not None
            spent = stopped_by is not None  # (joined without a model)
            text, citations = joined(self.question, ranked, self.run, self.source, spent)
        else:
            text = f"Not found: none of the {read} passages read answers the question."
        if read < total_chunks:
            text += f"\n\n(Read {read} of {total_chunks} candidate passages, chosen by relevance.)"
        self.run.emit(EventKind.FINAL, answer=text)
        return Answer(
            text=text,
            mode=mode,
            citations=citations,
            usage=self.run.gateway.usage.to_dict(),
            stats={**stats, **self.stats, "chunks_total": total_chunks},
            stopped_by=stopped_by,
        )

    def arranged(self, ranked: list[Finding]) -> list[Finding]:
        """The findings as the answer shows them (a subclass may move some)."""
        return ranked

    def kept(self, found: list[Finding], order: list[int], scores: list[float]) -> list[int]:
        """The findings (indexes into `found`, best first) shown when the root model cannot
        weigh them."""
        return [i for i in order if scores[i] >= 0.5 * scores[order[0]]]

    def _ask_focused(self, chunk: Chunk) -> tuple[str, str]:
        shown = focus_lines(chunk.text, self.question)
        reply = self.run.gateway.complete(
            self.run.sub,
            FOCUSED.format(text=shown, question=self.question),
            purpose=Purpose.MAP_CHUNK,
            label=chunk.chunk_id,
            max_tokens=96,
        )
        return clean_finding(cut_echo(reply.text, FOCUSED)), ""

    def _ask(self, chunk: Chunk) -> tuple[str, str]:
        prompt = SNIPPET.format(
            chunk_id=chunk.chunk_id, section=chunk.section, text=chunk.text, question=self.question
        )
        try:
            reply: dict[str, Any] = complete_json(
                self.run.gateway,
                self.run.sub,
                prompt,
                SNIPPET_SCHEMA,
                purpose=Purpose.MAP_CHUNK,
                label=chunk.chunk_id,
            )
        except MalformedJSONError:
            self._count("malformed")
            return "", ""
        if not reply["relevant"]:
            return "", ""
        return reply["summary"].strip(), str(reply.get("quote", ""))


def _exact(quote: str, text: str) -> tuple[int, int] | None:
    """Where `quote` occurs in `text` (whitespace-insensitively), if it does."""
    words = quote.split()
    if len(words) < 3:
        return None
    match = re.search(r"\s+".join(map(re.escape, words)), text)
    return match.span() if match else None


def map_answer(
    question: str,
    chunks: list[Chunk],
    run: Run,
    source: Readable,
    mode: str,
    total_chunks: int,
    stats: dict[str, Any] | None = None,
    ranking: RankedByFloor | None = None,
    reading: Callable[[str, Run, Any], ChunkReader] = ChunkReader,
) -> Answer:
    """Read `chunks` in parallel (with a reader `reading` makes) and answer from what they say
    (a budget stop keeps what was found), the findings ranked by the lexical floor if given."""
    reader = reading(question, run, source)
    reader.ranking = ranking
    stats = stats or {}
    with partial_on_budget(
        lambda limit: reader.answer(mode, total_chunks, stats, stopped_by=limit)
    ):
        reader.read_all(chunks)
    return reader.answer(mode, total_chunks, stats)

"""Sources held in memory: documents pasted or parsed by the web app (one offset space over all of
them, cut into paragraph-bounded chunks named `doc-1-chunk-7`, cited in each document's own
offsets), and the context a caller of RLM_REPL passes (a str, dict or list)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from longread.answer import Citation
from longread.strategies.reading import Chunk
from longread.text.grounding import grounded_span
from longread.text.offsets import JoinedOffsets
from longread.text.rank import bm25_scores
from longread.text.slices import ContextSlice, char_spans

SEPARATOR = "\n\n"  # between documents in the joint offset space (no chunk spans it)


@dataclass
class TextDoc:
    """One document's text; `pages` holds (number, start, end) for paged formats (PDF)."""

    doc_id: str
    name: str
    text: str
    pages: list[tuple[int, int, int]] = field(default_factory=list)

    def page_at(self, offset: int) -> int | None:
        at = bisect.bisect_right(self.pages, offset, key=lambda page: page[1]) - 1
        return self.pages[at][0] if at >= 0 and offset < self.pages[at][2] else None


class TextDocs:
    """Several in-memory documents behind the reading interface the strategies use (`read_range`,
    `section_at`, `citation`, `cite`): offsets run over the documents joined by a blank line."""

    def __init__(self, docs: list[TextDoc], chunk_chars: int = 1_800):
        self.docs = docs
        self.chunk_chars = chunk_chars
        self.text = SEPARATOR.join(doc.text for doc in docs)
        self.offsets = JoinedOffsets([len(doc.text) for doc in docs], len(SEPARATOR))

    @property
    def total_chars(self) -> int:
        return len(self.text)

    @cached_property
    def chunks(self) -> list[Chunk]:
        """Every document cut at paragraph breaks into chunks of at most `chunk_chars`, in order;
        ids count from 1 within each document (`doc-1-chunk-1`)."""
        found = []
        for doc, start in zip(self.docs, self.offsets.starts, strict=True):
            spans = [
                (s, e)
                for s, e in char_spans(doc.text, 0, len(doc.text), self.chunk_chars)
                if doc.text[s:e].strip()
            ]
            found += [
                Chunk(f"{doc.doc_id}-chunk-{n}", doc.name, start + s, start + e, doc.text[s:e])
                for n, (s, e) in enumerate(spans, 1)
            ]
        return found

    def chunk_at(self, offset: int) -> Chunk:
        """The chunk holding a joint offset (the one before it, for a separator)."""
        return self.chunks[max(0, bisect.bisect_right(self._chunk_starts, offset) - 1)]

    @cached_property
    def _chunk_starts(self) -> list[int]:
        return [chunk.start for chunk in self.chunks]

    def read_range(self, start: int, end: int) -> str:
        return self.text[start:end]

    def section_at(self, offset: int) -> str:
        """The name of the document holding a joint offset."""
        return self.docs[self.offsets.index_at(offset)].name

    def citation(self, start: int, end: int) -> Citation:
        """A citation of joint characters [start, end), in its document's offsets, named by its
        chunk."""
        at, local = self.offsets.locate(start)
        doc = self.docs[at]
        return Citation(
            doc.doc_id,
            local,
            local + end - start,
            self.text[start:end],
            self.chunk_at(start).chunk_id,
            doc.page_at(local),
        )

    def cite(self, answer: str, question: str, limit: int = 3) -> list[Citation]:
        """Sentences of the best-matching chunks where the answer's words stand together near the
        question's (none for an answer the text does not support)."""
        scores = bm25_scores(answer, [chunk.text for chunk in self.chunks])
        ranked = sorted(range(len(self.chunks)), key=lambda i: -scores[i])[:10]
        citations = []
        for i in (i for i in ranked if scores[i] > 0):
            chunk = self.chunks[i]
            span = grounded_span(answer, chunk.text, question)
            if span is not None:
                citations.append(self.citation(chunk.start + span[0], chunk.start + span[1]))
            if len(citations) == limit:
                break
        return citations

    def locate(self, citation: Citation) -> Citation:
        """A citation made elsewhere (e.g. of a slice of the rlm loop's context) as one of ours,
        named by its chunk: by its document and offsets, else found by its text; unchanged if no
        document holds it."""
        for doc, base in zip(self.docs, self.offsets.starts, strict=True):
            if doc.doc_id == citation.doc_id:
                return self.citation(base + citation.start, base + citation.end)
        at = self.text.find(citation.text) if citation.text else -1
        return citation if at < 0 else self.citation(at, at + len(citation.text))


@dataclass
class InMemory:
    """A context handed over in memory (RLM_REPL): a str, a dict or a list, named `doc_id`."""

    value: Any
    doc_id: str = "context"

    @cached_property
    def text(self) -> str:
        """The context as one text (a dict or list rendered item by item)."""
        return ContextSlice("c", self.value).text()

    def as_texts(self, chunk_chars: int) -> TextDocs:
        return TextDocs([TextDoc(self.doc_id, self.doc_id, self.text)], chunk_chars)

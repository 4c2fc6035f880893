"""Chosen documents of a corpus read as one source: laid end to end in one offset space (one
character apart), so that the chunk reader, which reads and cites one source, reads and cites
passages of several documents, each citation naming its document."""

from __future__ import annotations

from longread.answer import Citation
from longread.strategies.reading import Chunk, cut_chunks
from longread.text.offsets import JoinedOffsets
from longread.tools.corpus import CorpusTools

PASSAGES_PER_DOC = 4  # chunks' worth of each ranked document considered for reading


class CorpusView:
    """Chosen documents laid end to end in one offset space (one character apart), so the chunk
    reader, which reads and cites one document, can read and cite passages of several."""

    def __init__(self, tools: CorpusTools, doc_ids: list[str]):
        self.tools = tools
        self.doc_ids = doc_ids
        self.offsets = JoinedOffsets([tools.index.doc(doc_id).chars for doc_id in doc_ids], 1)

    def locate(self, offset: int) -> tuple[str, int]:
        """(doc id, offset in that document) of a view offset."""
        at, local = self.offsets.locate(offset)
        return self.doc_ids[at], local

    def span(self, doc_id: str, start: int, end: int) -> tuple[int, int]:
        base = self.offsets.starts[self.doc_ids.index(doc_id)]
        return base + start, base + end

    def read_range(self, start: int, end: int) -> str:
        doc_id, local = self.locate(start)
        return self.tools.read_document_chunk(doc_id, local, local + end - start)

    def section_at(self, offset: int) -> str:
        return self.locate(offset)[0]

    def citation(self, start: int, end: int) -> Citation:
        doc_id, local = self.locate(start)
        return self.tools.citation(doc_id, local, local + end - start)


def candidates(
    tools: CorpusTools, query: str, documents: int, chunk_chars: int
) -> tuple[list[str], CorpusView, list[Chunk]]:
    """The `documents` that best match `query` (by full-text search), a view of them, and their
    best passages cut into chunks of about `chunk_chars`."""
    ranked = [doc_id for doc_id, _ in tools.ranked(query, documents)]
    view = CorpusView(tools, ranked)
    spans = [
        view.span(doc_id, s, e)
        for doc_id in ranked
        for s, e in tools.passages(doc_id, query, chunk_chars * PASSAGES_PER_DOC)
    ]
    return ranked, view, cut_chunks(view, spans, chunk_chars)

"""Chosen documents of a corpus read as one source: laid end to end in one offset space (one
character apart), so that the chunk reader, which reads and cites one source, reads and cites
passages of several documents, each citation naming its document."""

from __future__ import annotations

import re

from longread.answer import Citation
from longread.strategies.reading import Chunk, cut_chunks
from longread.text.offsets import JoinedOffsets
from longread.text.rank import terms
from longread.tools.corpus import CorpusTools

PASSAGES_PER_DOC = 4  # chunks' worth of each ranked document considered for reading
PHRASE_DOCS = 4  # a phrase of the question held by more documents than this names nothing
MAX_PHRASES = 8  # phrases of one question looked up
_WORD = re.compile(r"[^\W_]+")


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
    """The `documents` that best match `query` (by full-text search, with those holding one of its
    phrases among them), a view of them, and their best passages cut into chunks of about
    `chunk_chars`."""
    ranked = [doc_id for doc_id, _ in tools.ranked(query, documents)]
    phrased = [d for d in phrased_documents(tools, query) if d not in ranked][: documents // 2]
    ranked = ranked[: documents - len(phrased)] + phrased
    view = CorpusView(tools, ranked)
    spans = [
        view.span(doc_id, s, e)
        for doc_id in ranked
        for s, e in tools.passages(doc_id, query, chunk_chars * PASSAGES_PER_DOC)
    ]
    return ranked, view, cut_chunks(view, spans, chunk_chars)


def phrased_documents(tools: CorpusTools, query: str) -> list[str]:
    """The documents holding a phrase of the query that few documents hold (PHRASE_DOCS at most):
    two words in a row, neither a stop word (`east gate` in `Who repaired the east gate?`), or
    two such words with one stop word between (`barrels of tar`, `tar to Corrin`). Ranked by
    their words alone, a long document naming the phrase once can fall behind shorter ones
    holding a single word of it."""
    found: list[str] = []
    for phrase in phrases(query)[:MAX_PHRASES]:
        rows = tools.store.search.phrase_rows(phrase)
        if 0 < len(rows) <= PHRASE_DOCS:
            found += [d for d in tools.store.catalog.doc_ids_of(rows) if d not in found]
    return found


def phrases(query: str) -> list[str]:
    """The query's phrases of two words that are not stop words, in a row or with one stop word
    between them."""
    words = _WORD.findall(query)
    kept = [bool(terms(word)) for word in words]
    found = [f"{words[i]} {words[i + 1]}" for i in range(len(words) - 1) if kept[i] and kept[i + 1]]
    found += [
        " ".join(words[i : i + 3])
        for i in range(len(words) - 2)
        if kept[i] and not kept[i + 1] and kept[i + 2]
    ]
    return found

"""Every kind of source as counting sees it: its record tables (a document's or a corpus's index,
or a scratch index of texts held in memory), and a citation of a row found in them."""

from __future__ import annotations

from longread.answer import Citation
from longread.query.core.catalog import Catalog, kept_with, texts_catalog
from longread.strategies.texts import InMemory, TextDocs
from longread.tools.corpus import CorpusTools
from longread.tools.toolset import Toolset


def catalog_of(source: object) -> Catalog:
    """The source's record tables, found on first use and kept with the source."""
    if isinstance(source, Toolset):
        return source.catalog()
    docs = source.as_texts(1_800) if isinstance(source, InMemory) else source
    if not isinstance(docs, TextDocs):
        raise TypeError(f"no record tables for {type(source).__name__}")
    return kept_with(source, lambda: texts_catalog([(doc.name, doc.text) for doc in docs.docs]))


def cite(source: object, document: str, start: int, end: int) -> Citation:
    """A citation of [start, end) of the named document of the source."""
    if isinstance(source, CorpusTools):
        return source.citation(document, start, end)
    if isinstance(source, InMemory):
        source = source.as_texts(1_800)
    if isinstance(source, TextDocs):
        names = [doc.name for doc in source.docs]
        at = names.index(document) if document in names else 0
        base = source.offsets.starts[at]
        return source.citation(base + start, base + end)
    citation = getattr(source, "citation", None)
    if citation is None:
        raise TypeError(f"cannot cite {type(source).__name__}")
    return citation(start, end)

"""A question being read by the rules, and what the reading of its parts shares: the links to
the source's tables that do not overlap, the columns a table has for a role, and the documents
(or works) a source is made of."""

from __future__ import annotations

from dataclasses import dataclass

from longread.query.core.catalog import Catalog, CatalogTable
from longread.query.core.plan import Operation
from longread.query.readers.rules.links import Link

MAXIMAL = frozenset(
    "longest shortest largest highest greatest biggest maximum smallest lowest minimum top "
    "heaviest lightest tallest widest deepest richest narrowest shallowest poorest".split()
)


LENGTHS = ("lines", "words", "chars", "length", "duration", "size")


LENGTH_WORDS = frozenset("longest shortest longer shorter".split())


TIMES = frozenset("time times occurrence occurrences mention mentions".split())


NOT_NOUNS = frozenset("of the a an is are was were do does did has have had one".split())


DOCUMENT = "document"


@dataclass
class Reading:
    """A question being read: its words (format instructions left out), the operation its words
    ask for, the word counted, and every link to the source's tables."""

    question: str
    asked: str
    operation: Operation
    catalog: Catalog
    links: list[Link]
    term: tuple[str, int, int] | None
    counted: tuple[str, int] | None
    words: tuple[str, ...]
    noun: str | None = None  # what the question calls the distinct things counted

    def own(self, table: CatalogTable) -> list[Link]:
        return [lk for lk in self.links if lk.table in (table.name, "")]

    def at(self, links: list[Link], span: tuple[str, int] | None) -> list[Link]:
        if span is None:
            return []
        start, end = span[1], span[1] + len(span[0])
        return [lk for lk in links if lk.start < end and start < lk.end]


def heaviest(links: list[Link]) -> list[Link]:
    """The heaviest links that do not overlap (the longest name wins its words)."""
    kept: list[Link] = []
    for found in sorted(links, key=lambda lk: (-lk.weight, lk.start)):
        if not any(found.overlaps(other) for other in kept):
            kept.append(found)
    return sorted(kept, key=lambda lk: lk.start)


def within(found: Link, spans: list[tuple[int, int]]) -> bool:
    return any(found.start < end and start < found.end for start, end in spans)


def names_documents(reading: Reading, start: int, end: int) -> bool:
    """Whether the words at [start, end) call the source's documents by what their kind of
    record makes them (`plays`, `mailboxes`), in a source of several (or of several works)."""
    if len(reading.catalog.documents) < 2 and not works(reading.catalog):
        return False
    return any(
        lk.what == "noun" and lk.table == "documents" and lk.start < end and start < lk.end
        for lk in reading.links
    )


def document_column(table: CatalogTable, catalog: Catalog) -> str:
    if len(catalog.documents) == 1 and table.column("work") is not None:
        return "work"
    return DOCUMENT


def works(catalog: Catalog) -> bool:
    return any(t.column("work") is not None for t in catalog.tables.values())


def role(table: CatalogTable, role: str) -> str | None:
    return next((c.name for c in table.columns if c.role == role), None)


def label(table: CatalogTable) -> str | None:
    return next((c.name for c in table.columns if c.type == "text" and c.role != "body"), None)

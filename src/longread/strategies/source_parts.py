"""A source read whole for counting: each document (or each work of a file holding several) as a
part, with its text, its headings and how to cite a span of it."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from longread.answer import Citation
from longread.errors import InputError
from longread.strategies.texts import InMemory, TextDocs
from longread.text.questions import SECTION_KINDS
from longread.text.records import Unit, speeches, stage_direction
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools

MAX_CHARS = 50_000_000  # what one count reads at most: more is refused (say why)


class NothingToCount(InputError):
    """The question is not an aggregate, or the source holds no records of what it counts."""


@dataclass
class Part:
    """One document of the source: its name, text, headings (title, start) in order and how to
    cite a span of it."""

    name: str
    text: str
    headings: list[tuple[str, int]]
    cite: Callable[[int, int], Citation]
    title: str = ""  # what the document calls itself, where known
    works: list[tuple[str, int]] = field(default_factory=list)  # several in one file (12 plays)
    of_several: bool = False  # one document of several
    _by_kind: dict[str, list[tuple[str, int]]] = field(default_factory=dict, repr=False)

    def work_at(self, offset: int) -> str:
        """The title of the work (of several in one file) a text at `offset` falls in, else the
        document's title and name (`Macbeth (macbeth.md)`)."""
        at = bisect.bisect_right(self.works, offset, key=lambda work: work[1]) - 1
        if at >= 0:
            return self.works[at][0]
        return (
            f"{self.title} ({self.name})" if self.title and self.title != self.name else self.name
        )

    def within(self, kind: str, offset: int) -> object:
        """The section of this kind (`scene`) or the document or work (`play`) a text at
        `offset` falls in."""
        return self.under(kind, offset) if kind in SECTION_KINDS else self.work_at(offset)

    def under(self, kind: str, offset: int) -> tuple[str, int] | None:
        """The heading of this kind (`act`) that a text at `offset` falls under: the last one at
        or before it, however the headings nest (a source's levels are not always consistent)."""
        of_kind = self.headings_of(kind)
        at = bisect.bisect_right(of_kind, offset, key=lambda heading: heading[1]) - 1
        return of_kind[at] if at >= 0 else None

    def headings_of(self, kind: str) -> list[tuple[str, int]]:
        """The headings of this kind, in order (sorted out once per kind, not once per record)."""
        if kind not in self._by_kind:
            self._by_kind[kind] = [h for h in self.headings if kind_of(h[0]) == kind]
        return self._by_kind[kind]

    @cached_property
    def speeches(self) -> list[Unit]:
        """The speeches of the document, if it is a script (see `records.speeches`)."""
        return speeches(self.text)

    def speaker_at(self, offset: int) -> str:
        """Who speaks the words at this offset, in a script ("" outside every speech, in its
        speaker's label and in a stage direction)."""
        at = bisect.bisect_right(self.speeches, offset, key=lambda unit: unit.start) - 1
        if at < 0 or offset >= self.speeches[at].end:
            return ""
        if "\n" not in self.text[self.speeches[at].start : offset]:
            return ""  # (`**DUNCAN**` names him; he does not say it)
        start, end = self.text.rfind("\n", 0, offset) + 1, self.text.find("\n", offset)
        line = self.text[start : end if end >= 0 else len(self.text)]
        return "" if stage_direction(line) else self.speeches[at].label

    @cached_property
    def title_counts(self) -> Counter[str]:
        """How many headings bear each title."""
        return Counter(title for title, _ in self.headings)

    @cached_property
    def kind_counts(self) -> Counter[str]:
        """How many headings are of each kind."""
        return Counter(kind_of(title) for title, _ in self.headings)


def parts(source: object, headings: bool, limit: int = MAX_CHARS) -> Iterator[Part]:
    """The source's documents, read whole (`limit` characters in all at most: NothingToCount
    for more), with their headings when the count needs them (a corpus document's are read from
    its own index, built on first use)."""
    if isinstance(source, InMemory):
        source = source.as_texts(1_800)
    if isinstance(source, SingleDocTools):
        total = _checked(source.index.total_chars, limit)
        rows = source.index.rows
        works = _works([(r.title, r.start, r.level) for r in rows])
        yield Part(
            source.doc_id,
            source.index.read_range(0, total),  # (whole: the tool reads 1,000,000 at most)
            [(r.title, r.start) for r in rows] if headings else [],
            source.citation,
            works[0][0] if len(works) == 1 else "",  # (`# Henry IV, Part I` over its acts)
            works if len(works) > 1 else [],
        )
    elif isinstance(source, TextDocs):
        _checked(source.total_chars, limit)
        for doc, base in zip(source.docs, source.offsets.starts, strict=True):
            cite = _shifted(source.citation, base)
            yield Part(doc.name, doc.text, [], cite, of_several=len(source.docs) > 1)
    elif isinstance(source, CorpusTools):
        _checked(source.index.totals()[1], limit)
        documents = source.list_documents()
        for doc_id in documents:
            stored = source.index.doc(doc_id)
            rows = (
                [(r.title, r.start) for r in source.index.document_index(doc_id).rows]
                if headings
                else []
            )
            text = source.store.read_range(stored.store_id, 0, stored.chars)
            cite = _bound(source.citation, doc_id)
            title = str(stored.meta.get("title", ""))
            yield Part(doc_id, text, rows, cite, title, of_several=len(documents) > 1)


def _works(headings: list[tuple[str, int, int]]) -> list[tuple[str, int]]:
    """The works of a file (twelve plays, each `# Title` over its acts): its top headings that
    have sections of a kind under them (not an `EPILOGUE` alone)."""
    top = min((level for _, _, level in headings), default=0)
    works: dict[tuple[str, int], bool] = {}
    current: tuple[str, int] | None = None
    for title, start, level in headings:
        if level == top:
            current = (title, start)
            works[current] = False
        elif current is not None and kind_of(title) in SECTION_KINDS:
            works[current] = True
    return [work for work, holds_sections in works.items() if holds_sections]


def _checked(chars: int, limit: int) -> int:
    if chars > limit:
        raise NothingToCount(
            f"the source has {chars:,} characters; counting over it reads at most {limit:,}"
        )
    return chars


def _shifted(cite: Callable[[int, int], Citation], base: int) -> Callable[[int, int], Citation]:
    return lambda start, end: cite(base + start, base + end)


def _bound(
    cite: Callable[[str, int, int], Citation], doc_id: str
) -> Callable[[int, int], Citation]:
    return lambda start, end: cite(doc_id, start, end)


def kind_of(title: str) -> str:
    """A heading's kind, its first word (`act` for `ACT III`)."""
    words = title.split()
    return words[0].lower().rstrip(".:") if words else ""

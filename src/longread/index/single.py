"""SingleDocIndex: one document's text, type, TOC and summaries, persisted in the SQLite store and
exportable to (and importable from) a portable JSON form."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from longread.index.figures import FigureReader
from longread.index.full_text import PartBuilders
from longread.index.references import SAMPLE_CHARS, Reference, ReferenceFinder
from longread.ingest.doctype import detect_doc_type
from longread.ingest.document import load_document
from longread.ingest.fingerprint import Fingerprint, fingerprint, stamp
from longread.ingest.headings import detect_headings
from longread.ingest.loaded import LoadedDocument
from longread.ingest.toc import Section, build_toc
from longread.store.docstore import DocStore
from longread.store.rows import SectionRow
from longread.store.section_rows import display_names
from longread.store.text_hash import content_hash


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: an index allocates several small acyclic objects per
    section (hundreds of thousands on a huge document), which it would rescan again and again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class SingleDocIndex:
    """The index's fields (path, doc_type, total_chars, toc, section_map, summaries, keywords),
    backed by a store: `section_map` and `summaries` are keyed by section name (titles made unique
    with ` (2)`, ` (3)`…)."""

    store: DocStore
    store_id: int
    path: str
    doc_type: str
    total_chars: int
    structured: bool = True  # False: no headings were found, the sections are cut from the text

    @classmethod
    @_gc_paused()
    def build(
        cls, path: str | Path, store: DocStore, figures: FigureReader | None = None
    ) -> SingleDocIndex:
        """Index a file: reuse the stored index if the file is the one it was built from (same
        stamp: nothing is read) or has the same bytes (touched: hashed, not indexed), or if its
        text is unchanged; else detect and store it. The full-text index of a large document is
        built beside (see `PartBuilders`); others are left to the first search (or
        DocStore.ensure_fts), and its records to the first question that counts (see
        `ensure_records`). With `figures`, its figures are described into its text (an index
        without them is not reused). Builds into one store take turns (threads and processes)."""
        with store.building():
            return cls._build(path, store, figures)

    @classmethod
    def _build(
        cls, path: str | Path, store: DocStore, figures: FigureReader | None = None
    ) -> SingleDocIndex:
        source = stamp(path)
        described = f"+figures:{figures.name}" if figures else ""
        known = None if source is None or figures else store.documents.find_source(*source)
        if known is not None and store.sections.count(known):
            return cls.open(store, known)
        seen = None if source is None else fingerprint(source)
        if seen is not None and (
            reused := cls._reuse(store, seen, seen.file_hash + described, described)
        ):
            return reused
        document = read = load_document(path)
        if figures is not None:
            document = figures(path, read)
        # (a text its figures changed is stored apart; one with none is the plain text)
        digest = _digest(document, seen) + (described if document is not read else "")
        if reused := cls._reuse(store, seen, digest, described):
            return reused
        doc_type, _ = detect_doc_type(document.text)
        headings, extra = detect_headings(document.text), _format_headings(document)
        entries = _entries(build_toc(document.text, headings, extra_headings=extra or None))
        with store.filling():
            builders = PartBuilders.start(document.text, entries, store.path)
            store_id = None
            try:
                store_id = store.documents.add(
                    str(path),
                    document.kind,
                    document.text,
                    doc_type=doc_type,
                    pages=[(p.number, p.start, p.end) for p in document.pages],
                    digest=digest,
                    structured=bool(headings or extra),
                )
                rows = _rows(store.sections.save(store_id, entries), entries)
                if builders is not None:
                    store.search.plan(store_id, builders.parts, builders.spans)
            finally:
                if builders is not None:
                    builders.stored(store_id)
            if builders is not None:
                store.search.build(
                    store_id
                )  # (marks it complete, once any part not copied is built)
        if seen is not None:
            store.documents.note_source(store_id, *seen.stamp, seen.file_hash + described)
        return cls.open(store, store_id, rows)

    @classmethod
    def _reuse(
        cls, store: DocStore, seen: Fingerprint | None, digest: str, described: str = ""
    ) -> SingleDocIndex | None:
        """The stored index of a file with these bytes (or a text with this content hash), if it
        has sections, recorded as read from the file `seen` (`described`: with its figures)."""
        store_id = store.documents.find_file_hash(digest) or store.documents.find(digest)
        if store_id is None or not store.sections.count(store_id):
            return None
        if seen is not None:
            store.documents.note_source(store_id, *seen.stamp, seen.file_hash + described)
        return cls.open(store, store_id)

    @classmethod
    @_gc_paused()
    def open(
        cls, store: DocStore, store_id: int, rows: list[SectionRow] | None = None
    ) -> SingleDocIndex:
        """The stored index of document `store_id` (`rows`: its sections, if the caller has them;
        else they are read when first needed)."""
        meta = store.documents.get(store_id)
        index = cls(
            store, store_id, meta["path"], meta["doc_type"], meta["chars"], meta["structured"]
        )
        if rows is not None:
            index.__dict__["rows"] = rows
        return index

    # -- the index's views ---------------------------------------------------------------
    @cached_property
    def rows(self) -> list[SectionRow]:
        """Every section, in document order (read from the store on first use)."""
        return self.store.sections.all(self.store_id)

    @cached_property
    def names(self) -> list[str]:
        """A unique display name per section, in document order."""
        if "rows" in self.__dict__:
            return [row.name for row in self.rows]
        return self.store.sections.names(self.store_id)

    @property
    def section_count(self) -> int:
        return (
            len(self.rows) if "rows" in self.__dict__ else self.store.sections.count(self.store_id)
        )

    @property
    def section_map(self) -> dict[str, tuple[int, int]]:
        return {row.name: (row.start, row.end) for row in self.rows}

    @property
    def summaries(self) -> dict[str, str]:
        """Each summarized section's summary, by name."""
        stored = self.store.summaries.by_section(self.store_id)
        return {r.name: stored[r.id][0] for r in self.rows if r.id in stored} if stored else {}

    @property
    def keywords(self) -> dict[str, list[str]]:
        """Each summarized section's keywords, by name."""
        stored = self.store.summaries.by_section(self.store_id)
        return {r.name: stored[r.id][1] for r in self.rows if r.id in stored} if stored else {}

    @property
    def toc(self) -> dict[str, Any]:
        """The hierarchical TOC: {"sections": [{title, level, start_char, end_char, children}]}."""
        nodes: dict[int, dict[str, Any]] = {}
        top: list[dict[str, Any]] = []
        for row in self.rows:
            node = {
                "title": row.name,
                "level": row.level,
                "start_char": row.start,
                "end_char": row.end,
                "children": [],
            }
            nodes[row.id] = node
            (nodes[row.parent_id]["children"] if row.parent_id in nodes else top).append(node)
        return {"sections": top}

    def read_range(self, start: int, end: int) -> str:
        return self.store.documents.read_range(self.store_id, start, end)

    @cached_property
    def reference_finder(self) -> ReferenceFinder:
        """What the document's cross-references can name, learned from its headings and text."""
        return ReferenceFinder(self.rows, self.read_range(0, min(self.total_chars, SAMPLE_CHARS)))

    def references(self, start: int = 0, end: int | None = None) -> list[Reference]:
        """The cross-references written in [start, end) of the text (see index/references)."""
        end = self.total_chars if end is None else min(end, self.total_chars)
        return self.reference_finder.find(self.read_range(start, end), start)

    # -- the portable JSON form ----------------------------------------------------------
    def save(self, index_path: str | Path) -> None:
        """Write the portable JSON form (path, doc_type, total_chars, toc, section_map, summaries,
        keywords)."""
        data = {
            "path": self.path,
            "doc_type": self.doc_type,
            "total_chars": self.total_chars,
            "content_hash": self.store.documents.get(self.store_id)["content_hash"],
            "toc": self.toc,
            "section_map": self.section_map,
            "summaries": self.summaries,
            "keywords": self.keywords,
        }
        Path(index_path).write_text(
            json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8"
        )

    @classmethod
    def load(cls, index_path: str | Path, store: DocStore) -> SingleDocIndex:
        """Read a JSON index back into `store` (the document itself is re-read from its path and
        must have the same content hash; a changed document is rebuilt instead)."""
        data = json.loads(Path(index_path).read_text(encoding="utf-8"))
        index = cls.build(data["path"], store)
        if store.documents.get(index.store_id)["content_hash"] != data.get("content_hash"):
            return index
        by_name = {row.name: row for row in index.rows}
        for name, summary in data.get("summaries", {}).items():
            if name in by_name:
                store.summaries.put(
                    by_name[name].id, summary, data.get("keywords", {}).get(name, []), "json"
                )
        return index


def _digest(document: LoadedDocument, seen: Fingerprint | None) -> str:
    """The text's content hash: the hash of the file's bytes where the text is those bytes as
    UTF-8 (a plain text file, which has kept the stamp it was hashed with); else hashed."""
    if seen is not None and document.verbatim and stamp(seen.stamp.path) == seen.stamp:
        return seen.file_hash
    return content_hash(document.text)


def _format_headings(document: LoadedDocument) -> list[tuple[int, int, str]]:

    return [(h.start, h.level, h.title) for h in document.headings]


def _entries(toc: list[Section]) -> list[tuple[int | None, str, int, int, int]]:
    """Flattened (parent index, title, level, start, end) in document order."""
    entries: list[tuple[int | None, str, int, int, int]] = []

    def walk(sections: list[Section], parent: int | None) -> None:
        for section in sections:
            entries.append(
                (parent, section.title, section.level, section.start_char, section.end_char)
            )
            walk(section.children, len(entries) - 1)

    walk(toc, None)
    return entries


def _rows(ids: list[int], entries: list[tuple[int | None, str, int, int, int]]) -> list[SectionRow]:
    """The stored rows of freshly saved sections, without reading them back."""
    names = display_names([entry[1] for entry in entries])
    return [
        SectionRow(
            ids[i], None if parent is None else ids[parent], i, title, level, start, end, names[i]
        )
        for i, (parent, title, level, start, end) in enumerate(entries)
    ]

"""What a source holds to count over: its record tables (each table of one name over all its
documents, with the union of their columns), their sizes, and each text column's commonest
values, which a question's words are matched against. Records are found on first need for a
document that was indexed before they existed."""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePath
from typing import Any

from longread.index.corpus import CorpusIndex
from longread.index.first_need import found_or_why
from longread.index.records import MAX_CHARS as RECORDS_CHARS
from longread.index.records import VALUES_KEPT, Places
from longread.index.single import SingleDocIndex
from longread.query.core.shared_tables import shared_name, shared_names
from longread.store.docstore import DocStore
from longread.store.record_query import QueryError, RecordQuery, word_pattern
from longread.store.record_tables import StoredColumn, StoredTable, quoted
from longread.store.record_views import View, ViewPart

MAX_CHARS = 50_000_000  # a word's mentions are looked for in this much of a source at most
_TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".text", ".csv", ".tsv", ".log", ".mbox", ".eml")
TEXT_TABLE = "text_mentions"  # the table of a word's mentions in the whole text
SCAN_ROWS = 200_000  # a larger table's varied columns are not scanned (for words a value holds)
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SourceDoc:
    """One document of a source: the store holding it, its id there and the name it is cited
    by (a file name; a corpus document's id)."""

    store: DocStore
    store_id: int
    name: str
    chars: int = 0


@dataclass
class CatalogTable:
    """A record table as the source has it."""

    name: str
    kinds: tuple[str, ...]
    columns: tuple[StoredColumn, ...]
    nouns: tuple[str, ...]
    rows: int

    def column(self, name: str) -> StoredColumn | None:
        return next((c for c in self.columns if c.name == name), None)


@dataclass
class Catalog:
    """The record tables of a source, and a read-only SQL connection over them."""

    tables: dict[str, CatalogTable]
    views: list[View]
    names: dict[tuple[Path, int], str]
    docs: list[SourceDoc]
    skipped: str = ""  # why records were not looked for in some documents
    owned: Path | None = None  # a scratch folder of this catalog's own store (removed on close)
    _values: dict[tuple[str, str], tuple[list[tuple[Any, int]], int]] = field(default_factory=dict)
    _mentions: CatalogTable | None = None
    _mentions_of: str = ""
    _computed: dict[Any, Any] = field(default_factory=dict)

    @classmethod
    def empty(cls) -> Catalog:
        """The catalog of a source with no records."""
        return cls({}, [], {}, [])

    @cached_property
    def query(self) -> RecordQuery:
        return RecordQuery(self.views, self.names)

    def computed(self, key: Any, compute: Callable[[], Any]) -> Any:
        """What `compute` gives, computed once per key (a plan run, a filter's rows counted:
        the cost estimate and the answer ask alike)."""
        if key not in self._computed:
            self._computed[key] = compute()
        return self._computed[key]

    def values(self, table: str, column: str) -> list[tuple[Any, int]]:
        """The column's distinct values (a date column's days) with how many rows hold each, the
        commonest first (VALUES_KEPT at most; none for a column of too many, see `listed`)."""
        return self._counts(table, column)[0]

    def listed(self, table: str, column: str) -> bool:
        """Whether `values` lists every value the column holds."""
        return not self._counts(table, column)[1]

    def filled(self, table: str, column: str) -> int:
        """How many rows hold a value in the column."""
        listed, unlisted = self._counts(table, column)
        return sum(n for v, n in listed if v is not None) + unlisted

    def holding(
        self, table: str, column: str, texts: Sequence[str], within: bool = False
    ) -> list[tuple[Any, int]]:
        """Of a text column too varied to list, the values (shortest first) that are one of these
        texts in lower case, or `within` hold the one text, with the rows holding each: a key looked
        up (`tomato` of a dictionary's words, `1017791` of `#1017791`). None over SCAN_ROWS rows."""
        held = self.tables.get(table)
        if held is None or held.rows > SCAN_ROWS or not texts:
            return []
        name = quoted(column)
        listed = ", ".join("?" * len(texts))
        test = f"instr(lower({name}), ?)" if within else f"lower({name}) IN ({listed})"
        sql = (
            f"SELECT {name} AS v, count(*) FROM {quoted(table)} WHERE {test} GROUP BY v "
            f"ORDER BY length(v) LIMIT {VALUES_KEPT}"
        )
        found = self.computed(
            (sql, tuple(texts)), lambda: self.query.execute(sql, texts, max_rows=VALUES_KEPT)
        )
        return list(found.rows)

    def _counts(self, table: str, column: str) -> tuple[list[tuple[Any, int]], int]:
        key = (table, column)
        if key not in self._values:
            view = next((v for v in self.views if v.name == table), None)
            stored = view is not None and any(c.name == column for c in view.columns)
            self._values[key] = (
                self._stored(view, column) if view and stored else self._queried(table, column)
            )
        return self._values[key]

    @cached_property
    def _stores(self) -> dict[Path, DocStore]:
        """Each store holding a document of the source, by its resolved path."""
        return {doc.store.path.resolve(): doc.store for doc in self.docs}

    def _stored(self, view: View, column: str) -> tuple[list[tuple[Any, int]], int]:
        """The counts stored with the view's tables, added up."""
        stores = self._stores
        counted: Counter[Any] = Counter()
        unlisted = 0
        held: dict[tuple[Path, tuple[int, ...]], list[StoredTable]] = {}
        for part in view.parts:
            if any(c.name == column for c in part.table.columns):
                held.setdefault((part.database.resolve(), part.store_ids), []).append(part.table)
        for (database, ids), tables in held.items():
            listed, more = stores[database].records.values(tables, column, ids)
            counted.update(dict(listed))
            unlisted += more
        ranked = counted.most_common()
        return ranked[:VALUES_KEPT], unlisted + sum(n for _, n in ranked[VALUES_KEPT:])

    def _queried(self, table: str, column: str) -> tuple[list[tuple[Any, int]], int]:
        """The counts of a table made for this question (a term's mentions), by a query."""
        found = self.query.execute(
            f"SELECT {quoted(column)} AS v, count(*) AS n FROM {quoted(table)} "
            f"WHERE v IS NOT NULL GROUP BY v ORDER BY n DESC LIMIT {VALUES_KEPT + 1}",
            max_rows=VALUES_KEPT + 1,
        )
        ranked = [(v, n) for v, n in found.rows]
        return ranked[:VALUES_KEPT], sum(n for _, n in ranked[VALUES_KEPT:])

    def describe(self, samples: int = 3) -> str:
        """The tables, their columns and a few rows, as a root model or a user reads them."""
        lines = []
        for table in self.tables.values():
            columns = ", ".join(f"{c.name} ({c.type})" for c in table.columns)
            lines.append(f"{table.name}: {table.rows:,} rows; columns: document, {columns}")
            shown = self.query.execute(
                f"SELECT * FROM {quoted(table.name)} LIMIT {int(samples)}", max_rows=samples
            )
            for row in shown.rows:
                cells = dict(zip(shown.columns, row, strict=True))
                cells = {k: v for k, v in cells.items() if not k.startswith("_") and v is not None}
                lines.append("  " + "; ".join(f"{k}={str(v)[:60]!s}" for k, v in cells.items()))
        return "\n".join(lines) or "(no record tables)"

    @property
    def documents(self) -> list[str]:
        return [doc.name for doc in self.docs]

    def covered(self, skipped: tuple[str, ...] = ()) -> float:
        """The share of the source's characters spanned by the rows of its tables of values, those
        with no column of free text (tables named in `skipped` aside; at most 1): near 1 for a
        data file, near 0 for a play, whose speeches are passages."""
        values = [n for n, t in self.tables.items() if all(c.role != "body" for c in t.columns)]
        spans = sum(self._spanned(name) for name in values if name not in skipped)
        return min(1.0, spans / max(1, sum(doc.chars for doc in self.docs)))

    def _spanned(self, table: str) -> int:
        """The characters a table's rows span (computed once)."""
        sql = f"SELECT sum(_end - _start) FROM {quoted(table)}"
        try:
            rows = self.computed(sql, lambda: self.query.execute(sql, max_rows=1).rows)
        except QueryError:
            return 0
        return int(rows[0][0] or 0)

    @cached_property
    def titles(self) -> dict[str, str]:
        """Each document's title, by its name (where the documents table has one)."""
        if "documents" not in self.tables:
            return {}
        rows = self.query.execute("SELECT document, title FROM documents", max_rows=100_000).rows
        return {str(name): str(title) for name, title in rows if title}

    def read(self, document: str, start: int, end: int) -> str:
        """Characters [start, end) of a document of the source."""
        doc = next((d for d in self.docs if d.name == document), None)
        return "" if doc is None else doc.store.documents.read_range(doc.store_id, start, end)

    def mentions_table(self, term: str) -> CatalogTable:
        """The table TEXT of every whole-word mention of `term` in the source's text (MAX_CHARS
        read at most), each with its document, span and the sections it falls in."""
        if self._mentions is not None and self._mentions_of == term.casefold():
            return self._mentions
        columns: dict[str, None] = {}
        found = []
        read = 0
        for doc in self.docs:
            if read + doc.chars > MAX_CHARS:
                break
            read += doc.chars
            text = doc.store.documents.read_range(doc.store_id, 0, doc.chars)
            structured = doc.store.documents.get(doc.store_id)["structured"]
            places = Places(text, doc.store.sections.all(doc.store_id) if structured else [])
            wanted = places.columns([])
            named, keys = [c for c, _ in wanted], [k for _, k in wanted]
            columns.update(dict.fromkeys(named))
            for match in word_pattern(term).finditer(text):
                cells = dict(zip(named, places.values(match.start(), keys), strict=True))
                found.append((doc.name, match.start(), match.end(), cells))
        names = list(columns)
        self._computed.clear()  # (what was computed over the table of another term's mentions)
        self.query.add_table(
            TEXT_TABLE,
            ["document", "_start", "_end", *names],
            [(d, s, e, *(cells.get(n) for n in names)) for d, s, e, cells in found],
        )
        self._mentions = CatalogTable(
            TEXT_TABLE,
            ("text",),
            tuple(StoredColumn(n, "text") for n in names),
            ("mention", "time", "occurrence"),
            len(found),
        )
        self._mentions_of = term.casefold()
        return self._mentions

    def close(self) -> None:
        if "query" in self.__dict__:
            self.query.close()
        if self.owned is not None:
            for doc in self.docs:
                doc.store.close()
            shutil.rmtree(self.owned, ignore_errors=True)
            self.owned = None


_KEPT: dict[int, Catalog] = {}  # by id of its owner, while the owner lives


def kept_with(owner: object, make: Callable[[], Catalog]) -> Catalog:
    """The catalog made for `owner` (an index, a source) on first use, kept while it lives and
    closed when it is gone."""
    found = _KEPT.get(id(owner))
    if found is None:
        found = _KEPT[id(owner)] = make()
        weakref.finalize(owner, _forget, id(owner))
    return found


def _forget(owner: int) -> None:
    found = _KEPT.pop(owner, None)
    if found is not None:
        found.close()


def document_catalog(index: SingleDocIndex, name: str) -> Catalog:
    """The catalog of one indexed document, cited by `name`."""
    return build_catalog([SourceDoc(index.store, index.store_id, name, index.total_chars)])


def corpus_catalog(index: CorpusIndex, progress: Progress | None = None) -> Catalog:
    """The catalog of a corpus: each document's records found on first use (its sections too),
    RECORDS_CHARS of text in all at most."""
    docs: list[SourceDoc] = []
    read = 0
    ids = index.store.catalog.doc_ids()
    for n, doc_id in enumerate(ids, 1):
        stored = index.doc(doc_id)
        if read + stored.chars <= RECORDS_CHARS:
            read += stored.chars
            level = index.document_index(doc_id)
            docs.append(SourceDoc(level.store, level.store_id, doc_id, stored.chars))
        if progress is not None and (n % 50 == 0 or n == len(ids)):
            progress(n, len(ids))
    catalog = build_catalog(docs)
    if len(docs) < len(ids):
        said = f"records are looked for in {len(docs):,} of {len(ids):,} documents"
        catalog.skipped = "; ".join(filter(None, (said, catalog.skipped)))
    return catalog


def texts_catalog(texts: Sequence[tuple[str, str]]) -> Catalog:
    """The catalog of texts held in memory (name, text): indexed in a scratch store of its own,
    removed when the catalog is closed."""
    folder = Path(tempfile.mkdtemp(prefix="longread-records-"))
    store = DocStore(folder / "records.sqlite")
    docs = []
    for n, (name, text) in enumerate(texts):
        base = PurePath(name).name or "text"
        if PurePath(base).suffix.lower() not in _TEXT_SUFFIXES:  # (a PDF's text is text now)
            base += ".txt"
        path = folder / str(n) / base
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        index = SingleDocIndex.build(path, store)
        docs.append(SourceDoc(store, index.store_id, name, index.total_chars))
    catalog = build_catalog(docs)
    catalog.owned = folder
    return catalog


def build_catalog(docs: Sequence[SourceDoc], progress: Progress | None = None) -> Catalog:
    """The catalog of these documents' records, found first where they were not (RECORDS_CHARS
    of text in all at most)."""
    skipped = ""
    if (total := sum(doc.chars for doc in docs)) > RECORDS_CHARS:
        skipped = f"records are looked for in {RECORDS_CHARS:,} characters at most; "
        skipped += f"the source has {total:,}"
    failed: dict[SourceDoc, str | None] = {}
    for n, doc in enumerate(docs, 1):
        failed[doc] = None if skipped else found_or_why(doc.store, doc.store_id, doc.name)
        if progress is not None and (n % 50 == 0 or n == len(docs)):
            progress(n, len(docs))
    found: list[tuple[ViewPart, int, str]] = []
    by_store: dict[Path, list[SourceDoc]] = {}
    for doc in (doc for doc in docs if not failed.get(doc)):
        by_store.setdefault(doc.store.path.resolve(), []).append(doc)
    for path, held in by_store.items():
        store = held[0].store
        ids = tuple(d.store_id for d in held)
        for table, rows in store.records.tables(ids):
            found.append((ViewPart(path, table, ids), rows, table.kind))
    named = shared_names([part for part, _, _ in found])
    grouped: dict[str, list[tuple[ViewPart, int, str]]] = {}
    for entry in found:
        grouped.setdefault(shared_name(entry[0], named), []).append(entry)
    tables, views = {}, []
    for name, parts in grouped.items():
        columns: dict[str, StoredColumn] = {}
        nouns: dict[str, None] = {}
        for part, _, _ in parts:
            for column in part.table.columns:
                known = columns.get(column.name)
                if known is None:
                    columns[column.name] = column
                elif known.type != column.type:  # (a number here, text there: text)
                    columns[column.name] = StoredColumn(
                        column.name, "text", known.role, known.aliases
                    )
            nouns.update(dict.fromkeys(part.table.nouns))
        merged = tuple(columns.values())
        kinds = tuple(dict.fromkeys(kind for _, _, kind in parts))
        tables[name] = CatalogTable(name, kinds, merged, tuple(nouns), sum(r for _, r, _ in parts))
        views.append(View(name, merged, tuple(part for part, _, _ in parts)))
    names = {(doc.store.path.resolve(), doc.store_id): doc.name for doc in docs}
    skipped = "; ".join(filter(None, (skipped, *failed.values())))  # (files a finder broke too)
    return Catalog(tables, views, names, list(docs), skipped)

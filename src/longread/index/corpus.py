"""CorpusIndex: the two-level index of a folder of documents. Level 1 is built for every file: text,
metadata, full-text search and inverted indexes; links between documents are found from them when
asked for. Level 2 (the single-document index: sections and their search) is built for a document on
first use, in the same store. Building is updating: new files are added, changed ones (by content
hash) replaced, deleted ones removed, and untouched ones cost nothing, so any sequence of updates
ends where a fresh build does."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from longread.errors import InputError
from longread.events import Event, EventKind, EventSink, ignore
from longread.executor import Executor
from longread.index.corpus_files import (
    Listing,
    UpdateReport,
    file_state,
    index_terms,
    list_ahead,
    listing,
)
from longread.index.corpus_json import content_meta, corpus_dict, saved_meta
from longread.index.corpus_update import files_named, listed_only, store_files
from longread.index.enrich.llm_metadata import MODEL_SAMPLE_CHARS
from longread.index.shard_build import build_shards
from longread.index.single import SingleDocIndex
from longread.ingest.metadata import ContentMeta, keyword_key
from longread.store.corpus_catalog import StoredDoc
from longread.store.open_corpus import CorpusStores
from longread.store.sharded_store import ShardedCorpusStore
from longread.text.fold import tokens

MetaReader = Callable[[list[tuple[StoredDoc, str, ContentMeta]]], list[ContentMeta]]
"""Reads documents (each with its opening and its rules' metadata) and returns better metadata."""
BATCH_SIZE = 256  # documents a sub-model reads per saved step
UPDATED = "updated"  # the setting that holds when the index was last brought in line


@dataclass
class DocumentMeta:
    """A document's metadata, as the REPL's get_doc_meta returns it."""

    doc_id: str
    file_path: str
    file_size: int
    char_count: int
    title: str
    summary: str
    keywords: list[str]
    entities: list[str]
    doc_type: str
    date: str
    author: str
    dates: list[str]
    content_hash: str
    meta_source: str
    has_detailed_index: bool
    detailed_index_path: str


class CorpusIndex:
    """A folder of documents indexed in one CorpusStore, or in shards."""

    def __init__(self, root: str | Path, store: CorpusStores):
        self.root = Path(root).expanduser().resolve()
        if not self.root.is_dir():
            raise InputError(f"{root} is not a folder")
        self.store = store
        stored = store.root()
        if stored is None:
            store.set_root(str(self.root))
        self._levels: dict[str, SingleDocIndex] = {}
        self._listing: Future[Listing] | None = None

    # -- building and updating -------------------------------------------------------------
    def update(
        self,
        *,
        parallel: bool = True,
        batch_size: int = BATCH_SIZE,
        meta_reader: MetaReader | None = None,
        on_event: EventSink = ignore,
        only: Sequence[str] | None = None,
        executor: Executor | None = None,
    ) -> UpdateReport:
        """Bring the index in line with the folder (or with the files `only`): add new files,
        replace changed ones, remove deleted ones. Files are read by `executor`'s workers (this
        machine's processes by default) when `parallel` (a sharded index: each shard's files in
        batches, each an executor job); `meta_reader` (e.g. the sub-model) may improve each new
        document's metadata."""
        listed = (
            self._listed()
            if only is None
            else listed_only(self.store, files_named(self.root, only), only)
        )
        if isinstance(self.store, ShardedCorpusStore) and parallel:
            report = build_shards(self.root, self.store, listed, executor, on_event)
        else:
            report = store_files(
                self.root,
                self.store,
                listed,
                parallel=parallel,
                executor=executor,
                on_event=on_event,
            )
        self.store.set_setting(UPDATED, repr(time.time()))
        if meta_reader is not None:
            self.improve_meta(meta_reader, batch_size, on_event)
        self._levels.clear()
        return report

    def updated(self) -> float | None:
        """When the index was last brought in line with its folder (seconds since the epoch)."""
        at = self.store.setting(UPDATED)
        return float(at) if at else None

    def prescan(self) -> None:
        """Start listing the folder's files, against the index, for the next `update` (see
        list_ahead)."""
        self._listing = list_ahead(self.root, self.store.path.resolve(), self.store.databases)

    def _listed(self) -> Listing:
        """The folder against the index (the listing `prescan` started, else a new one)."""
        started, self._listing = self._listing, None
        if started:
            return started.result()
        return listing(self.root, self.store.path.resolve(), self.store.databases)

    def index_full_text(self, on_event: EventSink = ignore) -> None:
        """Put the documents not yet in the full-text index into it (else the first search does),
        with `progress` events."""
        self.store.search.build(
            lambda done, total: on_event(
                Event(EventKind.PROGRESS, {"task": "full text", "done": done, "total": total})
            )
        )

    def improve_meta(
        self, meta_reader: MetaReader, batch_size: int = BATCH_SIZE, on_event: EventSink = ignore
    ) -> int:
        """Let `meta_reader` read every document whose metadata is the rules' alone (resumable:
        each batch is saved as it is read). Returns how many documents it read."""
        todo = self.store.catalog.rows_with_meta_source("rules")
        for start in range(0, len(todo), batch_size):
            docs = self.store.catalog.docs(todo[start : start + batch_size])
            samples = [
                self.store.documents.read_range(d.store_id, 0, MODEL_SAMPLE_CHARS) for d in docs
            ]
            metas = meta_reader(
                [(d, sample, content_meta(d.meta)) for d, sample in zip(docs, samples, strict=True)]
            )
            self.store.replace_meta(
                [
                    (d, m.to_dict(), index_terms(d.doc_id, m))
                    for d, m in zip(docs, metas, strict=True)
                ]
            )
            on_event(
                Event(
                    EventKind.PROGRESS,
                    {
                        "task": "metadata",
                        "done": min(start + batch_size, len(todo)),
                        "total": len(todo),
                    },
                )
            )
        return len(todo)

    def _named_in(self, rows: list[int], names: list[tuple[int, str]]) -> set[tuple[int, int]]:
        """(row, named row) for the names each document holds: checked by search where the
        document holds all of a name's words."""
        words_of = [(dst, name, frozenset(name.split())) for dst, name in names]
        pairs = set()
        for doc in self.store.catalog.docs(rows):
            words = set(tokens(self.store.documents.read_range(doc.store_id, 0, doc.chars)))
            for dst, name, _ in (c for c in words_of if c[2] <= words):
                if self.store.search.phrase_rows(name, [doc.row]):
                    pairs.add((doc.row, dst))
        return pairs

    def add_document(self, path: str | Path, meta_reader: MetaReader | None = None) -> str:
        """Index one file inside the corpus folder (again, if it changed); returns its id."""
        doc_id = self.doc_id_of(path)
        report = self.update(only=[doc_id], parallel=False, meta_reader=meta_reader)
        if report.skipped:
            raise InputError(f"cannot index {doc_id}: {report.skipped[0].reason}")
        return doc_id

    def remove_document(self, doc_id: str) -> bool:
        """Forget one document (its file is left alone); False if it was not indexed."""
        self._levels.pop(doc_id, None)
        return bool(self.store.remove_docs([doc_id]))

    def doc_id_of(self, path: str | Path) -> str:
        """The id of a file inside the corpus folder: its path relative to the root."""
        full = Path(path).expanduser()
        full = (full if full.is_absolute() else Path.cwd() / full).resolve()
        try:
            return full.relative_to(self.root).as_posix()
        except ValueError:
            raise InputError(f"{path} is not inside the corpus folder {self.root}") from None

    # -- reading ------------------------------------------------------------------------------
    def doc(self, doc_id: str) -> StoredDoc:
        doc = self.store.catalog.doc(doc_id)
        if doc is None:
            raise KeyError(f"no document {doc_id!r}; see list_documents()")
        return doc

    def meta(self, doc_id: str) -> DocumentMeta:
        doc = self.doc(doc_id)
        m = doc.meta
        return DocumentMeta(
            doc_id,
            doc.path,
            doc.file_size,
            doc.chars,
            m["title"],
            m["summary"],
            m["keywords"],
            m["entities"],
            m["doc_type"],
            m["dates"][0] if m["dates"] else "",
            m["author"],
            m["dates"],
            doc.content_hash,
            m["source"],
            bool(self.store.sections.all(doc.store_id)),
            str(self.store.holding(doc_id).path),
        )

    def document_index(self, doc_id: str) -> SingleDocIndex:
        """The document's level-2 index (sections), built on first use and kept in the store."""
        if doc_id not in self._levels:
            doc = self.doc(doc_id)
            path = Path(doc.path)
            if file_state(path) != (doc.file_size, doc.mtime_ns):
                raise InputError(
                    f"{doc_id} changed since it was indexed; run `longread corpus update`"
                )
            shard = self.store.holding(doc_id)
            index = SingleDocIndex.build(path, shard.docstore)
            stored = shard.catalog.doc(doc_id)
            if stored is None or index.store_id != stored.store_id:
                raise InputError(
                    f"{doc_id} changed since it was indexed; run `longread corpus update`"
                )
            self._levels[doc_id] = index
        return self._levels[doc_id]

    def links(self, doc_id: str) -> tuple[list[str], list[str]]:
        """(the documents this one names, the documents naming it). A names B when A's text holds
        B's file name or distinctive title (as a phrase): found by full-text search when asked
        for, so links are always as current as the index."""
        row = self.doc(doc_id).row
        into = {
            src
            for _, name in self.store.catalog.names(row)
            for src in self.store.search.phrase_rows(name)
        } - {row}
        out = {dst for _, dst in self._named_in([row], self.store.catalog.names())} - {row}
        return self.store.catalog.doc_ids_of(out), self.store.catalog.doc_ids_of(into)

    def all_links(self) -> list[tuple[str, str]]:
        """Every (naming document, named document), sorted: one search per name in the corpus."""
        pairs = {
            (src, dst)
            for dst, name in self.store.catalog.names()
            for src in self.store.search.phrase_rows(name)
            if src != dst
        }
        ids = {d.row: d.doc_id for d in self.store.catalog.docs()}
        return sorted((ids[src], ids[dst]) for src, dst in pairs)

    def totals(self) -> tuple[int, int]:
        return self.store.catalog.totals()

    def clusters(self, min_size: int = 2, max_share: float = 0.2) -> dict[str, list[str]]:
        """Documents grouped by shared keywords: each document joins the group of its keyword that
        most documents share, among those that at least `min_size` documents and at most
        `max_share` of all have (ties go to the alphabetically first)."""
        usable = self._usable_keywords(min_size, max_share)
        groups: dict[str, list[str]] = defaultdict(list)
        for doc in self.store.catalog.docs():
            keys = [k for k in map(keyword_key, doc.meta["keywords"]) if k in usable]
            if keys:
                groups[min(keys, key=lambda k: (-len(usable[k]), k))].append(doc.doc_id)
        return {
            label: groups[label] for label in sorted(groups, key=lambda g: (-len(groups[g]), g))
        }

    def topics(
        self, min_size: int = 2, max_share: float = 0.2, limit: int = 50
    ) -> dict[str, list[str]]:
        """The keywords most documents share (each with its documents), commonest first."""
        usable = self._usable_keywords(min_size, max_share)
        best = sorted(usable, key=lambda k: (-len(usable[k]), k))[:limit]
        return {k: sorted(usable[k]) for k in best}

    def _usable_keywords(self, min_size: int, max_share: float) -> dict[str, list[str]]:
        total = self.totals()[0]
        postings: dict[str, list[int]] = defaultdict(list)
        for term, row in self.store.search.term_postings("keyword"):
            postings[term].append(row)
        usable = {
            t: rows
            for t, rows in postings.items()
            if min_size <= len(rows) <= max(min_size, max_share * total)
        }
        ids = {d.row: d.doc_id for d in self.store.catalog.docs()} if usable else {}
        return {t: [ids[r] for r in rows] for t, rows in usable.items()}

    # -- the JSON form ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Documents, inverted indexes, clusters, topics and links (see corpus_json)."""
        return corpus_dict(self)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(
            json.dumps(self.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8"
        )

    @staticmethod
    def saved_meta(path: str | Path) -> dict[str, ContentMeta]:
        """The metadata of a saved index by content hash, to reuse instead of asking a model
        again."""
        return saved_meta(path)

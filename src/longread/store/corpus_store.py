"""The SQLite store of a corpus: a DocStore (text blocks, and each document's sections once its
level-2 index is built) with the corpus level beside it in the same file, each job a repository
sharing the connection: `catalog` (the registry of documents by id, their path relative to the
corpus root, with their metadata and the terms they are indexed under) and `search` (one
full-text index over every document, built on first search in resumable steps, and lookups in
the inverted keyword / entity / date / name indexes; the names are what links documents). The
store itself opens and closes the file, keeps its settings and makes the writes that span both."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from longread.store.connection import bulk, first_value
from longread.store.corpus_catalog import Catalog, DocRecord, StoredDoc
from longread.store.corpus_search import CorpusSearch
from longread.store.docstore import DocStore
from longread.store.documents import NewText
from longread.store.section_search import FTS_BATCH_CHARS

_CORPUS_SCHEMA = """
CREATE TABLE IF NOT EXISTS corpus_docs (
    id INTEGER PRIMARY KEY,          -- the row of the document in corpus_fts
    doc_id TEXT NOT NULL UNIQUE,     -- its path relative to the corpus root
    store_id INTEGER NOT NULL REFERENCES documents(id),
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    chars INTEGER NOT NULL,
    meta TEXT NOT NULL               -- ContentMeta as JSON
);
CREATE INDEX IF NOT EXISTS corpus_docs_by_store ON corpus_docs(store_id);
-- what each question's start reads of every document, without reading the rows' metadata
CREATE INDEX IF NOT EXISTS corpus_docs_states ON corpus_docs(doc_id, file_size, mtime_ns, chars);
CREATE TABLE IF NOT EXISTS doc_terms (
    kind TEXT NOT NULL,              -- keyword, entity, date or name
    term TEXT NOT NULL,
    doc_id TEXT NOT NULL,            -- the document's id, so a lookup is one range scan in id order
    doc INTEGER NOT NULL,            -- its row in corpus_docs
    PRIMARY KEY (kind, term, doc_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS doc_terms_by_doc ON doc_terms(doc);
-- documents not yet in corpus_fts
CREATE TABLE IF NOT EXISTS fts_pending (row INTEGER PRIMARY KEY);
"""
_CORPUS_FTS = (
    "\nCREATE VIRTUAL TABLE corpus_fts USING fts5(title, body, content='', "
    """tokenize='unicode61 remove_diacritics 2');
INSERT INTO corpus_fts (corpus_fts, rank) VALUES ('automerge', 16);  -- merge less often while
INSERT INTO corpus_fts (corpus_fts, rank) VALUES ('crisismerge', 64);  -- building: 1.5x faster
"""
)
SMALL_CORPUS = 1_000  # a search for several words in fewer documents keeps even the common ones
CACHE_KB = 65_536  # 1,000 pages of 64 KB: a batch's inserts into the postings stay in memory


class CorpusStore:
    """A corpus in one SQLite file (WAL mode), on top of the document store's tables: `docstore`
    (whose `documents` and `sections` it reads texts and sections through), `catalog` and
    `search`."""

    def __init__(
        self,
        path: str | Path,
        small_corpus: int = SMALL_CORPUS,
        fts_batch_chars: int = FTS_BATCH_CHARS,
    ):
        self.docstore = DocStore(path, fts_batch_chars=fts_batch_chars)
        self.path, self.db = self.docstore.path, self.docstore.db
        self.documents, self.sections = self.docstore.documents, self.docstore.sections
        self.db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
        with self.docstore.building():  # (another process may be making the same tables)
            self.db.executescript(_CORPUS_SCHEMA)
            found = "SELECT 1 FROM sqlite_master WHERE name = 'corpus_fts'"
            if not self.db.execute(found).fetchone():
                self.db.executescript(_CORPUS_FTS)
            self.db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS corpus_vocab USING fts5vocab(corpus_fts, 'row')"
            )
            self.db.commit()
        self.catalog = Catalog(self.db, self.documents)
        self.search = CorpusSearch(
            self.db, self.documents, self.catalog, fts_batch_chars, small_corpus
        )

    @property
    def databases(self) -> list[Path]:
        """The database files of this corpus (one: this store's)."""
        return [self.path]

    def holding(self, doc_id: str) -> CorpusStore:
        """The store that holds the document `doc_id` (this one)."""
        return self

    # -- settings and the root folder ------------------------------------------------------
    def setting(self, key: str) -> str | None:
        return first_value(self.db, "SELECT value FROM meta WHERE key = ?", (key,))

    def set_setting(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def root(self) -> str | None:
        return self.setting("corpus_root")

    def set_root(self, root: str) -> None:
        self.set_setting("corpus_root", root)

    # -- writing: the texts, the catalogue and the full-text index in one transaction ----------
    def add_records(self, records: Iterable[DocRecord]) -> list[int]:
        """Store documents (text, registry row, index terms) in one transaction; returns their
        rows. A text already stored (same content hash) is shared, not stored twice. Their full
        text is indexed afterwards, in steps (see CorpusSearch.build)."""
        records = list(records)
        with bulk(self.db):
            stored = self.documents.find_all({r.digest for r in records})
            new = {
                r.digest: NewText(r.path, r.kind, r.text, r.doc_type, r.pages, r.digest)
                for r in records
                if r.digest not in stored
            }  # (a text twice in the batch is stored once)
            stored.update(zip(new, self.documents.insert(list(new.values())), strict=True))
            rows = self.catalog.register(records, stored)
            self.search.queue(rows)
        return rows

    def remove_docs(self, doc_ids: Iterable[str]) -> list[str]:
        """Forget documents: registry, terms, full text; the stored text too unless another
        document has the same content. Returns the ids that were registered."""
        removed, orphans = [], []
        with bulk(self.db):
            for doc_id in doc_ids:
                doc = self.catalog.doc(doc_id)
                if doc is None:
                    continue
                self.search.remove(doc)
                if self.catalog.remove(doc):
                    orphans.append(doc.store_id)
                removed.append(doc_id)
        for store_id in orphans:
            self.docstore.remove_document(store_id)
        return removed

    def replace_meta(
        self, changes: Iterable[tuple[StoredDoc, dict[str, Any], dict[str, list[str]]]]
    ) -> None:
        """Give documents new metadata and index terms."""
        with bulk(self.db):
            for doc, meta, terms in changes:
                if meta["title"] != doc.meta["title"]:
                    self.search.retitle(doc, meta["title"])
                self.catalog.set_meta(doc, meta, terms)

    def keep_only(self, keep: Callable[[str], bool]) -> None:
        """Forget every document whose id `keep` rejects, at once (a copy of a corpus becoming one
        of its shards): the full-text index is emptied and takes in the documents kept anew."""
        with bulk(self.db):
            for text in self.catalog.keep_only(keep):
                self.docstore.drop_document(text)
            self.search.restart()
        self.db.execute("VACUUM")

    def close(self) -> None:
        self.docstore.close()

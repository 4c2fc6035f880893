"""The SQLite store of a corpus: a DocStore (text blocks, and each document's sections once its
level-2 index is built) plus the corpus level: the registry of documents by id (their path relative
to the corpus root) with their metadata, one full-text index over every document (built on first
search, in resumable steps), inverted keyword / entity / date / name indexes (the names are what
links documents); their searches are in corpus_search. Every corpus SQL statement lives in these
two modules."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from longread.store.corpus_search import CorpusSearch
from longread.store.docstore import DocStore, NewText
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


def file_states(db: sqlite3.Connection) -> dict[str, tuple[int, int]]:
    """doc id -> (file size, mtime in ns) as last indexed, in the corpus database `db`."""
    rows = db.execute("SELECT doc_id, file_size, mtime_ns FROM corpus_docs")
    return {doc_id: (size, mtime_ns) for doc_id, size, mtime_ns in rows}


@dataclass
class DocRecord:
    """One file ready to be stored: its text, identity on disk, metadata and index terms."""

    doc_id: str
    path: str
    kind: str
    text: str
    digest: str
    file_size: int
    mtime_ns: int
    meta_json: (
        str  # ContentMeta as JSON (written where the record is made, not by the store's writer)
    )
    doc_type: str
    terms: dict[str, list[str]]  # kind -> index keys
    pages: list[tuple[int, int, int]] | None = None


@dataclass
class StoredDoc:
    """A registered document as the corpus index reads it back."""

    row: int
    doc_id: str
    store_id: int
    path: str
    kind: str
    file_size: int
    mtime_ns: int
    content_hash: str
    chars: int
    meta: dict[str, Any]


_DOC_COLUMNS = "id, doc_id, store_id, path, kind, file_size, mtime_ns, content_hash, chars, meta"


def _stored(row: Sequence[Any]) -> StoredDoc:
    row_id, doc_id, store_id, path, kind, size, mtime_ns, digest, chars, meta = row
    return StoredDoc(
        row_id, doc_id, store_id, path, kind, size, mtime_ns, digest, chars, json.loads(meta)
    )


class CorpusStore(DocStore, CorpusSearch):
    """A corpus in one SQLite file (WAL mode), on top of the document store's tables."""

    def __init__(
        self,
        path: str | Path,
        small_corpus: int = SMALL_CORPUS,
        fts_batch_chars: int = FTS_BATCH_CHARS,
    ):
        super().__init__(path, fts_batch_chars=fts_batch_chars)
        self.small_corpus = small_corpus
        self._count: int | None = None  # documents registered, while none is added or removed
        self.db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
        with self.building():  # (another process may be making the same tables)
            self.db.executescript(_CORPUS_SCHEMA)
            found = "SELECT 1 FROM sqlite_master WHERE name = 'corpus_fts'"
            if not self.db.execute(found).fetchone():
                self.db.executescript(_CORPUS_FTS)
            self.db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS corpus_vocab USING fts5vocab(corpus_fts, 'row')"
            )
            self.db.commit()

    @property
    def databases(self) -> list[Path]:
        """The database files of this corpus (one: this store's)."""
        return [self.path]

    def holding(self, doc_id: str) -> CorpusStore:
        """The store that holds the document `doc_id` (this one)."""
        return self

    # -- the root folder ------------------------------------------------------------------
    def root(self) -> str | None:
        return self.setting("corpus_root")

    def set_root(self, root: str) -> None:
        self.set_setting("corpus_root", root)

    # -- writing ------------------------------------------------------------------------------
    def add_records(self, records: Iterable[DocRecord]) -> list[int]:
        """Store documents (text, registry row, index terms) in one transaction; returns their
        rows. A text already stored (same content hash) is shared, not stored twice. Their full
        text is indexed afterwards, in steps (see ensure_fts_corpus)."""
        records = list(records)
        self._count = None
        with self._bulk():
            stored = self._stored_ids({r.digest for r in records})
            new = {
                r.digest: NewText(r.path, r.kind, r.text, r.doc_type, r.pages, r.digest)
                for r in records
                if r.digest not in stored
            }  # (a text twice in the batch is stored once)
            stored.update(zip(new, self._insert_documents(list(new.values())), strict=True))
            top = "SELECT coalesce(max(id), 0) + 1 FROM corpus_docs"
            (first,) = self.db.execute(top).fetchone()
            rows = list(range(first, first + len(records)))
            self.db.executemany(
                "INSERT INTO corpus_docs (id, doc_id, store_id, path, kind, file_size, mtime_ns, "
                "content_hash, chars, meta) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        row,
                        r.doc_id,
                        stored[r.digest],
                        r.path,
                        r.kind,
                        r.file_size,
                        r.mtime_ns,
                        r.digest,
                        len(r.text),
                        r.meta_json,
                    )
                    for row, r in zip(rows, records, strict=True)
                ],
            )
            terms = sorted(
                (kind, term, r.doc_id, row)
                for row, r in zip(rows, records, strict=True)
                for kind, keys in r.terms.items()
                for term in keys
            )
            self.db.executemany(
                "INSERT OR IGNORE INTO doc_terms VALUES (?, ?, ?, ?)", terms
            )  # in key order
            self.db.executemany("INSERT INTO fts_pending VALUES (?)", ((row,) for row in rows))
        return rows

    def _stored_ids(self, digests: set[str]) -> dict[str, int]:
        """Content hash -> id of the stored texts among `digests` (one query)."""
        marks = ",".join("?" * len(digests))
        return dict(
            self.db.execute(
                f"SELECT content_hash, id FROM documents WHERE content_hash IN ({marks})",
                list(digests),
            )
        )

    def remove_docs(self, doc_ids: Iterable[str]) -> list[str]:
        """Forget documents: registry, terms, full text; the stored text too unless another
        document has the same content. Returns the ids that were registered."""
        removed, orphans = [], []
        self._count = None
        with self._bulk():
            for doc_id in doc_ids:
                doc = self.doc(doc_id)
                if doc is None:
                    continue
                if self._indexed(doc.row):
                    self._fts_delete(
                        doc.row,
                        doc.meta.get("title", ""),
                        self.read_range(doc.store_id, 0, doc.chars),
                    )
                self.db.execute("DELETE FROM fts_pending WHERE row = ?", (doc.row,))
                self.db.execute("DELETE FROM doc_terms WHERE doc = ?", (doc.row,))
                self.db.execute("DELETE FROM corpus_docs WHERE id = ?", (doc.row,))
                if not self.db.execute(
                    "SELECT 1 FROM corpus_docs WHERE store_id = ?", (doc.store_id,)
                ).fetchone():
                    orphans.append(doc.store_id)
                removed.append(doc_id)
        for store_id in orphans:
            self.remove_document(store_id)
        return removed

    def replace_meta(
        self, changes: Iterable[tuple[StoredDoc, dict[str, Any], dict[str, list[str]]]]
    ) -> None:
        """Give documents new metadata and index terms."""
        with self._bulk():
            for doc, meta, terms in changes:
                renamed = meta["title"] != doc.meta["title"]
                if renamed and self._indexed(doc.row):  # (a pending one gets its new title)
                    text = self.read_range(doc.store_id, 0, doc.chars)
                    self._fts_delete(doc.row, doc.meta["title"], text)
                    self.db.execute(
                        "INSERT INTO corpus_fts (rowid, title, body) VALUES (?, ?, ?)",
                        (doc.row, meta["title"], text),
                    )
                self.db.execute(
                    "UPDATE corpus_docs SET meta = ? WHERE id = ?",
                    (json.dumps(meta, ensure_ascii=False), doc.row),
                )
                self.db.execute("DELETE FROM doc_terms WHERE doc = ?", (doc.row,))
                self.db.executemany(
                    "INSERT OR IGNORE INTO doc_terms VALUES (?, ?, ?, ?)",
                    (
                        (kind, term, doc.doc_id, doc.row)
                        for kind, keys in terms.items()
                        for term in keys
                    ),
                )

    def keep_only(self, keep: Callable[[str], bool]) -> None:
        """Forget every document whose id `keep` rejects, at once (a copy of a corpus becoming one
        of its shards): the full-text index is emptied and takes in the documents kept anew."""
        docs = self.db.execute("SELECT id, doc_id, store_id FROM corpus_docs").fetchall()
        kept_texts = {text for _, doc_id, text in docs if keep(doc_id)}
        dropped = [(row,) for row, doc_id, _ in docs if not keep(doc_id)]
        self._count = None
        with self._bulk():
            self.db.executemany("DELETE FROM doc_terms WHERE doc = ?", dropped)
            self.db.executemany("DELETE FROM corpus_docs WHERE id = ?", dropped)
            for text in {text for _, _, text in docs} - kept_texts:
                self._drop_text(text)
            self.db.execute("INSERT INTO corpus_fts (corpus_fts) VALUES ('delete-all')")
            self.db.execute("DELETE FROM fts_pending")
            self.db.execute("INSERT INTO fts_pending SELECT id FROM corpus_docs")
        self.db.execute("VACUUM")

    def digest(self) -> str:
        """A digest of the documents held: their ids and content hashes."""
        digest = hashlib.sha256()
        for doc_id, content in self.db.execute(
            "SELECT doc_id, content_hash FROM corpus_docs ORDER BY doc_id"
        ):
            digest.update(f"{doc_id}\0{content}\n".encode())
        return digest.hexdigest()[:16]

    def rows_with_meta_source(self, source: str) -> list[int]:
        """Rows of the documents whose metadata came from `source` ("rules": no model read them)."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT id FROM corpus_docs WHERE json_extract(meta, '$.source') = ? ORDER BY id",
                (source,),
            )
        ]

    def touch(self, doc_id: str, file_size: int, mtime_ns: int) -> None:
        """Record a file's new size and time when its text did not change."""
        with self.db:
            self.db.execute(
                "UPDATE corpus_docs SET file_size = ?, mtime_ns = ? WHERE doc_id = ?",
                (file_size, mtime_ns, doc_id),
            )

    # -- reading ------------------------------------------------------------------------------
    def names(self, row: int | None = None) -> list[tuple[int, str]]:
        """(row, name) of the documents' names (file names and titles, as index words): of one
        document, or of all."""
        if row is None:
            return self.db.execute("SELECT doc, term FROM doc_terms WHERE kind = 'name'").fetchall()
        return self.db.execute(
            "SELECT doc, term FROM doc_terms WHERE kind = 'name' AND doc = ?", (row,)
        ).fetchall()

    def doc(self, doc_id: str) -> StoredDoc | None:
        row = self.db.execute(
            f"SELECT {_DOC_COLUMNS} FROM corpus_docs WHERE doc_id = ?", (doc_id,)
        ).fetchone()
        return _stored(row) if row else None

    def docs(self, rows: Sequence[int] | None = None, limit: int = -1) -> list[StoredDoc]:
        """Registered documents in id order (all, the first `limit`, or those with the given
        rows)."""
        if rows is None:
            found = self.db.execute(
                f"SELECT {_DOC_COLUMNS} FROM corpus_docs ORDER BY doc_id LIMIT ?", (limit,)
            ).fetchall()
        else:
            found = [
                self.db.execute(
                    f"SELECT {_DOC_COLUMNS} FROM corpus_docs WHERE id = ?", (r,)
                ).fetchone()
                for r in rows
            ]
        return [_stored(row) for row in found if row]

    def doc_ids(self, folder: str = "") -> list[str]:
        """The documents' ids in order: all, or those inside `folder` (a path in the corpus)."""
        low, high = (f"{folder}/", f"{folder}0") if folder else ("", "\U0010ffff")  # ('0': '/'+1)
        query = "SELECT doc_id FROM corpus_docs WHERE doc_id >= ? AND doc_id < ? ORDER BY doc_id"
        return [r[0] for r in self.db.execute(query, (low, high))]

    def doc_sizes(self) -> list[tuple[str, int]]:
        """(doc id, characters) of every document, in id order."""
        return self.db.execute("SELECT doc_id, chars FROM corpus_docs ORDER BY doc_id").fetchall()

    def file_states(self, doc_ids: Sequence[str] | None = None) -> dict[str, tuple[int, int]]:
        """doc id -> (file size, mtime in ns) as last indexed: of every document, or of those
        among `doc_ids`."""
        if doc_ids is None:
            return file_states(self.db)
        found: dict[str, tuple[int, int]] = {}
        for at in range(0, len(doc_ids), 500):
            part = list(doc_ids[at : at + 500])
            rows = self.db.execute(
                "SELECT doc_id, file_size, mtime_ns FROM corpus_docs "
                f"WHERE doc_id IN ({','.join('?' * len(part))})",
                part,
            )
            found.update((doc_id, (size, mtime_ns)) for doc_id, size, mtime_ns in rows)
        return found

    def totals(self) -> tuple[int, int]:
        """(documents, characters)."""
        count, chars = self.db.execute(
            "SELECT count(*), coalesce(sum(chars), 0) FROM corpus_docs"
        ).fetchone()
        return count, chars

    def doc_ids_of(self, rows: Iterable[int]) -> list[str]:
        """The ids of the documents in the given rows, sorted."""
        wanted = set(rows)
        return sorted(
            d for r, d in self.db.execute("SELECT id, doc_id FROM corpus_docs") if r in wanted
        )

    def iter_corpus_blocks(
        self, doc_ids: Sequence[str] | None = None
    ) -> Iterator[tuple[str, int, str]]:
        """(doc id, offset, text block) over the documents in id order, streamed."""
        if doc_ids is None:
            yield from self.db.execute(
                "SELECT c.doc_id, b.start, b.body FROM corpus_docs c JOIN text_blocks b "
                "ON b.doc_id = c.store_id ORDER BY c.doc_id, b.start"
            )
            return
        for doc_id in doc_ids:
            doc = self.doc(doc_id)
            if doc is not None:
                yield from ((doc_id, start, body) for start, body in self.iter_blocks(doc.store_id))

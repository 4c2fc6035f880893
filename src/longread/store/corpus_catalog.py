"""A corpus's catalogue: the registry of its documents by id (their path relative to the corpus
root), each with the text it holds, its file's state and its metadata, and the terms it is indexed
under (keywords, entities, dates and names; the names are what links documents)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from longread.store.documents import Documents


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


def file_states(db: sqlite3.Connection) -> dict[str, tuple[int, int]]:
    """doc id -> (file size, mtime in ns) as last indexed, in the corpus database `db`."""
    rows = db.execute("SELECT doc_id, file_size, mtime_ns FROM corpus_docs")
    return {doc_id: (size, mtime_ns) for doc_id, size, mtime_ns in rows}


class Catalog:
    """The tables corpus_docs and doc_terms, over a corpus store's connection (the documents'
    text read through `documents`). Its writes are made inside the caller's transaction, but for
    `touch`."""

    def __init__(self, db: sqlite3.Connection, documents: Documents):
        self.db = db
        self._documents = documents
        self._count: int | None = None  # documents registered, while none is added or removed

    # -- writing ------------------------------------------------------------------------------
    def register(self, records: Sequence[DocRecord], texts: dict[str, int]) -> list[int]:
        """Register documents with their index terms (`texts`: content hash -> the id of the text
        stored); returns their rows."""
        self._count = None
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
                    texts[r.digest],
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
        return rows

    def remove(self, doc: StoredDoc) -> bool:
        """Forget a document and its terms; whether its text is now held by no document."""
        self._count = None
        self.db.execute("DELETE FROM doc_terms WHERE doc = ?", (doc.row,))
        self.db.execute("DELETE FROM corpus_docs WHERE id = ?", (doc.row,))
        return not self.db.execute(
            "SELECT 1 FROM corpus_docs WHERE store_id = ?", (doc.store_id,)
        ).fetchone()

    def set_meta(self, doc: StoredDoc, meta: dict[str, Any], terms: dict[str, list[str]]) -> None:
        """Give a document new metadata and index terms."""
        self.db.execute(
            "UPDATE corpus_docs SET meta = ? WHERE id = ?",
            (json.dumps(meta, ensure_ascii=False), doc.row),
        )
        self.db.execute("DELETE FROM doc_terms WHERE doc = ?", (doc.row,))
        self.db.executemany(
            "INSERT OR IGNORE INTO doc_terms VALUES (?, ?, ?, ?)",
            ((kind, term, doc.doc_id, doc.row) for kind, keys in terms.items() for term in keys),
        )

    def keep_only(self, keep: Callable[[str], bool]) -> set[int]:
        """Forget every document whose id `keep` rejects, at once; the ids of the texts that no
        document kept holds."""
        docs = self.db.execute("SELECT id, doc_id, store_id FROM corpus_docs").fetchall()
        kept_texts = {text for _, doc_id, text in docs if keep(doc_id)}
        dropped = [(row,) for row, doc_id, _ in docs if not keep(doc_id)]
        self._count = None
        self.db.executemany("DELETE FROM doc_terms WHERE doc = ?", dropped)
        self.db.executemany("DELETE FROM corpus_docs WHERE id = ?", dropped)
        return {text for _, _, text in docs} - kept_texts

    def touch(self, doc_id: str, file_size: int, mtime_ns: int) -> None:
        """Record a file's new size and time when its text did not change."""
        with self.db:
            self.db.execute(
                "UPDATE corpus_docs SET file_size = ?, mtime_ns = ? WHERE doc_id = ?",
                (file_size, mtime_ns, doc_id),
            )

    # -- reading ------------------------------------------------------------------------------
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

    def count(self) -> int:
        """How many documents are registered (counted again only once some were added or
        removed)."""
        if self._count is None:
            self._count = self.totals()[0]
        return self._count

    def doc_ids_of(self, rows: Iterable[int]) -> list[str]:
        """The ids of the documents in the given rows, sorted."""
        wanted = set(rows)
        return sorted(
            d for r, d in self.db.execute("SELECT id, doc_id FROM corpus_docs") if r in wanted
        )

    def iter_blocks(self, doc_ids: Sequence[str] | None = None) -> Iterator[tuple[str, int, str]]:
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
                yield from (
                    (doc_id, start, body)
                    for start, body in self._documents.iter_blocks(doc.store_id)
                )

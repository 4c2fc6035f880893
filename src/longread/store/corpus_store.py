"""The SQLite store of a corpus: a DocStore (text blocks, and each document's sections once its
level-2 index is built) plus the corpus level: the registry of documents by id (their path relative
to the corpus root) with their metadata, one full-text index over every document (built on first
search, in resumable steps), inverted keyword / entity / date / name indexes (the names are what
links documents). Every corpus SQL statement lives here."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from longread.store.docstore import FTS_BATCH_CHARS, DocStore, NewText, fts_query

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
CREATE TABLE IF NOT EXISTS doc_terms (
    kind TEXT NOT NULL,              -- keyword, entity, date or name
    term TEXT NOT NULL,
    doc_id TEXT NOT NULL,            -- the document's id, so a lookup is one range scan in id order
    doc INTEGER NOT NULL,            -- its row in corpus_docs
    PRIMARY KEY (kind, term, doc_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS doc_terms_by_doc ON doc_terms(doc);
CREATE TABLE IF NOT EXISTS fts_pending (row INTEGER PRIMARY KEY);  -- documents not yet in corpus_fts
"""
_CORPUS_FTS = """
CREATE VIRTUAL TABLE corpus_fts USING fts5(title, body, content='', tokenize='unicode61 remove_diacritics 2');
INSERT INTO corpus_fts (corpus_fts, rank) VALUES ('automerge', 16);  -- merge less often while
INSERT INTO corpus_fts (corpus_fts, rank) VALUES ('crisismerge', 64);  -- building: 1.5x faster
"""
SMALL_CORPUS = 1_000  # a search for several words in fewer documents keeps even the common ones
CACHE_KB = (
    65_536  # 1,000 pages of 64 KB: a batch's inserts into the postings stay in memory till commit
)
RANK_POSTINGS = (
    10_000  # documents a ranked search scores at most (more only if its rarest word is in more)
)


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
    return StoredDoc(*row[:-1], json.loads(row[-1]))


class CorpusStore(DocStore):
    """A corpus in one SQLite file (WAL mode), on top of the document store's tables."""

    def __init__(
        self,
        path: str | Path,
        small_corpus: int = SMALL_CORPUS,
        fts_batch_chars: int = FTS_BATCH_CHARS,
    ):
        super().__init__(path, fts_batch_chars=fts_batch_chars)
        self.small_corpus = small_corpus
        self._count: int | None = (
            None  # documents registered, kept while nothing is added or removed
        )
        self.db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
        self.db.executescript(_CORPUS_SCHEMA)
        if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'corpus_fts'").fetchone():
            self.db.executescript(_CORPUS_FTS)
        self.db.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS corpus_vocab USING fts5vocab(corpus_fts, 'row')"
        )
        self.db.commit()

    # -- the root folder -------------------------------------------------------------------
    def root(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'corpus_root'").fetchone()
        return row[0] if row else None

    def set_root(self, root: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('corpus_root', ?)", (root,))

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
            first = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM corpus_docs").fetchone()[
                0
            ]
            rows = list(range(first, first + len(records)))
            self.db.executemany(
                "INSERT INTO corpus_docs (id, doc_id, store_id, path, kind, file_size, mtime_ns, content_hash, "
                "chars, meta) VALUES (?,?,?,?,?,?,?,?,?,?)",
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

    def ensure_fts_corpus(self, on_progress: Callable[[int, int], None] | None = None) -> None:
        """Index the full text of the documents not yet indexed. Each step indexes about
        `fts_batch_chars` of text and commits, so an interrupted build resumes where it stopped;
        on_progress(documents indexed, documents to index) is called after each step."""
        todo = self.db.execute("SELECT count(*) FROM fts_pending").fetchone()[0]
        done = 0
        while done < todo and (step := self._fts_step()):
            done += step
            if on_progress is not None:
                on_progress(min(done, todo), todo)

    def _fts_step(self) -> int:
        """Index the next pending documents, in one transaction; returns how many."""
        with self._bulk():
            pending = self.db.execute(
                "SELECT c.id, json_extract(c.meta, '$.title'), c.store_id, c.chars "
                "FROM fts_pending p JOIN corpus_docs c ON c.id = p.row ORDER BY p.row"
            )
            step, size = [], 0
            for row, title, store_id, chars in pending:  # (read only as far as the step goes)
                if step and size + chars > self.fts_batch_chars:
                    break
                step.append((row, title, store_id, chars))
                size += chars
            pending.close()
            self.db.executemany(
                "INSERT INTO corpus_fts (rowid, title, body) VALUES (?, ?, ?)",
                (
                    (row, title, self.read_range(store_id, 0, chars))
                    for row, title, store_id, chars in step
                ),
            )
            self.db.executemany(
                "DELETE FROM fts_pending WHERE row = ?", ((row,) for row, *_ in step)
            )
        return len(step)

    def _indexed(self, row: int) -> bool:
        """Whether the document's full text is in corpus_fts."""
        return not self.db.execute("SELECT 1 FROM fts_pending WHERE row = ?", (row,)).fetchone()

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
                if meta["title"] != doc.meta["title"] and self._indexed(
                    doc.row
                ):  # (a pending one is
                    text = self.read_range(
                        doc.store_id, 0, doc.chars
                    )  # indexed with its new title)
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

    def _fts_delete(self, row: int, title: str, text: str) -> None:
        """Take a document out of the contentless full-text index (given what it was indexed with)."""
        self.db.execute(
            "INSERT INTO corpus_fts (corpus_fts, rowid, title, body) VALUES ('delete', ?, ?, ?)",
            (row, title, text),
        )

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
        """Registered documents in id order (all, the first `limit`, or those with the given rows)."""
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

    def doc_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT doc_id FROM corpus_docs ORDER BY doc_id")]

    def doc_sizes(self) -> list[tuple[str, int]]:
        """(doc id, characters) of every document, in id order."""
        return self.db.execute("SELECT doc_id, chars FROM corpus_docs ORDER BY doc_id").fetchall()

    def file_states(self) -> dict[str, tuple[int, int]]:
        """doc id -> (file size, mtime in ns) as last indexed."""
        return {
            d: (s, m)
            for d, s, m in self.db.execute("SELECT doc_id, file_size, mtime_ns FROM corpus_docs")
        }

    def totals(self) -> tuple[int, int]:
        """(documents, characters)."""
        count, chars = self.db.execute(
            "SELECT count(*), coalesce(sum(chars), 0) FROM corpus_docs"
        ).fetchone()
        return count, chars

    def lookup(self, kind: str, term: str) -> list[str]:
        """Ids of the documents indexed under `term` (an exact key) of `kind`."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT doc_id FROM doc_terms WHERE kind = ? AND term = ? ORDER BY doc_id",
                (kind, term),
            )
        ]

    def lookup_range(self, kind: str, low: str, high: str) -> list[str]:
        """Ids of the documents with a term of `kind` in [low, high)."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT DISTINCT doc_id FROM doc_terms WHERE kind = ? AND term >= ? AND term < ? ORDER BY doc_id",
                (kind, low, high),
            )
        ]

    def term_postings(self, kind: str) -> Iterator[tuple[str, int]]:
        """(term, document row) for every term of `kind`, grouped by term."""
        yield from self.db.execute(
            "SELECT term, doc FROM doc_terms WHERE kind = ? ORDER BY term", (kind,)
        )

    def rank(self, words: Iterable[str], k: int) -> list[tuple[str, float]]:
        """(doc id, BM25 score, higher is better) of the k documents best matching any of the
        words (as the index spells them: lower case, no diacritics); a title match weighs more
        than one in the body. Words most documents hold are left out of a search for several."""
        self.ensure_fts_corpus()
        match = fts_query(self._distinctive(list(dict.fromkeys(words))))
        if not match:
            return []
        rows = self.db.execute(
            "SELECT c.doc_id, f.score FROM (SELECT rowid, bm25(corpus_fts, 4.0, 1.0) AS score FROM corpus_fts "
            "WHERE corpus_fts MATCH ? ORDER BY score LIMIT ?) f JOIN corpus_docs c ON c.id = f.rowid "
            "ORDER BY f.score, c.doc_id LIMIT ?",
            (match, 2 * k + 10, k),
        ).fetchall()  # ties by id
        return [(doc_id, -score) for doc_id, score in rows]

    def _distinctive(
        self, words: list[str], common: float = 0.1, postings: int = RANK_POSTINGS
    ) -> list[str]:
        """The words that at most `common` of the documents hold (BM25 weighs the others near zero,
        and each makes a search of a large corpus read a long list); the two rarest if all are
        that common. Of those, the rarest while the documents holding them number at most
        `postings` in all (BM25 scores each one), and the rarest one always. All of the words in
        a corpus of under `small_corpus` documents."""
        if self._count is None:
            self._count = self.totals()[0]
        total = self._count
        if len(words) < 2 or total < self.small_corpus:
            return words
        held = dict(
            self.db.execute(
                f"SELECT term, doc FROM corpus_vocab WHERE term IN ({','.join('?' * len(words))})",
                words,
            )
        )
        limit = common * total
        kept = [w for w in words if held.get(w, 0) <= limit] or sorted(
            words, key=lambda w: held.get(w, 0)
        )[:2]
        chosen, total = set(), 0
        for word in sorted(kept, key=lambda w: held.get(w, 0)):
            total += held.get(word, 0)
            if chosen and total > postings:
                break
            chosen.add(word)
        return [w for w in kept if w in chosen]

    def phrase_rows(self, phrase: str, rows: Sequence[int] | None = None) -> list[int]:
        """Rows of the documents whose title or text holds the words of `phrase` in a row (all
        documents, or only `rows`)."""
        self.ensure_fts_corpus()
        query = f'"{phrase}"'
        if rows is None:
            return [
                r[0]
                for r in self.db.execute(
                    "SELECT rowid FROM corpus_fts WHERE corpus_fts MATCH ?", (query,)
                )
            ]
        marks = ",".join("?" * len(rows))
        return [
            r[0]
            for r in self.db.execute(
                f"SELECT rowid FROM corpus_fts WHERE corpus_fts MATCH ? AND rowid IN ({marks})",
                (query, *rows),
            )
        ]

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

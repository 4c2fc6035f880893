"""A corpus's searches: the full-text index over every document (built in resumable steps, BM25
ranking that leaves out words most documents hold, phrase search) and lookups in the inverted
keyword / entity / date / name indexes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence

from longread.store.bm25 import Stats, scores, table_stats
from longread.store.connection import bulk
from longread.store.corpus_catalog import Catalog, StoredDoc
from longread.store.documents import Documents
from longread.store.search_terms import distinctive, fts_query, rows_holding
from longread.text.patterns import IndexTerm

WEIGHTS = {"title": 4.0, "body": 1.0}  # a word in a title counts four times
RANK_POSTINGS = (
    10_000  # documents a ranked search scores at most (more only if its rarest word is in more)
)


class CorpusSearch:
    """corpus_fts (with fts_pending, the documents waiting to go into it) and the lookups in
    doc_terms, over a corpus store's connection (the documents' text read through `documents`,
    their ids through `catalog`)."""

    def __init__(
        self,
        db: sqlite3.Connection,
        documents: Documents,
        catalog: Catalog,
        fts_batch_chars: int,
        small_corpus: int,
    ):
        self.db = db
        self._documents = documents
        self._catalog = catalog
        self.fts_batch_chars = fts_batch_chars
        self.small_corpus = small_corpus

    def build(self, on_progress: Callable[[int, int], None] | None = None) -> None:
        """Index the full text of the documents not yet indexed. Each step indexes about
        `fts_batch_chars` of text and commits, so an interrupted build resumes where it stopped;
        on_progress(documents indexed, documents to index) is called after each step."""
        todo = self.pending()
        done = 0
        while done < todo and (step := self._step()):
            done += step
            if on_progress is not None:
                on_progress(min(done, todo), todo)

    def _step(self) -> int:
        """Index the next pending documents, in one transaction; returns how many."""
        with bulk(self.db):
            pending = self.db.execute(
                "SELECT c.id, json_extract(c.meta, '$.title'), c.store_id, c.chars "
                "FROM fts_pending p JOIN corpus_docs c ON c.id = p.row ORDER BY p.row"
            )
            step: list[tuple[int, str, int, int]] = []
            size = 0
            for row, title, store_id, chars in pending:  # (read only as far as the step goes)
                if step and size + chars > self.fts_batch_chars:
                    break
                step.append((row, title, store_id, chars))
                size += chars
            pending.close()
            self.db.executemany(
                "INSERT INTO corpus_fts (rowid, title, body) VALUES (?, ?, ?)",
                (
                    (row, title, self._documents.read_range(store_id, 0, chars))
                    for row, title, store_id, chars in step
                ),
            )
            self.db.executemany(
                "DELETE FROM fts_pending WHERE row = ?", ((row,) for row, *_ in step)
            )
        return len(step)

    def documents_holding(self, terms: Sequence[IndexTerm]) -> list[str] | None:
        """Ids of the documents whose title or text holds the rarest of `terms`, in id order (see
        `rows_holding`); None while some documents are not in the full-text index."""
        if not terms or self.db.execute("SELECT 1 FROM fts_pending LIMIT 1").fetchone():
            return None
        rows = rows_holding(
            self.db, [("corpus_fts", "corpus_vocab")], terms, self._catalog.totals()[0]
        )
        return None if rows is None else self._catalog.doc_ids_of(rows)

    def pending(self) -> int:
        """How many documents wait to go into the full-text index."""
        return self.db.execute("SELECT count(*) FROM fts_pending").fetchone()[0]

    # -- keeping it in step with the catalogue (inside the caller's transaction) -------------
    def queue(self, rows: Iterable[int]) -> None:
        """Put documents in line for the full-text index (see `build`)."""
        self.db.executemany("INSERT INTO fts_pending VALUES (?)", ((row,) for row in rows))

    def remove(self, doc: StoredDoc) -> None:
        """Take a document out of the full-text index, or out of the line for it."""
        if self._indexed(doc.row):
            self._delete(doc.row, doc.meta.get("title", ""), self._text(doc))
        self.db.execute("DELETE FROM fts_pending WHERE row = ?", (doc.row,))

    def retitle(self, doc: StoredDoc, title: str) -> None:
        """Index a document under its new title (one still in line gets it when indexed)."""
        if self._indexed(doc.row):
            text = self._text(doc)
            self._delete(doc.row, doc.meta["title"], text)
            self.db.execute(
                "INSERT INTO corpus_fts (rowid, title, body) VALUES (?, ?, ?)",
                (doc.row, title, text),
            )

    def restart(self) -> None:
        """Empty the full-text index and put every document in line for it again."""
        self.db.execute("INSERT INTO corpus_fts (corpus_fts) VALUES ('delete-all')")
        self.db.execute("DELETE FROM fts_pending")
        self.db.execute("INSERT INTO fts_pending SELECT id FROM corpus_docs")

    def _indexed(self, row: int) -> bool:
        """Whether the document's full text is in corpus_fts."""
        return not self.db.execute("SELECT 1 FROM fts_pending WHERE row = ?", (row,)).fetchone()

    def _text(self, doc: StoredDoc) -> str:
        return self._documents.read_range(doc.store_id, 0, doc.chars)

    def _delete(self, row: int, title: str, text: str) -> None:
        """Take a document out of the contentless full-text index (given what it was indexed
        with)."""
        self.db.execute(
            "INSERT INTO corpus_fts (corpus_fts, rowid, title, body) VALUES ('delete', ?, ?, ?)",
            (row, title, text),
        )

    # -- lookups and searches ------------------------------------------------------------------
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
                "SELECT DISTINCT doc_id FROM doc_terms "
                "WHERE kind = ? AND term >= ? AND term < ? ORDER BY doc_id",
                (kind, low, high),
            )
        ]

    def term_postings(self, kind: str) -> Iterator[tuple[str, int]]:
        """(term, document row) for every term of `kind`, grouped by term."""
        yield from self.db.execute(
            "SELECT term, doc FROM doc_terms WHERE kind = ? ORDER BY term", (kind,)
        )

    def rank(
        self, words: Iterable[str], k: int, stats: Stats | None = None
    ) -> list[tuple[str, float]]:
        """(doc id, BM25 score, higher is better) of the k documents best matching any of the
        words (as the index spells them: lower case, no diacritics); a title match weighs more
        than one in the body. Words most documents hold are left out of a search for several.
        With `stats` (the shards' `rank_stats` summed), scored with those: a document scores
        and ranks as it would in one index of all the shards."""
        self.build()
        wanted = list(dict.fromkeys(words))
        if stats is not None:
            return self._rank_with(wanted, k, stats)
        match = fts_query(self._distinctive(wanted))
        if not match:
            return []
        rows = self.db.execute(
            "SELECT c.doc_id, f.score FROM "
            "(SELECT rowid, bm25(corpus_fts, 4.0, 1.0) AS score FROM corpus_fts "
            "WHERE corpus_fts MATCH ? ORDER BY score LIMIT ?) f "
            "JOIN corpus_docs c ON c.id = f.rowid "
            "ORDER BY f.score, c.doc_id LIMIT ?",
            (match, 2 * k + 10, k),
        ).fetchall()  # ties by id
        return [(doc_id, -score) for doc_id, score in rows]

    def rank_stats(self, words: Iterable[str]) -> Stats:
        """This corpus's share of what a ranked search for `words` needs: its documents, their
        tokens, and how many hold each word."""
        self.build()
        return table_stats(self.db, "corpus_fts", "corpus_vocab", list(dict.fromkeys(words)))

    def _rank_with(self, words: list[str], k: int, stats: Stats) -> list[tuple[str, float]]:
        if len(words) > 1 and stats.rows >= self.small_corpus:
            words = distinctive(words, stats.held, stats.rows, postings=RANK_POSTINGS)
        self.db.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.corpus_instances "
            "USING fts5vocab(main, corpus_fts, 'instance')"
        )
        scored = scores(self.db, "corpus_fts", "temp.corpus_instances", words, WEIGHTS, stats)
        ids: dict[int, str] = {}
        rows = list(scored)
        for start in range(0, len(rows), 500):
            part = rows[start : start + 500]
            ids.update(
                self.db.execute(
                    f"SELECT id, doc_id FROM corpus_docs WHERE id IN ({','.join('?' * len(part))})",
                    part,
                )
            )
        ranked = sorted(
            ((ids[row], score) for row, score in scored.items() if row in ids), key=best_first
        )  # (a row without a document, as the full-text path's join leaves it out)
        return ranked[:k]

    def _distinctive(self, words: list[str]) -> list[str]:
        """The words worth searching for in a corpus (see `distinctive`); all of them in a corpus
        of under `small_corpus` documents."""
        count = self._catalog.count()
        if len(words) < 2 or count < self.small_corpus:
            return words
        held = dict(
            self.db.execute(
                f"SELECT term, doc FROM corpus_vocab WHERE term IN ({','.join('?' * len(words))})",
                words,
            )
        )
        return distinctive(words, held, count, postings=RANK_POSTINGS)

    def phrase_rows(self, phrase: str, rows: Sequence[int] | None = None) -> list[int]:
        """Rows of the documents whose title or text holds the words of `phrase` in a row (all
        documents, or only `rows`)."""
        self.build()
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


def best_first(ranked: tuple[str, float]) -> tuple[float, str]:
    """The order of ranked results: best score first, ties by document id."""
    return -ranked[1], ranked[0]

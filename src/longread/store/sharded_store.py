"""ShardedCorpusStore: the shards of a corpus (each a CorpusStore of its own database, see manifest)
read and written as one CorpusStore. A document's calls go to its shard; the rows and text ids
handed out carry their shard (number = local number × shards + shard), so callers pass them back
as they would one store's. Corpus-wide searches run on every shard at once (a thread each) and
merge; a ranked search scores with statistics summed over the shards first, so a document gets
the score and rank it would have in one index."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import replace
from functools import reduce
from typing import Any, TypeVar

from longread.store.bm25 import Stats
from longread.store.corpus_search import best_first
from longread.store.corpus_store import CorpusStore, DocRecord, StoredDoc
from longread.store.manifest import Manifest, shard_of
from longread.store.rows import SectionRow
from longread.text.patterns import IndexTerm

R = TypeVar("R")


class ShardedCorpusStore:
    """The shards listed in `manifest`, as one corpus store."""

    def __init__(self, manifest: Manifest):
        self.manifest = manifest
        self.path = manifest.folder
        self.shards = [CorpusStore(path) for path in manifest.paths]
        self.databases = manifest.paths
        self._threads = ThreadPoolExecutor(len(self.shards), thread_name_prefix="shard")

    # -- where things are ---------------------------------------------------------------------
    def holding(self, doc_id: str) -> CorpusStore:
        """The shard that holds (or would hold) the document `doc_id`."""
        return self.shards[shard_of(doc_id, len(self.shards))]

    def _number(self, shard: int, local: int) -> int:
        return local * len(self.shards) + shard

    def _split(self, number: int) -> tuple[CorpusStore, int]:
        return self.shards[number % len(self.shards)], number // len(self.shards)

    def _outward(self, shard: int, doc: StoredDoc) -> StoredDoc:
        number = self._number
        return replace(doc, row=number(shard, doc.row), store_id=number(shard, doc.store_id))

    def _inward(self, doc: StoredDoc) -> StoredDoc:
        count = len(self.shards)
        return replace(doc, row=doc.row // count, store_id=doc.store_id // count)

    def _by_shard(self, numbers: Iterable[int]) -> dict[int, list[int]]:
        """Shard -> the local numbers among `numbers`, in the order given."""
        grouped: dict[int, list[int]] = defaultdict(list)
        for number in numbers:
            grouped[number % len(self.shards)].append(number // len(self.shards))
        return grouped

    def _everywhere(self, call: Callable[[CorpusStore], R]) -> list[R]:
        """call(shard) on every shard at once; the results in shard order."""
        if len(self.shards) == 1:
            return [call(self.shards[0])]
        running = [  # (each with the caller's context: its deadline holds on the shard's thread)
            self._threads.submit(copy_context().run, call, shard) for shard in self.shards
        ]
        return [future.result() for future in running]

    def _merged(self, call: Callable[[CorpusStore], Iterable[Any]]) -> list[Any]:
        """The sorted results of call(shard) merged, in order."""
        return list(heapq.merge(*self._everywhere(call)))

    # -- the root folder and the files ---------------------------------------------------------
    def root(self) -> str | None:
        return self.shards[0].root()

    def set_root(self, root: str) -> None:
        for shard in self.shards:
            shard.set_root(root)

    def setting(self, key: str) -> str | None:
        return self.shards[0].setting(key)

    def set_setting(self, key: str, value: str) -> None:
        self.shards[0].set_setting(key, value)

    def file_states(self, doc_ids: Sequence[str] | None = None) -> dict[str, tuple[int, int]]:
        return reduce(lambda a, b: a | b, self._everywhere(lambda s: s.file_states(doc_ids)))

    # -- writing ------------------------------------------------------------------------------
    def add_records(self, records: Iterable[DocRecord]) -> list[int]:
        records = list(records)
        rows: list[int] = [0] * len(records)
        parts: dict[int, list[int]] = defaultdict(list)
        for at, record in enumerate(records):
            parts[shard_of(record.doc_id, len(self.shards))].append(at)
        for shard, positions in parts.items():
            stored = self.shards[shard].add_records([records[p] for p in positions])
            for at, local in zip(positions, stored, strict=True):
                rows[at] = self._number(shard, local)
        return rows

    def remove_docs(self, doc_ids: Iterable[str]) -> list[str]:
        removed = set()
        wanted = list(doc_ids)
        parts: dict[int, list[str]] = defaultdict(list)
        for doc_id in wanted:
            parts[shard_of(doc_id, len(self.shards))].append(doc_id)
        for shard, ids in parts.items():
            removed.update(self.shards[shard].remove_docs(ids))
        return [d for d in wanted if d in removed]

    def replace_meta(
        self, changes: Iterable[tuple[StoredDoc, dict[str, Any], dict[str, list[str]]]]
    ) -> None:
        parts: dict[int, list[tuple[StoredDoc, dict[str, Any], dict[str, list[str]]]]] = (
            defaultdict(list)
        )
        for doc, meta, terms in changes:
            parts[doc.row % len(self.shards)].append((self._inward(doc), meta, terms))
        for shard, part in parts.items():
            self.shards[shard].replace_meta(part)

    def touch(self, doc_id: str, file_size: int, mtime_ns: int) -> None:
        self.holding(doc_id).touch(doc_id, file_size, mtime_ns)

    def ensure_fts_corpus(self, on_progress: Callable[[int, int], None] | None = None) -> None:
        """Index each shard's pending full text (one after another, progress summed)."""
        done = [0] * len(self.shards)
        todo = [shard.pending_full_text() for shard in self.shards]
        for at, shard in enumerate(self.shards):

            def step(count: int, _total: int, at: int = at) -> None:
                done[at] = count
                if on_progress is not None:
                    on_progress(sum(done), sum(todo))

            shard.ensure_fts_corpus(step)

    def close(self) -> None:
        self._threads.shutdown()
        for shard in self.shards:
            shard.close()

    # -- reading documents --------------------------------------------------------------------
    def doc(self, doc_id: str) -> StoredDoc | None:
        shard = shard_of(doc_id, len(self.shards))
        found = self.shards[shard].doc(doc_id)
        return self._outward(shard, found) if found else None

    def docs(self, rows: Sequence[int] | None = None, limit: int = -1) -> list[StoredDoc]:
        if rows is None:
            found = heapq.merge(
                *(
                    [self._outward(at, d) for d in docs]
                    for at, docs in enumerate(self._everywhere(lambda s: s.docs(limit=limit)))
                ),
                key=lambda d: d.doc_id,
            )
            return list(found)[:limit] if limit >= 0 else list(found)
        by_number = {}
        for shard, local in self._by_shard(rows).items():
            for doc in self.shards[shard].docs(local):
                by_number[self._number(shard, doc.row)] = self._outward(shard, doc)
        return [by_number[r] for r in rows if r in by_number]

    def doc_ids(self, folder: str = "") -> list[str]:
        return self._merged(lambda shard: shard.doc_ids(folder))

    def doc_sizes(self) -> list[tuple[str, int]]:
        return self._merged(CorpusStore.doc_sizes)

    def totals(self) -> tuple[int, int]:
        counts = self._everywhere(CorpusStore.totals)
        return sum(c[0] for c in counts), sum(c[1] for c in counts)

    def doc_ids_of(self, rows: Iterable[int]) -> list[str]:
        return sorted(
            d
            for shard, local in self._by_shard(rows).items()
            for d in self.shards[shard].doc_ids_of(local)
        )

    def rows_with_meta_source(self, source: str) -> list[int]:
        return sorted(
            self._number(at, row)
            for at, rows in enumerate(self._everywhere(lambda s: s.rows_with_meta_source(source)))
            for row in rows
        )

    def names(self, row: int | None = None) -> list[tuple[int, str]]:
        if row is not None:
            shard, local = self._split(row)
            return [(row, name) for _, name in shard.names(local)]
        return [
            (self._number(at, r), name)
            for at, found in enumerate(self._everywhere(CorpusStore.names))
            for r, name in found
        ]

    # -- reading text -------------------------------------------------------------------------
    def read_range(self, store_id: int, start: int, end: int) -> str:
        shard, local = self._split(store_id)
        return shard.read_range(local, start, end)

    def iter_blocks(
        self, store_id: int, start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, str]]:
        shard, local = self._split(store_id)
        return shard.iter_blocks(local, start, end)

    def sections(self, store_id: int) -> list[SectionRow]:
        shard, local = self._split(store_id)
        return shard.sections(local)

    def iter_corpus_blocks(
        self, doc_ids: Sequence[str] | None = None
    ) -> Iterator[tuple[str, int, str]]:
        """(doc id, offset, text block) over the documents in id order, streamed from the shards."""
        if doc_ids is None:
            return heapq.merge(*(s.iter_corpus_blocks() for s in self.shards), key=_doc_id)
        return (block for d in doc_ids for block in self.holding(d).iter_corpus_blocks([d]))

    # -- searching ----------------------------------------------------------------------------
    def rank_stats(self, words: Iterable[str]) -> Stats:
        wanted = list(words)
        return reduce(Stats.__add__, self._everywhere(lambda s: s.rank_stats(wanted)))

    def rank(
        self, words: Iterable[str], k: int, stats: Stats | None = None
    ) -> list[tuple[str, float]]:
        """The k best documents over all shards, each scored with the corpus-wide statistics."""
        wanted = list(dict.fromkeys(words))
        everywhere = stats or self.rank_stats(wanted)
        found = self._everywhere(lambda s: s.rank(wanted, k, everywhere))
        return list(heapq.merge(*found, key=best_first))[:k]

    def documents_holding(self, terms: Sequence[IndexTerm]) -> list[str] | None:
        found = self._everywhere(lambda s: s.documents_holding(terms))
        if any(ids is None for ids in found):
            return None
        return list(heapq.merge(*(ids for ids in found if ids is not None)))

    def phrase_rows(self, phrase: str, rows: Sequence[int] | None = None) -> list[int]:
        found: Iterable[tuple[int, list[int]]]
        if rows is None:
            found = enumerate(self._everywhere(lambda s: s.phrase_rows(phrase)))
        else:
            found = [
                (shard, self.shards[shard].phrase_rows(phrase, local))
                for shard, local in self._by_shard(rows).items()
            ]
        return sorted(self._number(at, r) for at, rows_found in found for r in rows_found)

    def lookup(self, kind: str, term: str) -> list[str]:
        return self._merged(lambda s: s.lookup(kind, term))

    def lookup_range(self, kind: str, low: str, high: str) -> list[str]:
        return self._merged(lambda s: s.lookup_range(kind, low, high))

    def term_postings(self, kind: str) -> Iterator[tuple[str, int]]:
        """(term, document row) for every term of `kind`, grouped by term."""
        return heapq.merge(
            *(
                ((term, self._number(at, row)) for term, row in shard.term_postings(kind))
                for at, shard in enumerate(self.shards)
            ),
            key=lambda posting: posting[0],
        )


def _doc_id(block: tuple[str, int, str]) -> str:
    return block[0]

"""ShardedCorpusStore: the shards of a corpus (each a CorpusStore of its own database, see manifest)
read and written as one CorpusStore, with repositories of the same names and methods. A
document's calls go to its shard; the rows and text ids handed out carry their shard (see
`shards`). Corpus-wide searches run on every shard at once and merge; a ranked search scores with
statistics summed over the shards first, so a document gets the score and rank it would have in
one index."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import reduce
from typing import Any

from longread.store.bm25 import Stats
from longread.store.corpus_catalog import DocRecord, StoredDoc
from longread.store.corpus_search import best_first
from longread.store.corpus_store import CorpusStore
from longread.store.manifest import Manifest
from longread.store.shards import ShardedDocuments, ShardedSections, Shards
from longread.text.patterns import IndexTerm

MetaChange = tuple[StoredDoc, dict[str, Any], dict[str, list[str]]]


class ShardedCatalog:
    """The shards' catalogues, as one."""

    def __init__(self, shards: Shards):
        self._shards = shards

    def touch(self, doc_id: str, file_size: int, mtime_ns: int) -> None:
        self._shards.holding(doc_id).catalog.touch(doc_id, file_size, mtime_ns)

    def doc(self, doc_id: str) -> StoredDoc | None:
        shard = self._shards.of(doc_id)
        found = self._shards.stores[shard].catalog.doc(doc_id)
        return self._shards.outward(shard, found) if found else None

    def docs(self, rows: Sequence[int] | None = None, limit: int = -1) -> list[StoredDoc]:
        shards = self._shards
        if rows is None:
            found = heapq.merge(
                *(
                    [shards.outward(at, d) for d in docs]
                    for at, docs in enumerate(
                        shards.everywhere(lambda s: s.catalog.docs(limit=limit))
                    )
                ),
                key=lambda d: d.doc_id,
            )
            return list(found)[:limit] if limit >= 0 else list(found)
        by_number = {}
        for shard, local in shards.by_shard(rows).items():
            for doc in shards.stores[shard].catalog.docs(local):
                by_number[shards.number(shard, doc.row)] = shards.outward(shard, doc)
        return [by_number[r] for r in rows if r in by_number]

    def doc_ids(self, folder: str = "") -> list[str]:
        return self._shards.merged(lambda s: s.catalog.doc_ids(folder))

    def doc_sizes(self) -> list[tuple[str, int]]:
        return self._shards.merged(lambda s: s.catalog.doc_sizes())

    def file_states(self, doc_ids: Sequence[str] | None = None) -> dict[str, tuple[int, int]]:
        return reduce(
            lambda a, b: a | b, self._shards.everywhere(lambda s: s.catalog.file_states(doc_ids))
        )

    def totals(self) -> tuple[int, int]:
        counts = self._shards.everywhere(lambda s: s.catalog.totals())
        return sum(c[0] for c in counts), sum(c[1] for c in counts)

    def doc_ids_of(self, rows: Iterable[int]) -> list[str]:
        return sorted(
            d
            for shard, local in self._shards.by_shard(rows).items()
            for d in self._shards.stores[shard].catalog.doc_ids_of(local)
        )

    def rows_with_meta_source(self, source: str) -> list[int]:
        found = self._shards.everywhere(lambda s: s.catalog.rows_with_meta_source(source))
        return sorted(self._shards.number(at, row) for at, rows in enumerate(found) for row in rows)

    def names(self, row: int | None = None) -> list[tuple[int, str]]:
        if row is not None:
            shard, local = self._shards.split(row)
            return [(row, name) for _, name in shard.catalog.names(local)]
        return [
            (self._shards.number(at, r), name)
            for at, found in enumerate(self._shards.everywhere(lambda s: s.catalog.names()))
            for r, name in found
        ]

    def iter_blocks(self, doc_ids: Sequence[str] | None = None) -> Iterator[tuple[str, int, str]]:
        """(doc id, offset, text block) over the documents in id order, streamed from the shards."""
        if doc_ids is None:
            everywhere = (store.catalog.iter_blocks() for store in self._shards.stores)
            return heapq.merge(*everywhere, key=_doc_id)
        return (b for d in doc_ids for b in self._shards.holding(d).catalog.iter_blocks([d]))


class ShardedSearch:
    """The shards' full-text indexes and inverted indexes, searched as one."""

    def __init__(self, shards: Shards):
        self._shards = shards

    def build(self, on_progress: Callable[[int, int], None] | None = None) -> None:
        """Index each shard's pending full text (one after another, progress summed)."""
        stores = self._shards.stores
        done = [0] * len(stores)
        todo = [shard.search.pending() for shard in stores]
        for at, shard in enumerate(stores):

            def step(count: int, _total: int, at: int = at) -> None:
                done[at] = count
                if on_progress is not None:
                    on_progress(sum(done), sum(todo))

            shard.search.build(step)

    def rank_stats(self, words: Iterable[str]) -> Stats:
        wanted = list(words)
        return reduce(Stats.__add__, self._shards.everywhere(lambda s: s.search.rank_stats(wanted)))

    def rank(
        self, words: Iterable[str], k: int, stats: Stats | None = None
    ) -> list[tuple[str, float]]:
        """The k best documents over all shards, each scored with the corpus-wide statistics."""
        wanted = list(dict.fromkeys(words))
        everywhere = stats or self.rank_stats(wanted)
        found = self._shards.everywhere(lambda s: s.search.rank(wanted, k, everywhere))
        return list(heapq.merge(*found, key=best_first))[:k]

    def documents_holding(self, terms: Sequence[IndexTerm]) -> list[str] | None:
        found = self._shards.everywhere(lambda s: s.search.documents_holding(terms))
        if any(ids is None for ids in found):
            return None
        return list(heapq.merge(*(ids for ids in found if ids is not None)))

    def phrase_rows(self, phrase: str, rows: Sequence[int] | None = None) -> list[int]:
        shards = self._shards
        found: Iterable[tuple[int, list[int]]]
        if rows is None:
            found = enumerate(shards.everywhere(lambda s: s.search.phrase_rows(phrase)))
        else:
            found = [
                (shard, shards.stores[shard].search.phrase_rows(phrase, local))
                for shard, local in shards.by_shard(rows).items()
            ]
        return sorted(shards.number(at, r) for at, rows_found in found for r in rows_found)

    def lookup(self, kind: str, term: str) -> list[str]:
        return self._shards.merged(lambda s: s.search.lookup(kind, term))

    def lookup_range(self, kind: str, low: str, high: str) -> list[str]:
        return self._shards.merged(lambda s: s.search.lookup_range(kind, low, high))

    def term_postings(self, kind: str) -> Iterator[tuple[str, int]]:
        """(term, document row) for every term of `kind`, grouped by term."""
        return heapq.merge(
            *(
                (
                    (term, self._shards.number(at, row))
                    for term, row in shard.search.term_postings(kind)
                )
                for at, shard in enumerate(self._shards.stores)
            ),
            key=lambda posting: posting[0],
        )


class ShardedCorpusStore:
    """The shards listed in `manifest`, as one corpus store."""

    def __init__(self, manifest: Manifest):
        self.manifest = manifest
        self.path = manifest.folder
        self.shards = [CorpusStore(path) for path in manifest.paths]
        self.databases = manifest.paths
        self._shards = Shards(self.shards)
        self.documents = ShardedDocuments(self._shards)
        self.sections = ShardedSections(self._shards)
        self.catalog = ShardedCatalog(self._shards)
        self.search = ShardedSearch(self._shards)

    def holding(self, doc_id: str) -> CorpusStore:
        """The shard that holds (or would hold) the document `doc_id`."""
        return self._shards.holding(doc_id)

    # -- settings and the root folder ------------------------------------------------------
    def setting(self, key: str) -> str | None:
        return self.shards[0].setting(key)

    def set_setting(self, key: str, value: str) -> None:
        self.shards[0].set_setting(key, value)

    def root(self) -> str | None:
        return self.shards[0].root()

    def set_root(self, root: str) -> None:
        for shard in self.shards:
            shard.set_root(root)

    # -- writing ------------------------------------------------------------------------------
    def add_records(self, records: Iterable[DocRecord]) -> list[int]:
        records = list(records)
        rows: list[int] = [0] * len(records)
        parts: dict[int, list[int]] = defaultdict(list)
        for at, record in enumerate(records):
            parts[self._shards.of(record.doc_id)].append(at)
        for shard, positions in parts.items():
            stored = self.shards[shard].add_records([records[p] for p in positions])
            for at, local in zip(positions, stored, strict=True):
                rows[at] = self._shards.number(shard, local)
        return rows

    def remove_docs(self, doc_ids: Iterable[str]) -> list[str]:
        removed = set()
        wanted = list(doc_ids)
        parts: dict[int, list[str]] = defaultdict(list)
        for doc_id in wanted:
            parts[self._shards.of(doc_id)].append(doc_id)
        for shard, ids in parts.items():
            removed.update(self.shards[shard].remove_docs(ids))
        return [d for d in wanted if d in removed]

    def replace_meta(self, changes: Iterable[MetaChange]) -> None:
        parts: dict[int, list[MetaChange]] = defaultdict(list)
        for doc, meta, terms in changes:
            parts[doc.row % len(self.shards)].append((self._shards.inward(doc), meta, terms))
        for shard, part in parts.items():
            self.shards[shard].replace_meta(part)

    def close(self) -> None:
        self._shards.close()


def _doc_id(block: tuple[str, int, str]) -> str:
    return block[0]

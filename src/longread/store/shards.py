"""The shards of a corpus (each a CorpusStore of its own database) and how the sharded store's
repositories reach them: the rows and text ids handed out carry their shard (number = local number
× shards + shard), so callers pass them back as they would one store's; a call made on every
shard runs on each at once (a thread each). Here too the repositories read by text id: a
document's text and sections, from the shard its id names."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import replace
from typing import Any, TypeVar

from longread.store.corpus_catalog import StoredDoc
from longread.store.corpus_store import CorpusStore
from longread.store.manifest import shard_of
from longread.store.rows import SectionRow

R = TypeVar("R")


class Shards:
    """The shards' stores, in shard order, with the threads that call them at once."""

    def __init__(self, stores: list[CorpusStore]):
        self.stores = stores
        self._threads = ThreadPoolExecutor(len(stores), thread_name_prefix="shard")

    def of(self, doc_id: str) -> int:
        """The shard that holds (or would hold) the document `doc_id`."""
        return shard_of(doc_id, len(self.stores))

    def holding(self, doc_id: str) -> CorpusStore:
        """The store of the shard that holds (or would hold) the document `doc_id`."""
        return self.stores[self.of(doc_id)]

    def number(self, shard: int, local: int) -> int:
        """The number handed out for shard `shard`'s row or text `local`."""
        return local * len(self.stores) + shard

    def split(self, number: int) -> tuple[CorpusStore, int]:
        """The shard a number handed out names, and its own number there."""
        return self.stores[number % len(self.stores)], number // len(self.stores)

    def outward(self, shard: int, doc: StoredDoc) -> StoredDoc:
        """A document of shard `shard` as handed out (its row and text numbered so)."""
        return replace(
            doc, row=self.number(shard, doc.row), store_id=self.number(shard, doc.store_id)
        )

    def inward(self, doc: StoredDoc) -> StoredDoc:
        """A document handed out, as its shard has it."""
        count = len(self.stores)
        return replace(doc, row=doc.row // count, store_id=doc.store_id // count)

    def by_shard(self, numbers: Iterable[int]) -> dict[int, list[int]]:
        """Shard -> the local numbers among `numbers`, in the order given."""
        grouped: dict[int, list[int]] = defaultdict(list)
        for number in numbers:
            grouped[number % len(self.stores)].append(number // len(self.stores))
        return grouped

    def everywhere(self, call: Callable[[CorpusStore], R]) -> list[R]:
        """call(shard) on every shard at once; the results in shard order."""
        if len(self.stores) == 1:
            return [call(self.stores[0])]
        running = [  # (each with the caller's context: its deadline holds on the shard's thread)
            self._threads.submit(copy_context().run, call, shard) for shard in self.stores
        ]
        return [future.result() for future in running]

    def merged(self, call: Callable[[CorpusStore], Iterable[Any]]) -> list[Any]:
        """The sorted results of call(shard) merged, in order."""
        return list(heapq.merge(*self.everywhere(call)))

    def close(self) -> None:
        self._threads.shutdown()
        for store in self.stores:
            store.close()


class ShardedDocuments:
    """The documents' texts, each read from the shard its text id names."""

    def __init__(self, shards: Shards):
        self._shards = shards

    def read_range(self, store_id: int, start: int, end: int) -> str:
        shard, local = self._shards.split(store_id)
        return shard.documents.read_range(local, start, end)

    def iter_blocks(
        self, store_id: int, start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, str]]:
        shard, local = self._shards.split(store_id)
        return shard.documents.iter_blocks(local, start, end)


class ShardedSections:
    """The documents' sections, each read from the shard its text id names."""

    def __init__(self, shards: Shards):
        self._shards = shards

    def all(self, store_id: int) -> list[SectionRow]:
        shard, local = self._shards.split(store_id)
        return shard.sections.all(local)

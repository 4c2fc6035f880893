"""Building a sharded corpus: the folder is listed once against every shard, and each shard's new,
changed and deleted files are handed out in batches, each a job for the executor (this machine's
processes, or Ray tasks, retried when they fail) that brings its shard's database and full-text
index up to date. A batch is idempotent (a file whose content is stored costs a stat), so a
retried job, or a rerun after a killed build or a lost node, redoes no finished document. One job
at most writes a shard at a time; the manifest says which shards are being built."""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path

from longread.errors import InputError
from longread.events import Event, EventKind, EventSink, ignore
from longread.executor import Executor, LocalExecutor
from longread.index.corpus_files import Listing, UpdateReport
from longread.index.corpus_update import PARALLEL_MIN, listed_only, store_files
from longread.store.corpus_store import CorpusStore
from longread.store.manifest import BUILDING, READY, shard_of
from longread.store.sharded_store import ShardedCorpusStore

BATCH_FILES, BATCH_BYTES = 1_024, 64_000_000  # a job's files, at most
RETRIES = 2
State = tuple[int, int] | None  # a file's (size, mtime in ns) as listed; None: cannot be read


@dataclass(frozen=True)
class ShardBatch:
    """A job: bring the shard database `database` in line with files of the corpus folder `root`:
    new or changed ones (with their states as listed: None for one that cannot be read) and
    deleted ones."""

    root: str
    database: str
    files: tuple[tuple[str, State], ...]
    gone: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.files) + len(self.gone)


def build_batch(batch: ShardBatch) -> UpdateReport:
    """Run one batch (on whichever worker or node the executor chose)."""
    root = Path(batch.root)
    if not root.is_dir():
        raise InputError(f"{_here()} cannot reach the corpus folder {root}")
    try:
        store = CorpusStore(batch.database)
    except (sqlite3.OperationalError, OSError) as error:
        raise InputError(
            f"{_here()} cannot write the shard {batch.database} ({error}): the index folder must "
            "be on storage every node can reach"
        ) from None
    with closing(store):
        listed = listed_only(store, dict(batch.files), batch.gone)
        report = store_files(root, store, listed, parallel=False)
        store.search.build()
    return report


def build_shards(
    root: Path,
    store: ShardedCorpusStore,
    listed: Listing,
    executor: Executor | None = None,
    on_event: EventSink = ignore,
) -> UpdateReport:
    """Bring every shard in line with `listed` (see the module's docstring), with `documents`
    progress events as batches finish; returns what was done."""
    report = UpdateReport(unchanged=listed.unchanged)
    rounds = list(zip_longest(*_batches(root, store, listed)))
    total = sum(b.size for batches in rounds for b in batches if b)
    left = {at for at, shard in enumerate(store.manifest.shards) if shard.state != READY}
    if not total:  # (a build killed after its last batch left its shards marked as building)
        if left:
            _mark(store, left, READY)
        return report
    busy = left | {shard_of(d, len(store.shards)) for d in [*listed.changed, *listed.removed]}
    _mark(store, busy, BUILDING)
    runner = executor or (LocalExecutor() if total >= PARALLEL_MIN else None)
    done = 0
    try:
        for batches in rounds:
            for batch, part in _run([b for b in batches if b], runner):
                report.take_in(part)
                done += batch.size
                on_event(
                    Event(EventKind.PROGRESS, {"task": "documents", "done": done, "total": total})
                )
    finally:
        if runner is not None and executor is None:
            runner.close()
    _mark(store, busy, READY)
    return report


def _batches(root: Path, store: ShardedCorpusStore, listed: Listing) -> list[list[ShardBatch]]:
    """Each shard's batches: of the files to read, in id order, then of the deleted ones."""
    count = len(store.shards)
    files: list[list[tuple[str, State]]] = [[] for _ in range(count)]
    gone: list[list[str]] = [[] for _ in range(count)]
    for doc_id, state in sorted(listed.changed.items()):
        files[shard_of(doc_id, count)].append((doc_id, state))
    for doc_id in listed.removed:
        gone[shard_of(doc_id, count)].append(doc_id)
    return [
        [ShardBatch(str(root), str(database), run) for run in _runs(own)]
        + ([ShardBatch(str(root), str(database), (), tuple(ids))] if ids else [])
        for database, own, ids in zip(store.databases, files, gone, strict=True)
    ]


def _runs(files: list[tuple[str, State]]) -> Iterator[tuple[tuple[str, State], ...]]:
    """The files in runs of at most BATCH_FILES files or BATCH_BYTES bytes."""
    run: list[tuple[str, State]] = []
    size = 0
    for doc_id, state in files:
        length = state[0] if state else 0
        if run and (len(run) >= BATCH_FILES or size + length > BATCH_BYTES):
            yield tuple(run)
            run, size = [], 0
        run.append((doc_id, state))
        size += length
    if run:
        yield tuple(run)


def _run(
    batches: list[ShardBatch], runner: Executor | None
) -> Iterator[tuple[ShardBatch, UpdateReport]]:
    if runner is None:
        return ((b, build_batch(b)) for b in batches)
    return runner.each(build_batch, batches, retries=RETRIES)


def _mark(store: ShardedCorpusStore, shards: set[int], state: str) -> None:
    """Record in the manifest that `shards` are being built, or are built (with their counts)."""
    for at in shards:
        entry = store.manifest.shards[at]
        entry.state = state
        if state == READY:
            entry.docs, entry.digest = (
                store.shards[at].catalog.totals()[0],
                store.shards[at].catalog.digest(),
            )
    store.manifest.save()


def _here() -> str:
    return f"the worker on {socket.gethostname()}"

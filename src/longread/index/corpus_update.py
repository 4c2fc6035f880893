"""Storing a folder's new and changed files in a corpus store, and forgetting its deleted ones: the
files are read by worker processes (or an executor's workers) a little ahead of the storing, in
transactions of bounded size, so memory stays bounded and a stopped update keeps what it
committed. A changed file whose text is the same costs one statement."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from longread.events import Event, EventKind, EventSink, ignore
from longread.executor import Executor, Job, LocalExecutor
from longread.index.corpus_files import (
    Files,
    Listing,
    Skipped,
    UpdateReport,
    compare,
    file_state,
    index_terms,
    inside,
    prepare,
    prepare_all,
)
from longread.index.corpus_json import content_meta
from longread.store.corpus_catalog import DocRecord, StoredDoc
from longread.store.open_corpus import CorpusStores

# documents stored per transaction, at most (fewer, larger transactions rewrite the inverted
# indexes' pages less often)
COMMIT_DOCS, COMMIT_CHARS = 2_048, 32_000_000
READ_AHEAD_FILES, READ_AHEAD_BYTES = 2_048, 64_000_000  # what worker processes read ahead, at most
PROGRESS_EVERY = 256  # documents
_JOB_FILES = 16  # files a worker reads per job
PARALLEL_MIN = 64  # fewer files than this are read in this process


def listed_only(store: CorpusStores, files: Files, gone: Sequence[str] = ()) -> Listing:
    """The Listing of the files `files` (with their states) and of the deleted files `gone`
    alone, against the index."""
    return compare(files, store.catalog.file_states([*files, *gone]))


def files_named(root: Path, doc_ids: Sequence[str]) -> Files:
    """The states of the files `doc_ids` that are there (and the folder's: see `inside`)."""
    return {
        d: file_state(root / d) for d in doc_ids if (root / d).is_file() and inside(root, root / d)
    }


def store_files(
    root: Path,
    store: CorpusStores,
    listed: Listing,
    *,
    parallel: bool = True,
    executor: Executor | None = None,
    on_event: EventSink = ignore,
) -> UpdateReport:
    """Bring `store` in line with `listed`: add the new files, replace the changed ones, remove
    the deleted ones (see the module's docstring)."""
    report = UpdateReport(removed=listed.removed, unchanged=listed.unchanged)
    todo = list(listed.changed)
    moved = _model_read(store, listed.removed)
    sizes = [
        (d, state[0] if (state := listed.changed[d]) else 0) for d in todo
    ]  # (what the read-ahead counts)
    pending: list[DocRecord] = []
    chars = 0
    for done, item in enumerate(_prepared(str(root), sizes, parallel, executor), 1):
        record = _sort_out(store, item, report, listed.stored)
        if record is not None and record.digest in moved:
            record = _with_meta(record, moved[record.digest])
        if record is not None:
            pending.append(record)
            chars += len(record.text)
        if len(pending) >= COMMIT_DOCS or chars >= COMMIT_CHARS or done == len(todo):
            store.remove_docs([r.doc_id for r in pending if r.doc_id in listed.stored])
            store.add_records(pending)
            pending, chars = [], 0
        if done % PROGRESS_EVERY == 0 or done == len(todo):
            on_event(
                Event(EventKind.PROGRESS, {"task": "documents", "done": done, "total": len(todo)})
            )
    store.remove_docs(
        report.removed
    )  # (after: a moved file's text, and what was built on it, stay)
    return report


def _model_read(store: CorpusStores, doc_ids: Sequence[str]) -> dict[str, StoredDoc]:
    """Content hash -> the document among `doc_ids` whose metadata a model read."""
    docs = (store.catalog.doc(d) for d in doc_ids)
    return {d.content_hash: d for d in docs if d is not None and d.meta.get("source") != "rules"}


def _with_meta(record: DocRecord, moved: StoredDoc) -> DocRecord:
    """A moved file's record with the metadata a model read of it at its old path."""
    meta = content_meta(moved.meta)
    terms = index_terms(record.doc_id, meta)
    return replace(record, meta_json=json.dumps(moved.meta, ensure_ascii=False), terms=terms)


def _sort_out(
    store: CorpusStores, item: DocRecord | Skipped, report: UpdateReport, stored: set[str]
) -> DocRecord | None:
    """The record to store, or None for a skipped file or a changed file with the same text.
    `stored`: the documents stored before the update (the others are new)."""
    if isinstance(item, Skipped):  # (a stored document whose file became unreadable goes)
        report.skipped.append(item)
        report.removed += store.remove_docs([item.doc_id])
        return None
    old = store.catalog.doc(item.doc_id) if item.doc_id in stored else None
    if old is not None and old.content_hash == item.digest:
        store.catalog.touch(item.doc_id, item.file_size, item.mtime_ns)
        report.unchanged += 1
        return None
    (report.changed if old is not None else report.added).append(item.doc_id)
    return item


def _prepared(
    root: str, files: list[tuple[str, int]], parallel: bool, executor: Executor | None
) -> Iterator[DocRecord | Skipped]:
    """Each of the files (doc id, size in bytes) read, in order: by the executor's workers (this
    machine's processes by default) when `parallel`, which read at most READ_AHEAD_FILES or
    READ_AHEAD_BYTES ahead of the caller (so memory stays bounded, and they go on reading while
    the caller stores)."""
    if not parallel or len(files) < PARALLEL_MIN:
        yield from (prepare(root, doc_id) for doc_id, _ in files)
        return
    runner = executor or LocalExecutor()
    try:
        ahead: deque[tuple[Job[list[DocRecord | Skipped]], int, int]] = deque()
        files_ahead = bytes_ahead = 0
        for start in [*range(0, len(files), _JOB_FILES), None]:  # (None: take the rest)
            while ahead and (
                start is None or files_ahead >= READ_AHEAD_FILES or bytes_ahead >= READ_AHEAD_BYTES
            ):
                reading, count, size = ahead.popleft()
                files_ahead, bytes_ahead = files_ahead - count, bytes_ahead - size
                yield from reading.result()
            if start is not None:
                job = files[start : start + _JOB_FILES]
                size = sum(s for _, s in job)
                ahead.append(
                    (
                        runner.submit(prepare_all, (root, [d for d, _ in job]), retries=2),
                        len(job),
                        size,
                    )
                )
                files_ahead, bytes_ahead = files_ahead + len(job), bytes_ahead + size
    finally:
        for reading, _, _ in ahead:  # (a caller that stops early leaves nothing running)
            reading.cancel()
        if executor is None:  # (one passed in is its owner's to close)
            runner.close()

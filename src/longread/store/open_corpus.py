"""Opening a corpus index in the layout it has or the one asked for: one database (the default,
and what a 1-shard corpus is), or a folder of shards with their manifest. Asking for shards of an
index kept in one database splits it without reading any document again: each shard starts as a
copy of the database and forgets the documents that are not its own, so the metadata and
summaries models wrote are kept."""

from __future__ import annotations

import os
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

from longread.errors import InputError
from longread.store.corpus_store import CorpusStore
from longread.store.damage import FILES
from longread.store.manifest import READY, Manifest, shard_of, shards_folder
from longread.store.sharded_store import ShardedCorpusStore

CorpusStores = CorpusStore | ShardedCorpusStore
_PARTIAL = ".partial"  # the suffix of a shards folder being made


def open_corpus_store(index_file: Path, shards: int | None = None) -> CorpusStores:
    """The corpus index whose one-database form is `index_file`: as it is (sharded if a manifest
    says so), or split into `shards` (a one-database index is split; a new one starts empty)."""
    if shards is not None and shards < 1:
        raise InputError(f"--shards must be 1 or more, not {shards}")
    folder = shards_folder(index_file)
    manifest = Manifest.load(folder)
    if manifest is not None:
        if shards not in (None, len(manifest.shards)):
            raise InputError(
                f"the index {folder} has {len(manifest.shards)} shards; to have {shards}, "
                f"remove it (rm -r {folder}) and index the folder again"
            )
        return ShardedCorpusStore(manifest)
    if shards is None or shards == 1:
        return CorpusStore(index_file)
    return ShardedCorpusStore(split(index_file, folder, shards))


def remove_index(index_file: Path) -> int | None:
    """Delete the corpus index whose one-database form is `index_file`, or its shards; the number
    of shards it had, if it had a manifest."""
    folder = shards_folder(index_file)
    manifest = Manifest.load(folder)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(folder.with_name(folder.name + _PARTIAL), ignore_errors=True)
    _remove_database(index_file)
    return None if manifest is None else len(manifest.shards)


def _remove_database(path: Path) -> None:
    for suffix in FILES:
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def split(index_file: Path, folder: Path, count: int) -> Manifest:
    """Make the `count` shards of the index `index_file` in `folder` (empty ones if there is no
    such index), then delete the one database. Made in a folder of its own and renamed into place
    when complete, so a split that is stopped starts over, and the index is never lost."""
    partial = folder.with_name(folder.name + _PARTIAL)
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    manifest = Manifest.new(partial, count)
    if index_file.exists():
        with closing(sqlite3.connect(index_file)) as source:
            for path in manifest.paths:
                with closing(sqlite3.connect(path)) as target:
                    source.backup(target)
    with ThreadPoolExecutor(min(count, os.cpu_count() or 2)) as threads:
        list(threads.map(lambda at: _keep_own(manifest, at), range(count)))
    manifest.save()
    os.replace(partial, folder)
    _remove_database(index_file)
    return Manifest(folder, manifest.shards)


def _keep_own(manifest: Manifest, at: int) -> None:
    """Make shard `at` of the manifest hold its own documents only, fully indexed."""
    count = len(manifest.shards)
    with closing(CorpusStore(manifest.paths[at])) as store:
        store.keep_only(lambda doc_id: shard_of(doc_id, count) == at)
        store.search.build()
        shard = manifest.shards[at]
        shard.docs, shard.digest, shard.state = (
            store.catalog.totals()[0],
            store.catalog.digest(),
            READY,
        )

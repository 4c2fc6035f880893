"""Keeping a corpus index fresh as its folder changes. The folder is brought in line once from its
files' stat identities (as `corpus update` does, which also completes an update a crash or a kill
cut short); from then on each burst of file events (inotify, through watchfiles) updates the
documents it touched, and no others: the folder is not listed again. A folder created or moved in
is read whole; one deleted or moved out takes its documents with it. Should an update fail, the
next one lists the folder again; should the folder itself go, the watch ends (InputError)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import watchfiles

from longread.errors import InputError
from longread.index.corpus import CorpusIndex
from longread.index.corpus_files import UpdateReport, scan
from longread.index.corpus_update import PARALLEL_MIN
from longread.store.damage import FILES

GATHER_MS = 400  # a burst's events are gathered for this long at most,
QUIET_MS = 50  # or until the folder has been quiet this long
WAKE_MS = 200  # the watch looks up this often when nothing happens


class StopFlag(Protocol):
    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class WatchUpdate:
    """One update of a watched index: what it did, prompted by how many file events (None: the
    folder listed whole), and how long it took."""

    report: UpdateReport
    events: int | None
    seconds: float


def watch_corpus(
    index: CorpusIndex,
    stop: StopFlag,
    on_update: Callable[[WatchUpdate], None] = lambda update: None,
    on_error: Callable[[Exception], None] = lambda error: None,
) -> None:
    """Keep `index` in line with its folder until `stop` is set (see the module's docstring).
    The watch starts before the first listing, so no change falls between the two."""
    listed = False
    for changes in watchfiles.watch(
        index.root,
        watch_filter=None,
        debounce=GATHER_MS,
        step=QUIET_MS,
        stop_event=stop,
        rust_timeout=WAKE_MS,
        yield_on_timeout=True,
        raise_interrupt=False,
        ignore_permission_denied=True,
    ):
        if not index.root.is_dir():  # (its index is kept, as `corpus update` would find it)
            raise InputError(f"{index.root} is gone: the watch ends")
        try:
            if not listed:  # (the first wake: what changes from now on is seen)
                on_update(_update(index, None, 0))
                listed = True
            elif changes:
                touched = touched_documents(index, changes)
                if touched:
                    on_update(_update(index, touched, len(changes)))
        except Exception as error:  # (a store busy or a disk full: the next wake lists again)
            listed = False
            on_error(error)


def touched_documents(
    index: CorpusIndex, changes: Iterable[tuple[watchfiles.Change, str]]
) -> list[str]:
    """The ids of the documents the file events name: a file; every file of a folder created or
    moved in; every document under a folder deleted or moved out. Hidden files and the index's
    own files are none."""
    own = {f"{database}{suffix}" for database in index.store.databases for suffix in FILES}
    touched: set[str] = set()
    gone: list[str] = []
    for change, name in changes:
        path = Path(name)
        doc_id = _document_id(index.root, path, own)
        if doc_id is None:
            continue
        if path.is_dir() and not path.is_symlink():
            if change == watchfiles.Change.added:  # (not a folder's own times changing)
                touched.update(f"{doc_id}/{inner}" for inner in scan(path, index.store.path))
        elif path.exists() or path.is_symlink():
            touched.add(doc_id)
        else:
            gone.append(doc_id)
    stored = index.store.catalog.file_states(gone)
    touched.update(gone)
    for folder in (d for d in gone if d not in stored):  # (perhaps a folder's)
        touched.update(index.store.catalog.doc_ids(folder))
    return sorted(touched)


def _document_id(root: Path, path: Path, own: set[str]) -> str | None:
    """The document id of a path inside the folder; None for the folder itself, a hidden file,
    one in a hidden folder, or a file of the index."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return None
    if not parts or any(part.startswith(".") for part in parts) or str(path) in own:
        return None
    return "/".join(parts)


def _update(index: CorpusIndex, touched: list[str] | None, events: int) -> WatchUpdate:
    """The index brought in line with the files `touched` (None: the whole folder), its full text
    searchable."""
    started = time.monotonic()
    if touched is None:
        report = index.update()
    else:
        report = index.update(only=touched, parallel=len(touched) >= PARALLEL_MIN)
    index.index_full_text()
    return WatchUpdate(report, None if touched is None else events, time.monotonic() - started)

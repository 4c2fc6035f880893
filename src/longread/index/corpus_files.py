"""A corpus's files: finding them under its folder (`scan`), and reading one into what the store
keeps (`prepare`: its text, rule metadata and index terms), in a worker process for big folders.
A file that cannot be read is skipped, with its reason, never fatal."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from longread.forking import Forked, can_fork
from longread.ingest.document import load_document
from longread.ingest.loaded import short_reason
from longread.ingest.metadata import (
    SAMPLE_CHARS,
    ContentMeta,
    entity_key,
    keyword_key,
    rule_meta,
    tokens,
)
from longread.store.corpus_catalog import DocRecord, file_states
from longread.store.damage import FILES
from longread.store.text_hash import content_hash


@dataclass
class Skipped:
    """A file that could not be read, and why."""

    doc_id: str
    reason: str


def link_names(doc_id: str, title: str) -> list[str]:
    """How other documents may name this one: its file name, and its title if that is distinctive
    (two words or more, ten characters or more); as index words."""
    names = [" ".join(tokens(doc_id.rpartition("/")[2]))]
    if len(title) >= 10 and len(tokens(title)) >= 2:
        names.append(" ".join(tokens(title)))
    return list(dict.fromkeys(n for n in names if n))


def index_terms(doc_id: str, meta: ContentMeta) -> dict[str, list[str]]:
    """The document's keys in the inverted indexes."""
    return {
        "keyword": [k for k in map(keyword_key, meta.keywords) if k],
        "entity": [e for e in map(entity_key, meta.entities) if e],
        "date": list(meta.dates),
        "name": link_names(doc_id, meta.title),
    }


def prepare(root: str, doc_id: str) -> DocRecord | Skipped:
    """Read one file and find its metadata by rules (runs in a worker process)."""
    path = Path(root, doc_id)
    try:
        stat = path.stat()
        document = load_document(path)
    except Exception as error:  # any unreadable file is skipped and reported, never fatal
        return Skipped(doc_id, short_reason(error))
    text = document.text
    meta = rule_meta(
        text[:SAMPLE_CHARS], [h.title for h in document.headings[:50]], path.stem, document.kind
    )
    return DocRecord(
        doc_id,
        str(path),
        document.kind,
        text,
        content_hash(text),
        stat.st_size,
        stat.st_mtime_ns,
        json.dumps(meta.to_dict(), ensure_ascii=False),
        meta.doc_type,
        index_terms(doc_id, meta),
        [(p.number, p.start, p.end) for p in document.pages],
    )


def prepare_all(job: tuple[str, list[str]]) -> list[DocRecord | Skipped]:
    """Read the files of one job (the corpus root, doc ids), in a worker process or task."""
    root, doc_ids = job
    return [prepare(root, doc_id) for doc_id in doc_ids]


@dataclass
class UpdateReport:
    """What an update of a corpus index did, by document id."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    unread: dict[str, str] = field(default_factory=dict)  # documents the sub-model failed: why

    def take_in(self, other: UpdateReport) -> None:
        """Add what another update (of other documents) did to this report."""
        self.added += other.added
        self.changed += other.changed
        self.removed += other.removed
        self.unchanged += other.unchanged
        self.skipped += other.skipped

    def summary(self) -> str:
        return (
            f"{len(self.added)} added, {len(self.changed)} changed, {len(self.removed)} removed, "
            f"{self.unchanged} unchanged, {len(self.skipped)} skipped"
        )


Files = dict[str, tuple[int, int] | None]  # document id: (size, mtime in ns), None if unreadable


def scan(root: Path, leave_out: Path | None = None) -> Files:
    """Files under `root` by document id (path relative to the root, with `/`), each with its
    (size, mtime in ns) or None if it cannot be read (it is then read to report why), leaving out
    hidden files and folders, folders linked to, files linked to outside the root, and the
    database `leave_out` (the index itself, if it is kept there)."""
    own = {f"{leave_out}{suffix}" for suffix in FILES} if leave_out else set()
    found: dict[str, tuple[int, int] | None] = {}
    folders = [(str(root), "")]
    while folders:
        folder, prefix = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or entry.path in own:
                    continue
                if _is_folder(entry):
                    if not entry.is_symlink():
                        folders.append((entry.path, f"{prefix}{entry.name}/"))
                    continue
                if entry.is_symlink() and not inside(root, entry.path):
                    continue  # (a link to a file outside the folder: not the folder's)
                try:
                    stat = entry.stat()
                    found[prefix + entry.name] = stat.st_size, stat.st_mtime_ns
                except OSError:
                    found[prefix + entry.name] = None
    return dict(sorted(found.items()))


@dataclass
class Listing:
    """How a folder differs from its index: the files new or changed since it was built (with
    their states), the indexed documents whose files are gone, those of the changed files the
    index holds already, and how many files are as indexed."""

    changed: Files
    removed: list[str]
    stored: set[str]
    unchanged: int


def compare(files: Files, states: Mapping[str, tuple[int, int]]) -> Listing:
    """The Listing of `files` against the `states` an index recorded of its documents' files."""
    changed = {d: state for d, state in files.items() if state is None or states.get(d) != state}
    return Listing(
        changed,
        sorted(d for d in states if d not in files),
        {d for d in changed if d in states},
        len(files) - len(changed),
    )


def listing(root: Path, store_path: Path, databases: Sequence[Path]) -> Listing:
    """The folder's files (leaving out the index at `store_path`, if it is kept there) against
    those the index's `databases` (its one database, or its shards) recorded, read through
    connections of their own."""
    files = scan(root, store_path)
    states: dict[str, tuple[int, int]] = {}
    for database in databases:
        with closing(sqlite3.connect(database)) as db:
            states.update(file_states(db))
    return compare(files, states)


def list_ahead(root: Path, store_path: Path, databases: Sequence[Path]) -> Future[Listing]:
    """listing(root, store_path, databases) beside this process's own work (such as loading a model
    SDK): in a forked process where the system forks (listing and comparing 100,000 files takes
    about a second of interpreter time, and only the differences come back), else on a thread (its
    stat calls still let other work go on)."""
    result: Future[Listing] = Future()
    receive: Callable[[], Listing] = partial(listing, root, store_path, databases)
    if can_fork():
        receive = Forked(receive).result

    def settle() -> None:
        try:
            result.set_result(receive())
        except BaseException as error:  # (raised again where the listing is used)
            result.set_exception(error)

    threading.Thread(target=settle, daemon=True).start()
    return result


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a folder (or links to one); a link that cannot be followed (a loop) is
    not: it is listed as a file, and reading it reports why it is skipped."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def inside(root: Path, path: str | Path) -> bool:
    """Whether the path, its links resolved, is under the root and not hidden there: a link out
    of it, or to a hidden file in it, is not the folder's (a key, a secret), whoever lists it."""
    held = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    parts = Path(held).parts
    return bool(parts) and parts[0] != ".." and not any(p.startswith(".") for p in parts)


def file_state(path: Path) -> tuple[int, int] | None:
    """(size, mtime in ns) of a file; None if it cannot be read (it is then read to report why)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns

"""Documents already indexed on the server (by `longread index` or `ask`), offered for analysis
through their stored index: one SQLite store per document under the index folder."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from longread.index.single import SingleDocIndex
from longread.store.docstore import SCHEMA_VERSION, DocStore


@dataclass
class IndexedDocument:
    id: str
    store_path: Path
    doc_id: int
    name: str
    kind: str
    chars: int
    pages: int

    def summary(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "chars": self.chars,
                "pages": self.pages or None, "source": "index"}

    @contextmanager
    def opened(self) -> Iterator[SingleDocIndex]:
        """The document's index, its store closed afterwards."""
        store = DocStore(self.store_path)
        try:
            yield SingleDocIndex.open(store, self.doc_id)
        finally:
            store.close()


def list_indexed(folder: Path) -> list[IndexedDocument]:
    """Every single-document index stored under `folder`, with ids `idx-<store name>-<n>` (a corpus
    store, or one of another schema version, is left alone)."""
    found = []
    for path in sorted(folder.glob("*.sqlite")) if folder.is_dir() else []:
        if not is_document_store(path):
            continue
        store = DocStore(path)
        try:
            for doc_id in store.document_ids():
                meta = store.document(doc_id)
                found.append(IndexedDocument(f"idx-{path.stem}-{doc_id}", path, doc_id, Path(meta["path"]).name,
                                             meta["kind"], meta["chars"], len(meta["pages"])))
        finally:
            store.close()
    return found


def is_document_store(path: Path) -> bool:
    """Whether `path` is a single-document index of this schema version (checked read-only)."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return "corpus_docs" not in tables and version is not None and int(version[0]) == SCHEMA_VERSION


def find_indexed(folder: Path, doc_id: str) -> IndexedDocument | None:
    return next((doc for doc in list_indexed(folder) if doc.id == doc_id), None)

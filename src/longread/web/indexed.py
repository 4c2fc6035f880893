"""Documents and corpora already indexed on the server (by `longread index` or `ask`), offered for
analysis through their stored index: one SQLite store per document or per folder, under the index
folder."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from longread.errors import InputError
from longread.index.corpus import UPDATED, CorpusIndex
from longread.index.single import SingleDocIndex
from longread.store.docstore import SCHEMA_VERSION, DocStore
from longread.store.manifest import MANIFEST
from longread.store.open_corpus import open_corpus_store


@dataclass
class IndexedDocument:
    id: str
    store_path: Path
    store_id: int
    name: str
    kind: str
    chars: int
    pages: int

    def summary(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "chars": self.chars,
            "pages": self.pages or None,
            "source": "index",
        }

    @contextmanager
    def opened(self) -> Iterator[SingleDocIndex]:
        """The document's index, its store closed afterwards."""
        store = DocStore(self.store_path)
        try:
            yield SingleDocIndex.open(store, self.store_id)
        finally:
            store.close()


@dataclass
class IndexedCorpus:
    """A folder indexed as a corpus; its documents are named by their path in the folder."""

    id: str
    store_path: Path
    root: Path
    documents: int
    chars: int
    updated: float | None = None  # when its index was last brought in line (seconds since 1970)

    @property
    def name(self) -> str:
        return f"{self.root.name}/"

    def summary(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": "corpus",
            "chars": self.chars,
            "pages": None,
            "documents": self.documents,
            "updated": self.updated,
            "source": "index",
        }

    @contextmanager
    def opened(self) -> Iterator[CorpusIndex]:
        """The corpus index, its store closed afterwards."""
        store = open_corpus_store(self.store_path)
        try:
            yield CorpusIndex(self.root, store)
        finally:
            store.close()


Indexed = IndexedDocument | IndexedCorpus


def list_indexed(folder: Path) -> list[Indexed]:
    """Every index stored under `folder`: documents with ids `idx-<store name>-<n>`, corpora (whose
    folder still exists, in one store or in shards) with ids `corpus-<store name>`. A store of
    another schema version, or one that cannot be read, is left alone."""
    if not folder.is_dir():
        return []
    found: list[Indexed] = []
    sharded = {p.parent.with_suffix(".sqlite") for p in folder.glob(f"*.shards/{MANIFEST}")}
    for path in sorted({*folder.glob("*.sqlite"), *sharded}):
        kind = "corpus" if path in sharded else store_kind(path)
        if kind == "corpus":
            corpus = _corpus(path)
            if corpus is not None:
                found.append(corpus)
        elif kind == "document":
            store = DocStore(path)
            try:
                for doc_id in store.documents.ids():
                    meta = store.documents.get(doc_id)
                    found.append(
                        IndexedDocument(
                            f"idx-{path.stem}-{doc_id}",
                            path,
                            doc_id,
                            Path(meta["path"]).name,
                            meta["kind"],
                            meta["chars"],
                            len(meta["pages"]),
                        )
                    )
            finally:
                store.close()
    return found


def _corpus(index_file: Path) -> IndexedCorpus | None:
    """The corpus indexed in `index_file` (or in its shards), if its folder still exists, its index
    can be read and it holds a document (a folder of nothing readable is no document to ask)."""
    try:
        store = open_corpus_store(index_file)
    except (InputError, sqlite3.Error):
        return None
    try:
        root, (documents, chars), updated = (
            store.root(),
            store.catalog.totals(),
            store.setting(UPDATED),
        )
    finally:
        store.close()
    if root is None or not Path(root).is_dir() or not documents:
        return None
    return IndexedCorpus(
        f"corpus-{index_file.stem}",
        index_file,
        Path(root),
        documents,
        chars,
        float(updated) if updated else None,
    )


def store_kind(path: Path) -> str | None:
    """ "corpus" or "document" for an index of this schema version (checked read-only), else
    None."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            version = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if version is None or int(version[0]) != SCHEMA_VERSION:
        return None
    return "corpus" if "corpus_docs" in tables else "document"


def find_indexed(folder: Path, doc_id: str) -> Indexed | None:
    return next((doc for doc in list_indexed(folder) if doc.id == doc_id), None)

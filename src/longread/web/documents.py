"""Documents the server holds: parsed uploads and pasted text, kept in memory up to a bound (the
oldest are dropped first)."""

from __future__ import annotations

import itertools
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from longread.errors import InputError
from longread.ingest.document import load_document
from longread.ingest.loaded import LoadedDocument
from longread.ingest.text import decode
from longread.strategies.texts import TextDoc

SUFFIXES = frozenset({".pdf", ".docx", ".txt", ".text", ".md", ".markdown", ".html", ".htm"})


class UnsupportedTypeError(InputError):
    """A file whose type the loaders do not read (the server answers 415)."""


@dataclass
class StoredDocument:
    """One parsed document: `pages` as (number, start, end) for paged formats."""

    id: str
    name: str
    kind: str
    text: str
    pages: list[tuple[int, int, int]] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "chars": len(self.text),
            "pages": len(self.pages) or None,
            "source": "upload",
        }

    def as_text_doc(self) -> TextDoc:
        return TextDoc(self.id, self.name, self.text, self.pages)


def parse_upload(name: str, data: bytes) -> LoadedDocument:
    """Parse an uploaded file by its content (magic bytes) and name; 415-type error for others."""
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES and not data.startswith(b"%PDF-"):
        raise UnsupportedTypeError(
            f"{name}: unsupported file type '{suffix or 'none'}'; "
            "upload PDF, DOCX, HTML, markdown or text"
        )
    with tempfile.TemporaryDirectory(prefix="longread-upload-") as folder:
        path = Path(folder) / f"upload{suffix}"  # the name is the client's: never part of a path
        path.write_bytes(data)
        try:
            loaded = load_document(path)
        except (
            InputError
        ) as error:  # it names the server's file (or its base name): name the client's
            raise InputError(
                str(error).replace(str(path), name).replace(path.name, name)
            ) from error
    loaded.path = name
    return loaded


def parse_text(text: str) -> LoadedDocument:
    """Pasted text, normalized like a text file's."""
    normalized = decode(text.encode("utf-8"), "pasted text")
    if not normalized.strip():
        raise InputError("the pasted text is empty")
    return LoadedDocument("pasted text", "text", normalized)


class DocumentStore:
    """Parsed documents by id (`doc-1`, `doc-2`…), at most `max_chars` characters in all."""

    def __init__(self, max_chars: int):
        self.max_chars = max_chars
        self._docs: OrderedDict[str, StoredDocument] = OrderedDict()
        self._chars = 0  # (of the documents held)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, name: str, loaded: LoadedDocument) -> StoredDocument:
        with self._lock:
            doc = StoredDocument(
                f"doc-{next(self._ids)}",
                name,
                loaded.kind,
                loaded.text,
                [(p.number, p.start, p.end) for p in loaded.pages],
            )
            self._docs[doc.id] = doc
            self._chars += len(doc.text)
            while self._chars > self.max_chars and len(self._docs) > 1:
                self._chars -= len(self._docs.popitem(last=False)[1].text)
            return doc

    def get(self, doc_id: str) -> StoredDocument | None:
        with self._lock:
            return self._docs.get(doc_id)

    def remove(self, doc_id: str) -> bool:
        with self._lock:
            gone = self._docs.pop(doc_id, None)
            self._chars -= len(gone.text) if gone else 0
            return gone is not None

    def newest(self, limit: int) -> tuple[list[StoredDocument], int]:
        """The `limit` documents added last (in the order added), and how many older ones are
        held too."""
        with self._lock:
            kept = list(itertools.islice(reversed(self._docs.values()), limit))
            return kept[::-1], len(self._docs) - len(kept)

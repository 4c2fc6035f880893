"""Loading any supported file: its kind from its first bytes (else its suffix), then the loader
for that kind. Text and markdown are decoded here; PDF, DOCX and HTML have a module each, imported
only when such a file is loaded (their libraries are large)."""

from __future__ import annotations

import importlib
import mmap
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from longread.errors import InputError
from longread.ingest.loaded import LoadedDocument, short_reason
from longread.ingest.text import check_file, open_regular, text_of

_SUFFIX_KINDS = {
    "": "text",
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
}
LOADERS = {  # kind -> (module, function) of its loader
    "pdf": ("longread.ingest.pdf", "load_pdf"),
    "docx": ("longread.ingest.docx", "load_docx"),
    "html": ("longread.ingest.html", "load_html"),
}


def _loader(kind: str) -> Callable[[Path], LoadedDocument]:
    module, function = LOADERS[kind]
    return getattr(importlib.import_module(module), function)


def load_document(path: str | Path) -> LoadedDocument:
    """Load any supported file; the content's magic bytes win over its suffix. A text file is
    opened once and decoded from the file mapped into memory (no copy of its bytes). A file the
    system will not open (a symlink loop, no permission) is an InputError too."""
    try:
        p = check_file(path)
        suffix = p.suffix.lower()
        with open_regular(p) as handle:
            kind = _sniff(handle.read(5), p) or _SUFFIX_KINDS.get(suffix)
            if kind not in LOADERS:
                with _mapped(handle) as data:
                    text, verbatim = _text(data, p, kind, suffix)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or short_reason(exc)}") from exc
    if kind in LOADERS:
        return _loader(kind)(p)
    return LoadedDocument(str(p), kind or "text", text, verbatim=verbatim)


@contextmanager
def _mapped(handle: BinaryIO) -> Iterator[bytes | mmap.mmap]:
    """The open file's bytes, mapped into memory (read whole where the system cannot map it)."""
    try:
        view = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        handle.seek(0)
        yield handle.read()
        return
    with view:
        yield view


def _text(data: bytes | mmap.mmap, path: Path, kind: str | None, suffix: str) -> tuple[str, bool]:
    """The text of a text or markdown file (or of one of no known kind, if it decodes), and
    whether it is the file's bytes unchanged."""

    try:
        return text_of(data, path)
    except InputError as exc:
        if kind is None:
            raise InputError(f"unsupported file type '{suffix}' ({exc})") from exc
        raise


def _sniff(head: bytes, path: Path) -> str | None:
    """ "pdf" or "docx" when the content (its first bytes `head`) says so, whatever the name."""
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as archive:
                return "docx" if "word/document.xml" in archive.namelist() else None
        except (zipfile.BadZipFile, OSError):
            return None
    return None

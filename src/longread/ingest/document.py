"""Loading any supported file: its kind from its first bytes (else its suffix), then the loader
for that kind. Text and markdown are decoded here; PDF, DOCX and HTML have a module each, imported
only when such a file is loaded (their libraries are large)."""

from __future__ import annotations

import importlib
import zipfile
from collections.abc import Callable
from pathlib import Path

from longread.errors import InputError
from longread.ingest.loaded import LoadedDocument, short_reason
from longread.ingest.text import check_file, text_of

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
    opened once and read whole. A file the system will not open (a symlink loop, no permission)
    is an InputError too."""
    try:
        p = check_file(path)
        suffix = p.suffix.lower()
        with p.open("rb") as handle:
            kind = _sniff(handle.read(5), p) or _SUFFIX_KINDS.get(suffix)
            data = b""  # read below for text (from the start: head + rest would copy a large file)
            if kind in (None, "text", "markdown"):
                handle.seek(0)
                data = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or short_reason(exc)}") from exc
    if kind in LOADERS:
        return _loader(kind)(p)
    try:
        text = text_of(data, p)
    except InputError as exc:
        if kind is None:
            raise InputError(f"unsupported file type '{suffix}' ({exc})") from exc
        raise
    return LoadedDocument(str(p), kind or "text", text)


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

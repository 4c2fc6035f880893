"""A loaded document of any supported format: its normalized text, page spans and headings."""

from __future__ import annotations

import zipfile
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

from longread.errors import InputError
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


@dataclass
class PageSpan:
    """Where one page (numbered from 1) lies in the text: [start, end)."""

    number: int
    start: int
    end: int


@dataclass
class Heading:
    """A heading the file itself declares; `start` is where it begins in the text."""

    title: str
    level: int
    start: int


@dataclass
class LoadedDocument:
    """A document's normalized text plus the structure its file format told us about."""

    path: str
    kind: str
    text: str
    pages: list[PageSpan] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)

    def page_at(self, offset: int) -> int | None:
        """The page holding `offset` (a separator belongs to the page before it), or None."""
        if not self.pages or not 0 <= offset < len(self.text):
            return None
        index = bisect_right(self.pages, offset, key=lambda page: page.start) - 1
        return self.pages[index].number if index >= 0 else None


class TextBuilder:
    """Assembles a text piece by piece, knowing each piece's offset. Line breaks are only
    requested, then written before the next piece, so the text never starts or ends with
    them and holds at most one blank line in a row."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._pending_break = 0
        self.headings: list[Heading] = []

    @property
    def at_line_start(self) -> bool:
        """Whether the next piece starts a line."""
        return self._length == 0 or self._pending_break > 0

    def end_line(self, blank: bool = False) -> None:
        """Ask for a line break (or a blank line) before the next piece."""
        self._pending_break = max(self._pending_break, 2 if blank else 1)

    def write(self, piece: str) -> int:
        """Append `piece` after any requested break; return its start offset."""
        if not piece:
            return self._length
        if self._pending_break and self._length:
            self._append("\n" * self._pending_break)
        self._pending_break = 0
        start = self._length
        self._append(piece)
        return start

    def block(self, piece: str) -> int:
        """Write `piece` as a block set off by blank lines; return its start offset."""
        self.end_line(blank=True)
        start = self.write(piece)
        self.end_line(blank=True)
        return start

    def heading(self, title: str, level: int) -> None:
        """Write a heading block (whitespace collapsed) and record it."""
        title = " ".join(title.split())
        if title:
            self.headings.append(Heading(title, level, self.block(title)))

    def text(self) -> str:
        """Everything written so far."""
        return "".join(self._parts)

    def _append(self, piece: str) -> None:
        self._parts.append(piece)
        self._length += len(piece)


def short_reason(exc: BaseException) -> str:
    """A one-line, bounded description of an exception for an error message."""
    message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc  # unquoted
    lines = str(message).strip().splitlines()
    reason = lines[0] if lines else type(exc).__name__
    return reason if len(reason) <= 120 else reason[:117] + "..."


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
    if kind == "pdf":
        from longread.ingest.pdf import load_pdf

        return load_pdf(p)
    if kind == "docx":
        from longread.ingest.docx import load_docx

        return load_docx(p)
    if kind == "html":
        from longread.ingest.html import load_html

        return load_html(p)
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

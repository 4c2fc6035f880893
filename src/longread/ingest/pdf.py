"""Load a PDF's text layer page by page, with page spans and its outline as headings."""

from __future__ import annotations

import logging
import re
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pypdf import PasswordType, PdfReader
from pypdf.errors import PyPdfError

from longread.errors import InputError
from longread.ingest.loaded import Heading, LoadedDocument, PageSpan, TextBuilder, short_reason
from longread.ingest.pdf_tables import with_tables
from longread.ingest.text import check_file

# What pypdf may raise on a damaged file: its own errors, and plain ones from deep inside.
_READ_ERRORS = (
    PyPdfError,
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    AssertionError,
    RecursionError,
    OverflowError,
    zlib.error,
    NotImplementedError,  # (a stream filter pypdf does not read, or a damaged filter name)
)


class _QuietPypdf:
    """pypdf's logger silenced while at least one PDF is being read: its notes on a damaged file
    ("EOF marker not found") would print before the one-line error. Threads may read several PDFs
    at once; the first in silences the logger and the last out restores its level."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._readers = 0
        self._level = logging.NOTSET

    def __enter__(self) -> None:
        logger = logging.getLogger("pypdf")
        with self._lock:
            if self._readers == 0:
                self._level = logger.level
                logger.setLevel(logging.CRITICAL + 1)
            self._readers += 1

    def __exit__(self, *exc_info: object) -> None:
        with self._lock:
            self._readers -= 1
            if self._readers == 0:
                logging.getLogger("pypdf").setLevel(self._level)


_quiet_pypdf = _QuietPypdf()


def load_pdf(path: str | Path) -> LoadedDocument:
    """The text of every page joined by blank lines, each page's span, and outline headings."""
    p = check_file(path)
    with _quiet_pypdf:
        reader = _open(p)
        builder = TextBuilder()
        pages = []
        for number, page_text in with_tables(p, list(_page_texts(reader, p))):
            start = builder.block(page_text)
            pages.append(PageSpan(number, start, start + len(page_text)))
        text = builder.text()
        if not text or text.isspace():
            raise InputError(f"{p} has no text layer (scanned images?); OCR it first")
        return LoadedDocument(str(p), "pdf", text, pages, _outline_headings(reader, text, pages))


def _open(path: Path) -> PdfReader:
    """A reader with at least one page, decrypted if an empty password opens it."""
    try:
        reader = PdfReader(path)
        if reader.is_encrypted:
            _decrypt(reader, path)
        page_count = len(reader.pages)
    except _READ_ERRORS as exc:
        raise InputError(f"{path} is not a readable PDF ({short_reason(exc)})") from exc
    if page_count == 0:
        raise InputError(f"{path} has no pages")
    return reader


def _decrypt(reader: PdfReader, path: Path) -> None:
    """Open an encrypted PDF that needs no user password; refuse one that does."""
    try:
        opened = reader.decrypt("")
    except _READ_ERRORS as exc:
        raise InputError(
            f"{path} is encrypted and cannot be decrypted ({short_reason(exc)})"
        ) from exc
    if opened == PasswordType.NOT_DECRYPTED:
        raise InputError(f"{path} is encrypted (password-protected)")


def _page_texts(reader: PdfReader, path: Path) -> Iterator[tuple[int, str]]:
    """Each page's number (from 1) and extracted text, newlines normalized, one page at a time."""
    for number, page in enumerate(reader.pages, 1):
        try:
            raw = page.extract_text()
        except _READ_ERRORS as exc:
            raise InputError(
                f"{path} is not a readable PDF (page {number}: {short_reason(exc)})"
            ) from exc
        yield number, raw.replace("\r\n", "\n").replace("\r", "\n")


def _outline_headings(reader: PdfReader, text: str, pages: list[PageSpan]) -> list[Heading]:
    """Outline entries as headings, in text order; entries without a known page are skipped."""
    try:
        outline = reader.outline
    except _READ_ERRORS:
        return []
    headings = []
    for entry, level in _walk_outline(outline, 1):
        title = " ".join(str(getattr(entry, "title", None) or "").split())
        index = _page_index(reader, entry)
        if title and index is not None and 0 <= index < len(pages):
            headings.append(Heading(_title_offset(text, title, pages[index]), level, title))
    headings.sort(key=lambda heading: heading.start)
    return headings


def _walk_outline(outline: list[Any], level: int) -> Iterator[tuple[Any, int]]:
    """Every outline entry with its depth; a nested list holds the previous entry's children."""
    for item in outline:
        if isinstance(item, list):
            yield from _walk_outline(item, level + 1)
        else:
            yield item, level


def _page_index(reader: PdfReader, entry: Any) -> int | None:
    """The 0-based page an outline entry points to, or None."""
    try:
        return reader.get_destination_page_number(entry)
    except _READ_ERRORS:
        return None


def _title_offset(text: str, title: str, page: PageSpan) -> int:
    """Where `title` appears on its page (ignoring case and spacing), else the page's start."""
    pattern = re.compile(r"\s*".join(map(re.escape, title.split())), re.IGNORECASE)
    match = pattern.search(text, page.start, page.end)
    return match.start() if match else page.start

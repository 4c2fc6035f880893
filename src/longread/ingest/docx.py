"""Load a Word (.docx) file: paragraphs and tables in body order, headings from styles."""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path

import docx
from docx.document import Document
from docx.opc.exceptions import OpcError
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml.etree import LxmlError

from longread.errors import InputError
from longread.ingest.loaded import LoadedDocument, TextBuilder, short_reason
from longread.ingest.text import check_file

_HEADING_STYLE = re.compile(r"heading ([1-9])", re.IGNORECASE)
# What python-docx may raise on a damaged package, besides its own errors.
_READ_ERRORS = (
    zipfile.BadZipFile,
    KeyError,
    ValueError,
    AttributeError,
    TypeError,
    IndexError,
    LxmlError,
    zlib.error,
)


def load_docx(path: str | Path) -> LoadedDocument:
    """The body's paragraphs and tables as blocks separated by blank lines."""
    p = check_file(path)
    try:
        builder = _render(docx.Document(str(p)))
    except OpcError as exc:
        raise InputError(f"{p} is not a readable DOCX (not a Word package)") from exc
    except _READ_ERRORS as exc:
        raise InputError(f"{p} is not a readable DOCX ({short_reason(exc)})") from exc
    text = builder.text()
    if not text:
        raise InputError(f"{p} has no text")
    return LoadedDocument(str(p), "docx", text, headings=builder.headings)


def _render(document: Document) -> TextBuilder:
    """Paragraphs and tables in body order."""
    builder = TextBuilder()
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            _add_paragraph(builder, item)
        else:
            builder.block(_table_text(item))
    return builder


def _add_paragraph(builder: TextBuilder, paragraph: Paragraph) -> None:
    """A heading if its style says so, else a plain block; empty paragraphs add nothing."""
    text = paragraph.text.strip()
    level = _heading_level(paragraph)
    if level is None:
        builder.block(text)
    else:
        builder.heading(text, level)


def _heading_level(paragraph: Paragraph) -> int | None:
    """1 for "Title", N for "Heading N", None for any other style."""
    name = getattr(paragraph.style, "name", None) or ""
    if name == "Title":
        return 1
    match = _HEADING_STYLE.fullmatch(name)
    return int(match.group(1)) if match else None


def _table_text(table: Table) -> str:
    """One line per non-empty row, cells joined by " | " (a merged cell counted once)."""
    lines = []
    for row in table.rows:
        cells, previous = [], None
        for cell in row.cells:
            if cell is not previous:  # python-docx repeats a merged cell's object
                cells.append(" ".join(cell.text.split()))
            previous = cell
        if any(cells):
            lines.append(" | ".join(cells))
    return "\n".join(lines)

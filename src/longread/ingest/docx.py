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
from longread.ingest.loaded import Figure, LoadedDocument, TextBuilder, short_reason
from longread.ingest.pictures import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES
from longread.ingest.text import check_file
from longread.ingest.zip_parts import check_package

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
    OSError,  # (a damaged directory: a seek before the start)
    EOFError,
    NotImplementedError,  # (a compression method zipfile does not read)
)


def load_docx(path: str | Path) -> LoadedDocument:
    """The body's paragraphs and tables as blocks separated by blank lines."""
    p = check_file(path)
    try:
        check_package(p)
        builder = _render(docx.Document(str(p)))
    except OpcError as exc:
        raise InputError(f"{p} is not a readable DOCX (not a Word package)") from exc
    except _READ_ERRORS as exc:
        raise InputError(f"{p} is not a readable DOCX ({short_reason(exc)})") from exc
    text = builder.text()
    if not text:
        raise InputError(f"{p} has no text")
    return LoadedDocument(str(p), "docx", text, headings=builder.headings, figures=builder.figures)


def _render(document: Document) -> _Built:
    """Paragraphs (and their pictures) and tables in body order."""
    builder = _Built()
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            _add_paragraph(builder, item)
            builder.figures += [_placed(builder, *picture) for picture in _pictures(item)]
        else:
            builder.block(_table_text(item))
    return builder


class _Built(TextBuilder):
    def __init__(self) -> None:
        super().__init__()
        self.figures: list[Figure] = []
        self._kept: set[int] = set()  # the ids of the pictures' bytes kept
        self._kept_bytes = 0  # and their size

    def kept(self, data: bytes | None) -> bytes | None:
        """`data`, unless it is a picture that would take the document's pictures past
        MAX_DOCUMENT_BYTES (more than a vision model is shown of one document: not kept)."""
        if data is None or id(data) in self._kept:
            return data
        if self._kept_bytes + len(data) > MAX_DOCUMENT_BYTES:
            return None
        self._kept.add(id(data))
        self._kept_bytes += len(data)
        return data


def _pictures(paragraph: Paragraph) -> list[tuple[str, str, bytes | None]]:
    """(alt text, media type, bytes or None) of each picture drawn in the paragraph."""
    found = []
    for drawing in paragraph._p.xpath(".//w:drawing"):
        alt = drawing.xpath("string(.//wp:docPr/@descr)") or drawing.xpath(
            "string(.//wp:docPr/@title)"
        )
        embedded = drawing.xpath("string(.//a:blip/@r:embed)")
        image = paragraph.part.related_parts.get(embedded) if embedded else None
        blob = getattr(image, "blob", None)
        kind = getattr(image, "content_type", "image/png")
        found.append(
            (" ".join(alt.split()), kind, blob if blob and len(blob) <= MAX_IMAGE_BYTES else None)
        )
    return found


def _placed(builder: _Built, alt: str, kind: str, data: bytes | None) -> Figure:
    """A picture's figure, its alt text written as a line of the text (`[Image: a tide chart]`)
    and its description to follow."""
    if alt:
        builder.block(f"[Image: {alt}]")
    return Figure(builder.length, None, alt, kind, builder.kept(data))


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

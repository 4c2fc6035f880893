"""A document's figures: each picture with the caption or alt text its file gives it, the page it is
on and where in the text a description of it belongs (after its caption). A DOCX's and an HTML
page's are found as their text is built (`LoadedDocument.figures`); a PDF's are read from its
pages when asked for (`pdf_figures`: rendering them costs time), each page drawn once, under
MAX_RENDER_PIXELS however large it says it is. A picture is data, bounded in size, sent to a
vision model and nowhere else. `with_descriptions` writes descriptions into the text, so that
search finds them and an answer cites them with their page."""

from __future__ import annotations

import io
import logging
import math
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from longread.ingest.loaded import Figure, Heading, LoadedDocument, PageSpan
from longread.ingest.pictures import MAX_IMAGE_BYTES

if TYPE_CHECKING:
    from pdfplumber.page import Page
    from PIL.Image import Image
    from pypdfium2 import PdfPage

MIN_POINTS = 24  # a PDF image smaller than this on either side is a mark, not a figure
CAPTION_POINTS = 48  # how far below (or above) a PDF image its caption may start
RENDER_DPI = 110
MAX_RENDER_PIXELS = 8_000_000  # a page is drawn at RENDER_DPI, or smaller to stay under this
MAX_PDF_FIGURES = 200  # figures read from one PDF at most


def pdf_figures(path: str | Path, document: LoadedDocument) -> Iterator[Figure]:
    """The images of a PDF's pages large enough to be figures, each rendered to PNG, with the line
    just below it (else just above) as its caption, placed after that caption's line in the
    text (else at its page's end), one at a time; none (more) where the file cannot be read."""
    import pdfplumber  # (large: loaded only when figures are read)
    import pypdfium2

    count = 0
    try:
        with pdfplumber.open(str(path)) as pdf, pypdfium2.PdfDocument(str(path)) as drawable:
            for number, page in enumerate(pdf.pages, 1):
                images = page.images[: MAX_PDF_FIGURES - count]
                boxes = [box for image in images if (box := _inside(page, image)) is not None]
                drawn = _drawn(drawable[number - 1]) if boxes else None
                span = next((p for p in document.pages if p.number == number), None)
                for box in boxes:
                    caption = _caption(page, box)
                    at = _after_line(document.text, caption, span)
                    count += 1
                    yield Figure(at, number, caption, data=_rendered(page, box, drawn))
    except Exception:  # noqa: BLE001 - pdfminer raises many kinds on a damaged file: the text stays
        logging.getLogger(__name__).warning("the figures of %s cannot be read", path)


def _drawn(page: PdfPage) -> tuple[Image, float] | None:
    """The whole page drawn, and at what resolution: RENDER_DPI, or less for a page so large that
    it would take more than MAX_RENDER_PIXELS (None if it cannot be drawn)."""
    try:
        width, height = page.get_size()
        dpi = min(RENDER_DPI, 72 * math.sqrt(MAX_RENDER_PIXELS / max(1.0, width * height)))
        return page.render(scale=dpi / 72).to_pil(), dpi
    except Exception:  # (a damaged page: its figures keep their captions)
        return None


def _inside(page: Page, image: dict) -> tuple[float, float, float, float] | None:
    """The image's box clipped to its page, if it is large enough to be a figure."""
    width, height = float(page.width), float(page.height)
    x0, top = max(0.0, float(image["x0"])), max(0.0, float(image["top"]))
    x1, bottom = min(width, float(image["x1"])), min(height, float(image["bottom"]))
    if x1 - x0 < MIN_POINTS or bottom - top < MIN_POINTS:
        return None
    return x0, top, x1, bottom


def _caption(page: Page, box: tuple[float, float, float, float]) -> str:
    """The first line of text just below the box, else the last just above it."""
    width, height = page.width, page.height
    below = (0, box[3], width, min(height, box[3] + CAPTION_POINTS))
    above = (0, max(0, box[1] - CAPTION_POINTS), width, box[1])
    for area, pick in ((below, 0), (above, -1)):
        if area[3] - area[1] < 1:
            continue
        lines = (page.crop(area).extract_text() or "").splitlines()
        lines = [line.strip() for line in lines if line.strip()]
        if lines:
            return lines[pick]
    return ""


def _rendered(
    page: Page, box: tuple[float, float, float, float], drawn: tuple[Image, float] | None
) -> bytes | None:
    """The box of the page (`drawn`: the page drawn whole, and at what resolution) as a PNG
    (None if it cannot be, or is too large to send)."""
    from pdfplumber.display import PageImage

    if drawn is None:
        return None
    try:
        picture = PageImage(page.crop(box), original=drawn[0], resolution=drawn[1])
        out = io.BytesIO()
        picture.original.save(out, format="PNG")
    except Exception:  # (a damaged image stream: the figure keeps its caption)
        return None
    data = out.getvalue()
    return data if len(data) <= MAX_IMAGE_BYTES else None


def _after_line(text: str, caption: str, span: PageSpan | None) -> int:
    """The end of the line holding `caption` on the page (whitespace aside), else the page's end
    (else the text's)."""
    start, end = (span.start, span.end) if span else (0, len(text))
    words = caption.split()[:8]
    if words:
        found = re.compile(r"\s+".join(map(re.escape, words))).search(text, start, end)
        if found:
            stop = text.find("\n", found.end(), end)
            return stop if stop >= 0 else end
    return end


def with_descriptions(
    document: LoadedDocument, described: list[tuple[Figure, str]]
) -> LoadedDocument:
    """The document with each figure's description written as a line of its own where the figure's
    description belongs (`[Figure, page 3: …]`), its pages and headings moved to match."""
    inserts = sorted(
        (
            (f.at, f"\n[Figure{f', page {f.page}' if f.page else ''}: {text}]")
            for f, text in described
        ),
        key=lambda pair: pair[0],
    )
    if not inserts:
        return document
    parts, shifts, last = [], [], 0
    for at, block in inserts:
        parts += [document.text[last:at], block]
        shifts.append((at, len(block)))
        last = at
    parts.append(document.text[last:])

    def moved(offset: int, after_insert: bool) -> int:
        return offset + sum(n for at, n in shifts if at < offset or (after_insert and at == offset))

    pages = [PageSpan(p.number, moved(p.start, False), moved(p.end, True)) for p in document.pages]
    headings = [Heading(moved(h.start, False), h.level, h.title) for h in document.headings]
    return replace(document, text="".join(parts), pages=pages, headings=headings)

"""What every loader gives back: a document's normalized text, its page spans and the headings its
file declares; and the builder the structured formats (PDF, DOCX, HTML) assemble text with."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass
class PageSpan:
    """Where one page (numbered from 1) lies in the text: [start, end)."""

    number: int
    start: int
    end: int


class Heading(NamedTuple):
    """A heading: where it begins in the text, its level (1 is the top) and its title. Found by
    the rules (`ingest.headings`) or declared by the file (a PDF outline, DOCX heading styles)."""

    start: int
    level: int
    title: str


@dataclass(frozen=True)
class Figure:
    """A picture of the document: where its description goes in the text (`at`), its page, its
    caption or alt text ("" if none), and its bytes (None where they cannot be read, or are read
    only when wanted: from `source`, a picture file's path or a `data:` URL)."""

    at: int
    page: int | None
    caption: str
    media_type: str = "image/png"
    data: bytes | None = None
    source: str = ""


@dataclass
class LoadedDocument:
    """A document's normalized text plus the structure its file format told us about."""

    path: str
    kind: str
    text: str
    pages: list[PageSpan] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    verbatim: bool = False  # the text is the file's bytes as UTF-8, unchanged (a plain text file)
    figures: list[Figure] = field(default_factory=list)  # a DOCX's or an HTML page's pictures

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
    def length(self) -> int:
        """Characters written so far."""
        return self._length

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
            self.headings.append(Heading(self.block(title), level, title))

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

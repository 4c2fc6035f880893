"""Load an HTML page as readable text: blocks on their own lines, h1-h6 as headings, a table's rows
a line each (`a | b`, a rule under a row of header cells)."""

from __future__ import annotations

import codecs
import re
import warnings
from pathlib import Path

from bs4 import (
    BeautifulSoup,
    MarkupResemblesLocatorWarning,
    NavigableString,
    Tag,
    XMLParsedAsHTMLWarning,
)

from longread.errors import InputError
from longread.ingest.loaded import Figure, LoadedDocument, TextBuilder
from longread.ingest.pictures import picture_source
from longread.ingest.text import check_file, decode

_DROPPED = {"script", "style", "noscript", "template", "head", "title"}
_HEADING_LEVELS = {f"h{n}": n for n in range(1, 7)}
_LINE_TAGS = {"br", "li", "tr", "dt", "dd", "caption", "figcaption", "summary", "option"}
_BLOCK_TAGS = {
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "details",
    "dialog",
    "div",
    "dl",
    "fieldset",
    "figure",
    "footer",
    "form",
    "header",
    "hr",
    "html",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
}
_CELL_TAGS = {"td", "th"}
_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([\w.:-]+)", re.IGNORECASE)
# Browsers read pages labelled Latin-1 or ASCII as Windows-1252, and so do we.
_WINDOWS_1252_ALIASES = {"latin-1", "ascii"}


def load_html(path: str | Path) -> LoadedDocument:
    """The page's visible text, with its h1-h6 (or else its <title>) as headings."""
    p = check_file(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(_decode(p.read_bytes(), p.name), "html.parser")
    renderer = _Renderer(soup, p.parent)
    text = renderer.builder.text()
    if not text or text.isspace():
        raise InputError(f"{p} has no text")
    headings, figures = renderer.builder.headings, renderer.figures
    return LoadedDocument(str(p), "html", text, headings=headings, figures=figures)


def _decode(data: bytes, name: str) -> str:
    """UTF-8 when the bytes are valid UTF-8, else the <meta> charset, else detection."""
    charset = _declared_charset(data)
    if charset is not None:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode(charset, errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return decode(data, name)


def _declared_charset(data: bytes) -> str | None:
    """The codec named by a <meta charset> near the top of the page, if Python knows it."""
    match = _META_CHARSET.search(data, 0, 4096)
    if match is None:
        return None
    try:
        codec = codecs.lookup(match.group(1).decode("ascii")).name
    except LookupError:
        return None
    return "cp1252" if codec in _WINDOWS_1252_ALIASES else codec


class _Renderer:
    """Walks the parse tree without recursion (pages can nest deeply) and writes its text."""

    def __init__(self, soup: BeautifulSoup, folder: Path) -> None:
        self.builder = TextBuilder()
        self.folder = folder.resolve()  # (the page's own: a picture outside it is never read)
        self.figures: list[Figure] = []
        self._gap = ""  # what goes between this piece and the next on the same line
        self._pre_depth = 0
        self._title_heading(soup)
        self._walk(soup)

    def _walk(self, soup: BeautifulSoup) -> None:
        """Visit every node in document order, calling _open/_close around each tag's content."""
        stack: list[tuple[object, bool]] = [(soup, False)]
        while stack:
            node, closing = stack.pop()
            if isinstance(node, Tag):
                if closing:
                    self._close(node)
                elif self._open(node):
                    stack.append((node, True))
                    stack.extend((child, False) for child in reversed(node.contents))
            elif type(node) is NavigableString:  # not comments, doctypes, script text...
                self._text(str(node))

    def _title_heading(self, soup: BeautifulSoup) -> None:
        """Start with the <title> as a level-1 heading when the page has no h1 of its own."""
        title = soup.find("title")
        if title and not any(h1.get_text(strip=True) for h1 in soup.find_all("h1")):
            self.builder.heading(title.get_text(), 1)

    def _open(self, tag: Tag) -> bool:
        """Handle a start tag; False when its content must not be walked."""
        name = tag.name
        if name in _DROPPED:
            return False
        if name in _HEADING_LEVELS:
            for br in tag.find_all("br"):
                br.replace_with(" ")
            self.builder.heading(tag.get_text(), _HEADING_LEVELS[name])
            self._gap = ""
            return False
        self._break(name)
        if name in _CELL_TAGS and not self.builder.at_line_start:
            self._gap = " | "
        if name == "pre":
            self._pre_depth += 1
        if name == "img":
            self._image(tag)
        return True

    def _image(self, tag: Tag) -> None:
        """A picture: its alt text written as a line (`[Image: a tide chart]`), and a figure whose
        description follows it (its bytes are read only if a vision model is to describe it)."""
        alt = " ".join(str(tag.get("alt") or "").split())
        if alt:
            self.builder.end_line()
            self.builder.write(f"[Image: {alt}]")
            self.builder.end_line()
        kind, source = picture_source(str(tag.get("src") or ""), self.folder)
        self.figures.append(Figure(self.builder.length, None, alt, kind, source=source))

    def _close(self, tag: Tag) -> None:
        self._break(tag.name)
        if tag.name == "pre":
            self._pre_depth -= 1
        if tag.name == "tr":
            cells = tag.find_all(_CELL_TAGS, recursive=False)
            if cells and all(cell.name == "th" for cell in cells):  # (a rule under a header)
                self.builder.write(" | ".join(["---"] * len(cells)))
                self.builder.end_line(blank=False)

    def _break(self, name: str) -> None:
        """Block tags set their content off by blank lines; line tags just start a new line."""
        if name in _BLOCK_TAGS or name in _LINE_TAGS:
            self.builder.end_line(blank=name in _BLOCK_TAGS)
            self._gap = ""

    def _text(self, text: str) -> None:
        """Write a text node, collapsing its whitespace outside <pre>."""
        if self._pre_depth:
            self._preformatted(text)
            return
        if text[:1].isspace():
            self._gap = self._gap or " "
        for index, word in enumerate(text.split()):
            if index:
                self._gap = " "
            self._word(word)
        if text[-1:].isspace():
            self._gap = " "

    def _word(self, word: str) -> None:
        """Write `word`, preceded by the pending gap unless it starts a line."""
        self.builder.write(word if self.builder.at_line_start else self._gap + word)
        self._gap = ""

    def _preformatted(self, text: str) -> None:
        """Keep spacing inside <pre>; each newline ends a line, several leave one blank line."""
        parts = re.split(r"(\n+)", text)
        for index, part in enumerate(parts):
            if part.startswith("\n"):
                self.builder.end_line(blank=len(part) > 1)
            elif part:
                self.builder.write(part.rstrip() if index + 1 < len(parts) else part)
        self._gap = ""

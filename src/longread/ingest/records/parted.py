"""Pieces parted by a line of one mark: a fortune file's `%`, a collection's `----` or `***`
between its items. Each piece is a record; where many end with an attribution line (`-- Mark
Twain`, `— Anon.`), it is the piece's `author`. A heading's underline (`=====` as long as the line
above it) parts nothing."""

from __future__ import annotations

import re
from collections import Counter

from longread.ingest.records.kind import MIN_ROWS, lines
from longread.ingest.records.table import Column, Role, Table, build, identifier

name = "parted"
NOUNS = ("piece", "entry", "item", "record")
WHOLE: tuple[str, ...] = ()
_MARK = re.compile(r"[ \t]*([%*=~_+-])\1{0,79}[ \t]*")
_BY = re.compile(r"[ \t]*(?:--|—|―)[ \t]*(\S.*?)[ \t]*")
SHARE = 0.03  # of a text's lines, those that part it
BY_SHARE = 0.2  # of its pieces, those ending with an attribution, for an `author` column
SAMPLE_LINES = 20_000


def detect(sample: str) -> bool:
    return _mark(sample) is not None


def _mark(text: str) -> str | None:
    """The mark whose lines part the text: SHARE of its lines or more, most of them not a
    heading's underline."""
    parting: Counter[str] = Counter()
    underlines: Counter[str] = Counter()
    previous = ""
    filled = 0
    for count, (start, end) in enumerate(lines(text)):
        if count >= SAMPLE_LINES:
            break
        line = text[start:end]
        found = _MARK.fullmatch(line) if line.strip() else None
        if found:
            parting[found.group(1)] += 1
            width = len(line.strip())
            if previous.strip() and width >= 3 and abs(len(previous.strip()) - width) <= 1:
                underlines[found.group(1)] += 1
        filled += bool(line.strip())
        previous = line
    for mark, count in parting.most_common():
        if count >= max(MIN_ROWS, SHARE * filled) and underlines[mark] * 2 < count:
            return mark
    return None


def records(text: str, file_name: str) -> list[Table]:
    mark = _mark(text)
    if mark is None:
        return []
    pieces: list[tuple[int, int]] = []
    start = 0
    for line_start, line_end in lines(text):
        found = _MARK.fullmatch(text, line_start, line_end)
        if found and found.group(1) == mark and text[line_start:line_end].strip():
            pieces.append((start, line_start))
            start = line_end + 1
    pieces.append((start, len(text)))
    cells = []
    for piece_start, piece_end in pieces:
        body = text[piece_start:piece_end]
        if not body.strip():
            continue
        first = piece_start + len(body) - len(body.lstrip())
        last = piece_start + len(body.rstrip())
        cells.append((first, last, _said(text[first:last])))
    authored = sum(1 for _, _, (_, by) in cells if by)
    columns = [Column("text", role=Role.BODY)]
    if authored >= BY_SHARE * len(cells):
        columns.append(Column("author", role=Role.WHO, aliases=("by", "attribution", "source")))
    rows = [(s, e, list(said[: len(columns)])) for s, e, said in cells]
    return [build(identifier(_stem(file_name)), name, columns, rows, NOUNS)]


def _said(piece: str) -> tuple[str, str | None]:
    """A piece's text, and who it is attributed to, if its last line says."""
    head, _, last = piece.rpartition("\n")
    found = _BY.fullmatch(last) if head else None
    if found is None:
        return " ".join(piece.split()), None
    return " ".join(head.split()), found.group(1).rstrip(".,")


def _stem(file_name: str) -> str:
    return file_name.rsplit("/", 1)[-1].rsplit(".", 1)[0] or "pieces"

"""Tables: a pipe table (Markdown's, or the one the HTML, DOCX and PDF loaders write for a
`<table>`, a Word table or a PDF table: `| a | b |` lines, a `|---|` rule under the header), and a
whole file of delimiter-separated values (CSV, TSV, `;`, `|`, `:`, or spaces where nearly every
line parts into as many fields), its `#` comment lines left out. The header row names the
columns (a file whose first row is data has none: its columns are named by a comment line above
the data that splits as the rows do, else by their place); a table is named after the heading or
caption line just above it, else its file."""

from __future__ import annotations

import csv
import itertools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import PurePath
from typing import Any

from longread.ingest.records.atoms import PATTERNS
from longread.ingest.records.cells import ColumnType, number
from longread.ingest.records.kind import MIN_ROWS, lines
from longread.ingest.records.table import Column, Role, Table, build, identifier, key_role

name = "table"
NOUNS = ("row", "entry", "record", "item")
WHOLE = ("table", "spreadsheet", "sheet", "dataset")
_RULE = re.compile(  # (each run of white space read once: linear on a line of tabs)
    r"^[ \t]*+\|?(?:[ \t]*+:?-{2,}:?[ \t]*+\|)+[ \t]*+(?::?-{2,}:?[ \t]*+)?\|?[ \t]*+$"
)
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_DELIMITERS = ",\t;|:"
TABS = "\t+"  # (runs of tabs, one delimiter: `tcp\t6\tTCP\t\t# transmission control`)
_CLOCK = re.compile(r"(?<![:\d])\d{1,2}:[0-5]\d(?::[0-5]\d)?(?!\d|:\d)")  # (a time's colons)
_COMMENT = re.compile(r"[ \t]*#")
_UNIT = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")  # a column name's unit, in brackets
_SAMPLE_LINES = 50
NAME_CHARS = 24  # a header cell longer than this with no space in it is a value (a path, a hash)
MIN_SPACED = 20  # lines parted by spaces into as many fields, for a table
SPACED_SHARE = 0.95
MAX_SPACED = 8


def detect(sample: str) -> bool:
    return any(_pipe_runs(sample)) or _delimiter(sample, 2, True) is not None


def records(text: str, file_name: str) -> list[Table]:
    delimited = PurePath(file_name).suffix.lower() in (".csv", ".tsv", ".tab", ".psv")
    delimiter = _delimiter(text[:20_000], 2 if delimited else 3, delimited)
    if delimiter is not None:
        table = _delimited(text, delimiter, _stem(file_name), delimited)
        if table is not None:
            return [table]
    found = []
    for start, end in _pipe_runs(text):
        table = _pipe_table(text, start, end, file_name)
        if table is not None:
            found.append(table)
    return found


def _pipe_runs(text: str) -> Iterator[tuple[int, int]]:
    """The [start, end) of each run of three lines or more that hold a `|` (found by the pipes,
    not line by line)."""
    start = end = -2
    count = 0
    at = text.find("|")
    while at >= 0:
        line = text.rfind("\n", 0, at) + 1
        stop = text.find("\n", at)
        stop = len(text) if stop < 0 else stop
        if line == end + 1:
            end, count = stop, count + 1
        else:
            if count >= 3:
                yield start, end
            start, end, count = line, stop, 1
        at = text.find("|", stop)
    if count >= 3:
        yield start, end


def _stem(file_name: str) -> str:
    return PurePath(file_name).stem or "table"


def _delimiter(sample: str, fields: int, named: bool) -> str | None:
    """The delimiter of a file of delimiter-separated values: the one that splits its first line
    and nearly every one after into the same number of fields, or one more (`fields` or more: a
    file not named .csv or .tsv needs three, since prose has a comma a line often enough, and
    `|` there is a pipe table's)."""
    first = [line for line in sample.splitlines() if line.strip() and not _COMMENT.match(line)]
    first = first[:_SAMPLE_LINES]
    if len(first) < 3:
        return None
    for delimiter in (*_DELIMITERS, TABS) if named else (*_DELIMITERS.replace("|", ""), TABS):
        least = 2 if delimiter == TABS else fields  # (prose has no runs of tabs inside a line)
        if delimiter == TABS and sum("\t" in line.strip() for line in first) < 0.8 * len(first):
            if _spaced(first):
                return TABS  # (read as parted by spaces where a row has no tab)
            continue  # (a file of lines parted by spaces: the template finder's)
        if delimiter == ":":
            if any(_CLOCK.search(line) for line in first):
                continue  # (a time's colons: `12:00:05`)
            least = max(fields, 4)  # (`root:x:0:0:root:/root:/bin/bash`)
        rows = _split(first, delimiter)
        counts = [len(row) for row in rows]
        common = max(set(counts), key=counts.count)
        enclosed = sum(1 for row in rows if _enclosed(row))
        widths = max(
            ((common - 1, common), (common, common + 1)),
            key=lambda pair: (counts[0] in pair, sum(1 for c in counts if c in pair)),
        )
        ragged = named and sum(1 for c in counts if least <= c <= counts[0]) >= 0.9 * len(counts)
        if (
            common >= least
            and (counts[0] in widths or ragged)  # (a .csv's rows may leave out last fields)
            and counts[0] >= least  # (a header the delimiter does not part is not its table's)
            and (ragged or sum(1 for c in counts if c in widths) >= 0.9 * len(counts))
            and enclosed < 0.5 * len(rows)
        ):
            return delimiter  # (a last field some rows leave out: `AD  +4230+00131  Europe/…`)
    return None


def _spaced(first: list[str]) -> bool:
    """Whether lines parted by spaces are a table's rows: nearly all of them (SPACED_SHARE, and
    the first) part into as many fields, two to MAX_SPACED, and each column holds more than one
    value (`aa_DJ.UTF-8 UTF-8`); prose's lines part into any number of words, and a word every
    line repeats is a label (`port 22`, the template finder's)."""
    rows = [line.split(" #")[0].split() for line in first]
    counts = Counter(len(row) for row in rows)
    width, held = counts.most_common(1)[0]
    if len(rows) < MIN_SPACED or not 2 <= width <= MAX_SPACED or len(rows[0]) != width:
        return False
    columns = list(zip(*(row for row in rows if len(row) == width), strict=True))
    return held >= SPACED_SHARE * len(rows) and all(len(set(c)) > 1 for c in columns)


def _split(rows: list[str], delimiter: str) -> list[list[str]]:
    """The rows' fields (a quoted field holding the delimiter or a line break kept whole; TABS:
    each row parted by runs of tabs, as files aligned by tabs are, a last `#` field left out)."""
    if delimiter == TABS:
        return [_tabbed(row)[0] for row in rows]
    try:
        return list(csv.reader(rows, delimiter=delimiter))
    except csv.Error:  # (a field past the module's limit, 128 KB: a line of no table)
        return [[row] for row in rows]


def _tabbed(row: str) -> tuple[list[str], str | None]:
    """A row parted by runs of tabs (by spaces, one with none), its fields, and the comment its
    last field is, if it is one (`tcp\t6\tTCP\t\t# transmission control protocol`)."""
    if "\t" not in row.strip():
        data, hashed, said = row.partition(" #")
        return data.split(), said.strip() if hashed else None
    fields = re.split(r"\t+", row.strip("\t"))
    if len(fields) > 1 and fields[-1].startswith("#"):
        return fields[:-1], fields[-1].lstrip("#").strip()
    return fields, None


def _enclosed(row: list[str]) -> bool:
    """Whether a field of the row opens a bracket it does not close (`VALUES (0`): the delimiter
    parts a larger syntax's arguments (a statement's), not a table's cells."""
    return any(cell.count(o) != cell.count(c) for cell in row for o, c in ("()", "[]", "{}"))


def _delimited(text: str, delimiter: str, stem: str, named: bool) -> Table | None:
    """The file's rows, the first naming the columns (read by the standard library's csv, a
    quoted field over several lines included); any number of them in a file `named` a table
    (`.csv`)."""
    spans = [(s, e) for s, e in lines(text) if text[s:e].strip() and not _COMMENT.match(text[s:e])]
    least = 2 if named else MIN_ROWS + 1
    if delimiter == TABS:
        return _commented(text, spans, stem, named) if len(spans) >= least else None
    cells: list[tuple[int, int, list[str]]] = []
    at = 0
    while at < len(spans):
        start, end = spans[at]
        line = text[start:end]
        while line.count('"') % 2 and at + 1 < len(spans):  # (a quoted field runs on)
            at += 1
            end = spans[at][1]
            line = text[start:end]
        row = next(iter(_split([line], delimiter)), [])
        cells.append((start, end, [cell.strip() for cell in row]))
        at += 1
    if len(cells) < least:
        return None
    if is_header(cells[0][2], [row for _, _, row in cells[1:]]):
        return table_of(stem, cells[0][2], cells[1:], named)
    width = max(len(row) for _, _, row in cells)
    return table_of(stem, _commented_header(text, cells[0][0], delimiter, width), cells, named)


def _commented(text: str, spans: list[tuple[int, int]], stem: str, named: bool) -> Table:
    """A file aligned by tabs (its lines at `spans`): its rows' fields, and the comments some end
    with in a column of their own, after the widest row's fields."""
    rows = [(s, e, _tabbed(text[s:e])) for s, e in spans]
    width = max(len(fields) for _, _, (fields, _) in rows)
    said = any(comment for _, _, (_, comment) in rows)
    body = [
        (s, e, [*fields, *[""] * (width - len(fields)), *([comment or ""] if said else [])])
        for s, e, (fields, comment) in rows
    ]
    if is_header(body[0][2][:width], [row[:width] for _, _, row in body[1:]]):
        return table_of(stem, body[0][2], body[1:], named)
    header = _commented_header(text, spans[0][0], TABS, width)
    return table_of(stem, header + (["comment"] if said else []), body, named)


def is_header(first: list[str], rows: list[list[str]]) -> bool:
    """Whether a file's first row names its columns: not when most of its cells are numbers or
    are written as their column's values are (`root:x:0:0:…`, `AD  +4230+00131  Europe/Andorra`
    are data; `id,name,2019` over `1,Ann,50` names columns; a long run of characters with no
    space, a path or a hash, is no name), nor when a cell is a value its column says again below
    (`ham` over `ham` and `spam`)."""
    below = list(itertools.zip_longest(*rows[:200], fillvalue=""))
    if any(cell and n < len(below) and below[n].count(cell) >= 2 for n, cell in enumerate(first)):
        return False  # (`ham` over rows of `ham` and `spam`: a value said again, not a name)
    like = 0
    for n, cell in enumerate(first):
        shapes = Counter(_shape(value) for value in below[n]) if n < len(below) else Counter()
        common = shapes[_shape(cell)] >= 0.1 * sum(shapes.values()) if shapes else False
        coded = len(cell) > NAME_CHARS and not any(c.isspace() for c in cell)
        like += number(cell) is not None or coded or (bool(cell) and common)
    return like <= len(first) / 2


def _shape(cell: str) -> str:
    """How a cell is written: its runs of capitals, small letters and digits (`Aa/Aa`, `+9+9`)."""
    return re.sub(r"[A-Z]+", "A", re.sub(r"[a-z]+", "a", re.sub(r"\d+", "9", cell.strip())))


def _commented_header(text: str, start: int, delimiter: str, width: int) -> list[str]:
    """The names of a header-less file's columns: a comment line just above its data that splits
    into as many fields (`#code  coordinates  TZ`), else none (named by their place)."""
    above = text.rfind("\n", 0, max(0, start - 1)) + 1
    line = text[above : max(above, start - 1)]
    if _COMMENT.match(line):
        named = [c.strip() for c in next(iter(_split([line.strip().lstrip("#")], delimiter)), [])]
        named = [c for c in named if c]
        if len(named) == width:
            return named
    return [""] * width


def _pipe_table(text: str, start: int, end: int, file_name: str) -> Table | None:
    rows: list[tuple[int, int, list[str]]] = []
    ruled = False
    for s, e in lines(text, start, end):
        line = text[s:e]
        ruled = ruled or (len(rows) == 1 and bool(_RULE.match(line)))  # (under the header)
        if not line.strip() or _RULE.match(line):
            continue
        cells = [c.strip().replace("\\|", "|") for c in _CELL_SPLIT.split(line.strip())]
        if line.strip().startswith("|"):
            cells = cells[1:]
        if line.strip().endswith("|") and cells:
            cells = cells[:-1]
        rows.append((s, e, cells))
    if len(rows) < (2 if ruled else 3):
        return None
    header, body = rows[0][2], rows[1:]
    return table_of(caption(text, start) or _stem(file_name), header, body, ruled)


def table_of(
    title: str, header: list[str], body: list[tuple[int, int, list[str]]], marked: bool
) -> Table:
    """A table from its header and rows (each cut or padded to the header's width); `marked`:
    the text marks it as a table (a rule under its header, a file named so)."""
    width = len(header)
    taken: list[str] = []
    columns = []
    for n, cell in enumerate(header):
        column_name = identifier(cell or f"column {n + 1}", taken)
        taken.append(column_name)
        words = " ".join(cell.split())
        bare = _UNIT.sub("", words)  # (`Population (millions)` is called `population`)
        named = (words, bare) if bare and bare != words else (words,)
        named = (*named, *_either(bare))
        columns.append(Column(column_name, aliases=named if words else ()))
    rows = [[*row[:width], *[None] * (width - len(row))] for _, _, row in body]
    cells = [(s, e, [_plain(c) for c in row]) for (s, e, _), row in zip(body, rows, strict=True)]
    apart = [row != plain for row, (_, _, plain) in zip(rows, cells, strict=True)]
    table = build(identifier(title), name, columns, cells, NOUNS, marked)
    return with_who(_without_totals(table, apart))


_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`)(.+)\1")


def _plain(cell: str | None) -> str | None:
    """A cell without the emphasis a whole cell is set in (`**4810**`: 4810)."""
    found = _EMPHASIS.fullmatch(cell.strip()) if cell is not None else None
    return found.group(2).strip() if found else cell


def _without_totals(table: Table, set_apart: list[bool]) -> Table:
    """The table without a last row of totals: each of its numbers the sum of the rows' above,
    the row set apart from them (in bold, or a cell left empty that they all fill: `| **Total**
    | | **4810** |` under the expenses)."""
    last = len(table) - 1
    kinds = [c.type for c in table.columns]
    numbers = [v for v, kind in zip(table.values, kinds, strict=True) if kind is ColumnType.NUMBER]
    if not numbers or last < 2:
        return table
    sums = [(column[last], sum(v for v in column[:last] if v is not None)) for column in numbers]
    held = [(v, total) for v, total in sums if v is not None]
    summed = bool(held) and all(abs(v - t) <= 0.005 * max(1.0, abs(t)) for v, t in held)
    empty = any(
        column[last] is None and all(v is not None for v in column[:last])
        for column, kind in zip(table.values, kinds, strict=True)
        if kind is not ColumnType.NUMBER
    )
    apart = empty or (set_apart[last] and not any(set_apart[:last]))
    return table.kept([True] * last + [False]) if summed and apart else table


def _either(header: str) -> tuple[str, ...]:
    """What a header naming two things as one calls each (`State/Province Abbrev.`: `State
    Abbrev.`, `Province Abbrev.`)."""
    found = _EITHER.search(header)
    if found is None:
        return ()
    return tuple(
        f"{header[: found.start()]}{word}{header[found.end() :]}" for word in found.groups()
    )


_EITHER = re.compile(r"\b([^\W\d_]{2,})/([^\W\d_]{2,})\b")
_NAME = re.compile(PATTERNS["n"])
NAMED_SHARE = 0.9  # of a column's filled values that must be names for it to say who
REPEATED = 0.8  # a column saying who holds fewer distinct values than this share of its rows


def with_who(table: Table) -> Table:
    """The table with the role of who a row is about given to the first text column whose header
    says so (`Assignee`, `Owner`), else to its first text column where that holds names (nearly
    every value one to four capitalized words); either only where its values are said again and
    again (who placed an order, who paid), not where it names each row once (an account), nor to a
    later column of categories (an account's type)."""
    texts = [  # (text columns of words: not the rows' text, nor clock times written as text)
        n
        for n, c in enumerate(table.columns)
        if c.type is ColumnType.TEXT and c.role is not Role.BODY and _worded(table.values[n])
    ]
    headed = [n for n in texts if key_role(table.columns[n].name) is Role.WHO]
    at = next((n for n in headed if _repeated(table.values[n])), None)
    if at is None and texts:
        at = texts[0] if says_who(table.values[texts[0]]) else None
    return table if at is None else who_at(table, at)


def says_who(values: list[Any]) -> bool:
    """Whether a column holds names said again and again (nearly every value one to four
    capitalized words, far fewer distinct than rows)."""
    named = [v for v in values if v]
    return sum(1 for v in named if _NAME.fullmatch(str(v))) >= NAMED_SHARE * len(named) and (
        _repeated(named)
    )


def who_at(table: Table, at: int) -> Table:
    """The table with its column `at` the one saying who a row is about."""
    columns = list(table.columns)
    columns[at] = replace(columns[at], role=Role.WHO)
    return replace(table, columns=columns)


def _worded(values: list[Any]) -> bool:
    filled = [v for v in values if v]
    return sum(1 for v in filled if str(v)[:1].isalpha()) >= NAMED_SHARE * len(filled)


def _repeated(values: list[Any]) -> bool:
    """Whether a column's values are said again and again (far fewer distinct than rows)."""
    filled = [v for v in values if v]
    return len(filled) >= 2 and len(set(filled)) < REPEATED * len(filled)


def caption(text: str, start: int) -> str:
    """What names the table above it: a heading within five lines, else a caption line (short,
    not a sentence) just above."""
    above = text[max(0, start - 800) : start].rstrip("\n").split("\n")[-5:]
    for line in reversed(above):
        if line.lstrip().startswith("#"):
            return line.strip().lstrip("#").strip()
    last = above[-1].strip().strip("*_").strip() if above else ""
    if last and len(last) <= 80 and "|" not in last and not last.endswith((".", ":", ";")):
        return re.sub(r"^table\s+\d+[.:]?\s*", "", last, flags=re.IGNORECASE) or last
    return ""

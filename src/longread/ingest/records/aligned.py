"""Tables laid out with spaces: a header line of capitalized names over rows whose fields stand
under them, as commands print them (`ps aux`, `kubectl get pods`, `docker ps`, `df -h`) and
reports align them. A row's field belongs to the name it stands under (a number set right under
its name's end, a text set left at its start; words that stand under no name go with the field
before them, and the last name takes the rest of the line). Also a comment line naming fields
over lines that part into as many by spaces (crontab's `# m h dom mon dow command`)."""

from __future__ import annotations

import math
import re
from pathlib import PurePath

from longread.ingest.records import tables
from longread.ingest.records.kind import MIN_ROWS, LinePattern, lines
from longread.ingest.records.table import Table
from longread.text.rank import terms

name = tables.name
NOUNS = tables.NOUNS
WHOLE = tables.WHOLE
_NAME = r"[A-Z%#][\w%#()/.:-]*"
_HEADER = LinePattern(rf"[ \t]*{_NAME}(?:[ \t]+(?:{_NAME}|[a-z]+))*[ \t]+{_NAME}[ \t]*\n")
_NAMING = LinePattern(r"#[ \t]*(?P<names>[A-Za-z_][\w-]*(?:[ \t]+[A-Za-z_][\w-]*){2,11})[ \t]*\n")
_FIELD = re.compile(r"\S+")
_GUTTER = re.compile(r"\S(?: {2,}|\t)\S")  # (prose parts its words by one space)
MIN_NAMES = 3  # a header names this many columns at least
FIT = 0.6  # of a row's columns that must have a field standing under their name


def detect(sample: str) -> bool:
    return _HEADER.search(sample) is not None or _NAMING.search(sample) is not None


def records(text: str, file_name: str) -> list[Table]:
    found = []
    for at, match in _HEADER.finditer(text):
        table = _aligned(text, at, match.end() - 1, file_name)
        if table is not None:
            found.append(table)
    for at, match in _NAMING.finditer(text):
        table = _named_by_comment(text, at, match, file_name)
        if table is not None:
            found.append(table)
    return found


def _named_by_comment(text: str, start: int, naming: re.Match[str], file_name: str) -> Table | None:
    """The lines below a comment naming fields, each parted by spaces into as many (the last
    field the rest of the line), up to a blank line or one that parts into fewer."""
    names = naming["names"].split()
    if any(len(n) > 1 and not terms(n) for n in names):
        return None  # (a comment in words: `# compute the values here`)
    rows: list[tuple[int, int, list[str]]] = []
    for s, e in lines(text, naming.end()):
        fields = text[s:e].split(None, len(names) - 1)
        if text[s:e].lstrip().startswith("#") and not rows:
            continue
        if len(fields) < len(names):
            break
        rows.append((s, e, fields))
    if len(rows) < MIN_ROWS or not tables.is_header(names, [r for _, _, r in rows]):
        return None
    title = PurePath(file_name).stem or "table"
    return tables.table_of(title, names, rows, False)


def _aligned(text: str, start: int, end: int, file_name: str) -> Table | None:
    """The table whose header is text[start:end], its rows the lines below that fit it."""
    names = _names(text[start:end])
    if len(names) < MIN_NAMES or not _GUTTER.search(text[start:end]):
        return None
    rows = []
    for s, e in lines(text, end + 1):
        cells = _placed(text[s:e], names)
        if cells is None:
            break
        rows.append((s, e, cells))
    header = [n for _, _, n in names]
    if len(rows) < MIN_ROWS or not tables.is_header(header, [r for _, _, r in rows]):
        return None
    title = tables.caption(text, start) or PurePath(file_name).stem or "table"
    return tables.table_of(title, header, rows, False)


def _names(header: str) -> list[tuple[int, int, str]]:
    """Each name of a header line with its span; a word in small letters ends the name before
    it (`Mounted on`)."""
    names: list[tuple[int, int, str]] = []
    for field in _FIELD.finditer(header):
        if field[0][0].islower() and names:
            first, _, said = names[-1]
            names[-1] = (first, field.end(), f"{said} {field[0]}")
        else:
            names.append((field.start(), field.end(), field[0]))
    return names


def _placed(line: str, names: list[tuple[int, int, str]]) -> list[str] | None:
    """The line's fields, one per name (empty where none stands under it); None for a line that
    does not fit the header (blank, prose, or too few of its fields under the names)."""
    if not _GUTTER.search(line):
        return None
    spans: list[list[int]] = [[] for _ in names]
    under = set()
    for field in _FIELD.finditer(line):
        at = _column(field.start(), field.end(), names)
        if _overlaps(field.start(), field.end(), names[at]):
            under.add(at)
        spans[at] += [field.start(), field.end()]
    if len(under) < math.ceil(FIT * len(names)) or 0 not in under:
        return None
    return [line[min(s) : max(s)] if s else "" for s in spans]


def _column(start: int, end: int, names: list[tuple[int, int, str]]) -> int:
    """The name a field stands under: the one its span overlaps (the last of them, the rest of
    the line), else the last one starting before it."""
    if start >= names[-1][0]:
        return len(names) - 1
    over = [n for n, name in enumerate(names) if _overlaps(start, end, name)]
    if over:
        return over[0]
    before = [n for n, (first, _, _) in enumerate(names) if first <= start]
    return before[-1] if before else 0


def _overlaps(start: int, end: int, name: tuple[int, int, str]) -> bool:
    return start < name[1] and name[0] < end

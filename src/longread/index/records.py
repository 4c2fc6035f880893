"""A document's records, found once and stored: the tables the record kinds and the general finder
read from its text, each row given the sections it falls in; and two tables every document has,
its sections (each heading: its kind, number, level, size) and itself (its title and size).

A heading's kind is its first word where headings of that word are numbered (`ACT III`, `Chapter
12`, `Section 4.1`); each kind of two headings or more is a column of every record table (the act
a speech is in), as is the innermost section and, in a file of several titled works, the work."""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from longread.ingest.heading_marks import HeadingMarks
from longread.ingest.records import WHOLE, find_tables
from longread.ingest.records.cells import ColumnType
from longread.ingest.records.table import Column, Role, Table, build, identifier
from longread.store.docstore import DocStore
from longread.store.record_tables import Counts, StoredColumn
from longread.store.rows import SectionRow

FINDERS_VERSION = 73  # raise when the finders change: documents read before are read again
MAX_CHARS = 200_000_000  # a longer document's records are not looked for
MARK = "@"  # (a key of `Places.values` naming a heading mark: `@version`)
UNDER = "parent_section"  # the heading a row's section is under (where headings name no kinds)
VALUES_KEPT = 2_000  # a column's distinct values listed for matching a question's words
WORDS_CHARS = 20_000_000  # a longer document's sections are measured in characters only
_NUMERAL = re.compile(
    r"(?:\d+(?:\.\d+)*|[IVXLCDM]+|[ivxlcdm]+|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b",
    re.IGNORECASE,
)


def find_records(store: DocStore, store_id: int, name: str) -> None:
    """Find the document's records and store them (see `first_need.ensure_records`)."""
    chars = store.documents.get(store_id)["chars"]
    if chars > MAX_CHARS:
        store.records.save(store_id, [], FINDERS_VERSION)
        return
    text = store.documents.read_range(store_id, 0, chars)
    rows = store.sections.all(store_id) if store.documents.get(store_id)["structured"] else []
    tables = document_tables(text, PurePath(name).name, rows)
    store.records.save(
        store_id,
        [
            (
                t.name,
                t.kind,
                [_stored(c) for c in t.columns],
                t.nouns,
                t.starts,
                t.ends,
                t.values,
                [value_counts(v, c.type) for v, c in zip(t.values, t.columns, strict=True)],
            )
            for t in tables
            if len(t) and t.columns  # (rows of no field: `<a>` elements holding only others)
        ],
        FINDERS_VERSION,
    )


def value_counts(values: Sequence[Any], kind: ColumnType) -> Counts:
    """A column's distinct values (a date column's days) with the rows holding each, the
    commonest VALUES_KEPT, and how many rows hold one not listed: where a sample of the column
    already holds more distinct values than that, none is listed (a message, a time)."""
    keys = [v and str(v).partition(" ")[0] for v in values] if kind is ColumnType.DATE else values
    filled = [v for v in keys if v is not None]
    sample = filled[:: max(1, len(filled) // (10 * VALUES_KEPT))]
    if len(set(sample)) > VALUES_KEPT:
        return [], len(filled)
    counted = Counter(filled).most_common()
    listed = counted[:VALUES_KEPT]
    return listed, sum(n for _, n in counted[VALUES_KEPT:])


def _heading_lines(text: str, rows: Sequence[SectionRow]) -> list[tuple[int, int]]:
    """The [start, end) of each line the text's headings stand on (not a section the index
    named itself, such as `Preamble`)."""
    spans = []
    for row in rows:
        end = text.find("\n", row.start)
        end = len(text) if end < 0 else end
        if row.title.split() and row.title.split()[0] in text[row.start : end]:
            spans.append((row.start, end))
    return spans


def _stored(column: Column) -> StoredColumn:
    return StoredColumn(column.name, column.type.value, column.role.value, column.aliases)


def document_tables(text: str, name: str, rows: Sequence[SectionRow]) -> list[Table]:
    """The document's record tables, each with its section columns, then its sections table and
    its own one-row table."""
    places = Places(text, rows)
    numbered = [row for row in rows if _numbered(row.title)]
    tables = find_tables(text, name, _heading_lines(text, rows), _heading_lines(text, numbered))
    found = [places.placed(table) for table in tables]
    sections = places.sections_table()
    if sections is not None:
        found.append(sections)
    wholes = tuple(w for t in found for w in WHOLE.get(t.kind, ()))
    found.append(_document_table(text, name, rows, wholes))
    return found


def _document_table(
    text: str, name: str, rows: Sequence[SectionRow], wholes: tuple[str, ...]
) -> Table:
    title = rows[0].title if rows and rows[0].start < 200 else PurePath(name).stem
    words = len(text.split()) if len(text) <= WORDS_CHARS else None
    columns = (
        Column("title", aliases=("name",)),
        Column("words", ColumnType.NUMBER),
        Column("chars", ColumnType.NUMBER),
    )
    cells = [(0, len(text), (title, None if words is None else str(words), str(len(text))))]
    nouns = tuple(dict.fromkeys(("document", "file", *wholes)))
    return build("documents", "document", columns, cells, nouns)


@dataclass(frozen=True)
class _Scope:
    """Where a heading's title holds: from its start to the next heading of a higher level."""

    start: int
    end: int
    title: str


class Places:
    """Which sections an offset of the text falls in: one column per kind of numbered heading,
    the innermost section, and the work (a titled top heading, in a file holding several)."""

    def __init__(self, text: str, rows: Sequence[SectionRow]):
        self.text = text
        self.rows = list(rows)
        self.kinds = _kinds(self.rows)
        self.scopes = {kind: _scopes(self.rows, kind) for kind in self.kinds}
        works = _works(self.rows, self.kinds)
        self.works = [_Scope(w.start, e, w.title) for w, e in _work_ends(self.rows, works)]
        self.leaf_starts = [r.start for r in self.rows]
        self.by_id = {r.id: r for r in self.rows}
        self._work = ["work"] if self.works else []
        self.starts = {kind: [s.start for s in scopes] for kind, scopes in self.scopes.items()}
        self.starts["work"] = [w.start for w in self.works]
        self.marks = HeadingMarks(text, self.rows)
        self._told_apart()

    def _told_apart(self) -> None:
        """A title that several sections of one kind share is given the titles of the sections
        holding it, of kinds with fewer sections (`ACT II, SCENE I. A room.`), and its work's."""
        counts = {kind: len(scopes) for kind, scopes in self.scopes.items()}
        original = {kind: list(scopes) for kind, scopes in self.scopes.items()}
        for kind, scopes in self.scopes.items():
            titles = Counter(scope.title for scope in scopes)
            outer = sorted(
                (k for k in self.kinds if counts[k] < counts[kind]), key=counts.__getitem__
            )
            for at, scope in enumerate(scopes):
                if titles[scope.title] < 2 and not self.works:
                    continue
                held = [_held(original[k], self.starts[k], scope.start) for k in outer]
                if self.works:
                    held.insert(0, _held(self.works, self.starts["work"], scope.start))
                context = [h for h in held if h]
                if context:
                    scopes[at] = _Scope(scope.start, scope.end, ", ".join([*context, scope.title]))

    def columns(self, taken: Sequence[str]) -> list[tuple[str, str]]:
        """(column name, what it holds: a kind, `section` or `work`) for this document."""
        names: list[str] = list(taken)
        found = []
        nested = not self.kinds and any(r.parent_id is not None for r in self.rows)
        for key in [*self.kinds, "section", *([UNDER] if nested else []), *self._work]:
            if key == "section" and not self.rows:
                continue
            column = identifier(key, names)
            names.append(column)
            found.append((column, key))
        return found

    def values(self, offset: int, keys: Sequence[str]) -> list[str | None]:
        out: list[str | None] = []
        at = bisect.bisect_right(self.leaf_starts, offset) - 1
        innermost = self.rows[at] if at >= 0 else None
        for key in keys:
            if key.startswith(MARK):  # (the release or day the row is under)
                out.append(self.marks.under(innermost, key.removeprefix(MARK)))
            elif key in ("section", UNDER):
                row = innermost
                if key == UNDER and row is not None:  # (the heading the innermost is under)
                    row = self.by_id.get(row.parent_id or 0)
                out.append(row.title if row is not None else None)
            else:
                scopes = self.works if key == "work" else self.scopes[key]
                out.append(_held(scopes, self.starts[key], offset))
        return out

    def placed(self, table: Table) -> Table:
        """The table with its rows' section columns added."""
        wanted = self.columns([c.name for c in table.columns])
        marks = self.marks.added([*table.columns, *(Column(c) for c, _ in wanted)])
        if not wanted and not marks:
            return table
        keys = [*(key for _, key in wanted), *(MARK + c.name for c in marks)]
        columns = [*table.columns, *(_section_column(c, k) for c, k in wanted), *marks]
        placed = [self.values(s, keys) for s in table.starts]
        values = [*table.values, *(list(column) for column in zip(*placed, strict=True))]
        return dataclasses.replace(table, columns=columns, values=values)

    def sections_table(self) -> Table | None:
        """Each heading as a row: its title, kind, number, level, words and characters, the
        sections it falls in (where the text names no kinds of part: the heading it is under),
        and the date it stands for (where headings have dates)."""
        if not self.rows:
            return None
        work_ends = {w.start: min(w.end, len(self.text)) for w in self.works}
        sizes = _sizes(self.text, self.rows, work_ends)
        base = (
            Column("title", role=Role.SECTION, aliases=("name", "heading")),
            Column("kind", aliases=("type",)),
            Column("number", ColumnType.NUMBER),
            Column("level", ColumnType.NUMBER, aliases=("depth",)),
            Column("words", ColumnType.NUMBER),
            Column("chars", ColumnType.NUMBER),
        )
        wanted = [(c, k) for c, k in self.columns([c.name for c in base]) if k != "section"]
        marks = self.marks.added([*base, *(Column(c) for c, _ in wanted)])
        cells = []
        for row, (words, chars) in zip(self.rows, sizes, strict=True):
            kind = kind_of(row.title)
            number = numeral(row.title.split()[1]) if len(row.title.split()) > 1 else None
            places = self.values(row.start, [k for _, k in wanted])
            places = [None if v == row.title else v for v in places]  # (not its own section)
            held = (
                row.title,
                kind if kind in self.kinds else None,
                None if number is None else str(number),
                str(row.level),
                None if words is None else str(words),
                str(chars),
                *places,
                *(self.marks.own[row.id][c.name] for c in marks),
            )
            cells.append((row.start, row.end, held))
        columns = [*base, *(_section_column(c, k) for c, k in wanted), *marks]
        nouns = ("section", "heading", *self.kinds)
        return build("sections", "sections", columns, cells, nouns)


def _section_column(column: str, key: str) -> Column:
    return Column(column, role=Role.SECTION, aliases=(key,) if key != column else ())


def kind_of(title: str) -> str:
    """A heading's first word, in lower case (`act` for `ACT III.`)."""
    words = title.split()
    return re.sub(r"\W+$", "", words[0].lower()) if words else ""


_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
_CARDINALS = "one two three four five six seven eight nine ten eleven twelve"
_WORD_NUMBERS = {
    word: n for words in (_CARDINALS.split(), _ORDINALS.split()) for n, word in enumerate(words, 1)
}


def numeral(word: str) -> int | None:
    """The value of a numeral (`3`, `III`, `three`, `third`; `4.1` gives 4), else None."""
    word = word.strip(".:,;)(").lower()
    head = word.split(".")[0]
    if head.isdigit():
        return int(head)
    if word in _WORD_NUMBERS:
        return _WORD_NUMBERS[word]
    if not word or any(c not in _ROMAN for c in word):
        return None
    total = 0
    for at, c in enumerate(word):
        value = _ROMAN[c]
        total += -value if at + 1 < len(word) and _ROMAN[word[at + 1]] > value else value
    return total


def _kinds(rows: Sequence[SectionRow]) -> list[str]:
    """The kinds of numbered headings that two headings or more have, in order of first use."""
    counted: Counter[str] = Counter()
    for row in rows:
        if _numbered(row.title):
            counted[kind_of(row.title)] += 1
    return [kind for kind, n in counted.items() if n >= 2 and kind.isalpha()]


def _works(rows: Sequence[SectionRow], kinds: list[str]) -> list[SectionRow]:
    """The works of a file holding several (twelve plays, each `# Title` over its acts): its top
    headings that have numbered sections under them (not an `EPILOGUE` alone), and are not
    numbered sections themselves (a play's `ACT I` over its scenes, its title no heading)."""
    top = min((r.level for r in rows), default=0)
    works: dict[int, bool] = {}
    current = None
    for at, row in enumerate(rows):
        if row.level == top and kind_of(row.title) in kinds:
            current = None
        elif row.level == top:
            current, works[at] = at, False
        elif current is not None and kind_of(row.title) in kinds:
            works[current] = True
    found = [rows[at] for at, holds in works.items() if holds]
    return found if len(found) > 1 else []


def _work_ends(rows: Sequence[SectionRow], works: list[SectionRow]) -> list[tuple[SectionRow, int]]:
    """Each work with where it ends: at the next work (a heading over no sections between, such
    as an epilogue, is the work's)."""
    ends = [w.start for w in works[1:]] + [1 << 62]
    return list(zip(works, ends[: len(works)], strict=True))


def _scopes(rows: Sequence[SectionRow], kind: str) -> list[_Scope]:
    return _scopes_of(rows, [r for r in rows if kind_of(r.title) == kind])


def _scopes_of(rows: Sequence[SectionRow], chosen: Sequence[SectionRow]) -> list[_Scope]:
    """Each chosen heading's scope: up to the next heading of a higher level (a smaller level
    number), however inconsistent the levels between (`## ACT I`, `## SCENE I`, `### SCENE II`)."""
    starts = [r.start for r in rows]
    scopes = []
    for heading in chosen:
        at = bisect.bisect_right(starts, heading.start)
        end = next((r.start for r in rows[at:] if r.level < heading.level), None)
        scopes.append(_Scope(heading.start, end if end is not None else 1 << 62, heading.title))
    return scopes


def _held(scopes: list[_Scope], starts: list[int], offset: int) -> str | None:
    """The title of the scope (of these, starting at `starts`) the offset falls in."""
    at = bisect.bisect_right(starts, offset) - 1
    return scopes[at].title if at >= 0 and offset < scopes[at].end else None


def _sizes(
    text: str, rows: Sequence[SectionRow], work_ends: dict[int, int]
) -> list[tuple[int | None, int]]:
    """(words, characters) of each section: a numbered one's up to the next heading of its kind
    or of a higher level (levels are not always consistent), a work's up to the next work,
    another's as the outline nests it; words are not counted past WORDS_CHARS."""
    ends = [r.end for r in rows]
    higher: list[tuple[int, int]] = []  # (level, start) of headings after, levels rising
    same: dict[str, int] = {}
    for at in range(len(rows) - 1, -1, -1):
        row = rows[at]
        kind = kind_of(row.title)
        while higher and higher[-1][0] >= row.level:
            higher.pop()
        if _numbered(row.title):
            ends[at] = min(same.get(kind, len(text)), higher[-1][1] if higher else len(text))
        ends[at] = work_ends.get(row.start, ends[at])
        higher.append((row.level, row.start))
        same[kind] = row.start
    words = _Words(text, [r.start for r in rows]) if len(text) <= WORDS_CHARS else None
    return [
        (None if words is None else words.between(r.start, end), end - r.start)
        for r, end in zip(rows, ends, strict=True)
    ]


class _Words:
    """Words counted once between consecutive marks (headings' starts, which no word crosses),
    so that any stretch from a mark to a mark or the end is a difference of running totals."""

    def __init__(self, text: str, marks: Sequence[int]):
        self.text = text
        bounds = sorted({0, *marks, len(text)})
        counts = [len(text[a:b].split()) for a, b in itertools.pairwise(bounds)]
        self.totals = dict(zip(bounds, itertools.accumulate(counts, initial=0), strict=True))

    def between(self, start: int, end: int) -> int:
        if start in self.totals and end in self.totals:
            return self.totals[end] - self.totals[start]
        return len(self.text[start:end].split())


def _numbered(title: str) -> bool:
    words = title.split()
    return len(words) > 1 and words[0][:1].isalpha() and bool(_NUMERAL.match(words[1]))

"""The date and version a heading stands for: the first date its title holds (`2.2.2
(2024-06-17)`), else the first held by the line right under it (`Version 2.3.0` over `Released
2023-04-25`), as ISO text; the version of a release heading (one of several at a level whose
headings hold a version and a date). A changelog's releases, a diary's days, minutes' meetings are
then counted by date and version, and so is what their sections hold."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from longread.ingest.records.atoms import atoms
from longread.ingest.records.cells import ColumnType, date
from longread.ingest.records.list_items import opens_item
from longread.ingest.records.table import Column, Role
from longread.store.rows import SectionRow

LINE_CHARS = 120  # a longer line under a heading is prose, not its date line
LINES_READ = 3  # lines after the heading's own, past blank lines and a setext underline
MIN_MARKED = 2  # headings holding a date (a version and a date) for the sections to be dated
MARKS = ("version", "date")
_VERSION = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+)+(?:[-+~.]?[a-z]+\d*|-\d+)?)(?![\w.]*\w)")


def heading_date(text: str, title: str, start: int) -> str | None:
    """The date of the heading whose line starts at `start` in `text`."""
    found = _first_date(title)
    if found is not None:
        return found
    at = text.find("\n", start)
    for _ in range(LINES_READ):
        if at < 0:
            return None
        end = text.find("\n", at + 1)
        line = text[at + 1 : end if end >= 0 else len(text)].strip()
        at = end
        if not line or not any(c.isalnum() for c in line):
            continue  # (a blank line, an underline)
        if opens_item(line):
            return None  # (a list's first item: its date is the item's)
        return _first_date(line) if len(line) <= LINE_CHARS else None
    return None


def heading_version(title: str) -> str | None:
    """The first version-like number a title holds (`0.15.0`, `v2.6.30`, `2.0.0a1`), not a date."""
    return next((v for v in _VERSION.findall(title) if date(v) is None), None)


class HeadingMarks:
    """Each heading's own date and version (where MIN_MARKED headings hold one), and those an
    offset of the text is under: its innermost heading's, else the nearest holding heading's."""

    def __init__(self, text: str, rows: Sequence[SectionRow]):
        dates = [heading_date(text, row.title, row.start) for row in rows]
        versions = _release_versions(rows, dates)
        held = {"version": versions, "date": dates}
        self.keys = [key for key in MARKS if sum(map(bool, held[key])) >= MIN_MARKED]
        self.own = {row.id: {k: held[k][at] for k in self.keys} for at, row in enumerate(rows)}
        self.parents = {row.id: row.parent_id for row in rows}

    def added(self, columns: Sequence[Column]) -> list[Column]:
        """The marks' columns a table of these `columns` is given: none it holds already (a date
        where it has a date of its own)."""
        names = {c.name for c in columns}
        timed = any(c.role is Role.WHEN or c.type is ColumnType.DATE for c in columns)
        return [
            Column(k, ColumnType.DATE, Role.WHEN) if k == "date" else Column(k)
            for k in self.keys
            if k not in names and not (k == "date" and timed)
        ]

    def under(self, row: SectionRow | None, key: str) -> str | None:
        """The mark `key` of the row, else of the nearest heading holding it that has one."""
        at = row.id if row is not None else None
        while at is not None:
            found = self.own[at].get(key)
            if found:
                return found
            at = self.parents.get(at)
        return None


def _release_versions(rows: Sequence[SectionRow], dates: list[str | None]) -> list[str | None]:
    """Each heading's version, at the level where headings hold a version and a date (None
    elsewhere, and everywhere unless MIN_MARKED of them do)."""
    versions = [heading_version(row.title) for row in rows]
    released = Counter(r.level for r, v, d in zip(rows, versions, dates, strict=True) if v and d)
    level, count = released.most_common(1)[0] if released else (None, 0)
    if count < MIN_MARKED:
        return [None] * len(rows)
    return [v if r.level == level else None for r, v in zip(rows, versions, strict=True)]


def _first_date(line: str) -> str | None:
    return next((d for a in atoms(line) if a.shape == "d" and (d := date(a.text))), None)

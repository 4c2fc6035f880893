"""A document's records as a table: named, typed columns, and rows that each keep the character
span they were read from (so every counted row can be cited). Values are typed once, here: a
column is a number or a date when nearly all its values read as one."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import parsedate_to_datetime
from enum import StrEnum
from typing import Any

TYPED_SHARE = 0.9  # of a column's non-empty values that must read as numbers (dates) to type it


class ColumnType(StrEnum):
    TEXT = "text"
    NUMBER = "number"
    DATE = (
        "date"  # ISO 8601 text: `2024-03-01`, `2024-03-01 12:00:05`, `--06-21 16:47:48` (no year)
    )


class Role(StrEnum):
    """What a column is to a question, whatever its name: who did it, when, the free text."""

    NONE = ""
    WHO = "who"
    WHEN = "when"
    BODY = "body"
    SECTION = "section"  # the section (act, chapter) a row falls in, or a section's own title


@dataclass(frozen=True)
class Column:
    """A column: its name (an SQL identifier), its type, its role, and other words a question may
    call it by (`character` for a script's `speaker`; a header's words as written)."""

    name: str
    type: ColumnType = ColumnType.TEXT
    role: Role = Role.NONE
    aliases: tuple[str, ...] = ()


Row = tuple[int, int, tuple[Any, ...]]  # (start, end, values in column order)


@dataclass
class Table:
    """Records of one shape found in one document: `name` is what the source calls them (a kind's
    own name, a table's heading or file), `nouns` what one row is called (`message`, `email`)."""

    name: str
    kind: str
    columns: list[Column]
    rows: list[Row]
    nouns: tuple[str, ...] = ()
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def signature(self) -> tuple[str, str, tuple[tuple[str, str], ...]]:
        """What makes tables of several documents one: the name, the kind and the columns."""
        return self.name, self.kind, tuple((c.name, c.type.value) for c in self.columns)


def identifier(text: str, taken: Iterable[str] = ()) -> str:
    """A lower-case SQL identifier for a header or a word (`Quantity Ordered` → `quantity_ordered`),
    made unique against `taken` with `_2`, `_3`…"""
    name = re.sub(r"\W+", "_", text.strip().lower()).strip("_") or "column"
    if name[0].isdigit():
        name = f"c_{name}"
    used = set(taken)
    unique, n = name, 1
    while unique in used:
        n += 1
        unique = f"{name}_{n}"
    return unique


_NUMBER = re.compile(
    r"\s*(?P<sign>[-+−]?)\s*[$€£¥]?\s*(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<fraction>\.\d+)?"
    r"(?P<exponent>[eE][-+]?\d+)?\s*%?\s*"
)


def number(text: str) -> float | int | None:
    """The number a cell states (`1,234.50`, `$12`, `-3`, `45%`), else None."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        return None
    sign = -1 if match["sign"] in ("-", "−") else 1
    digits = match["digits"].replace(",", "")
    if match["fraction"] is None and match["exponent"] is None:
        return sign * int(digits)
    return sign * float(digits + (match["fraction"] or "") + (match["exponent"] or ""))


_ISO = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)?"
)
_SLASHED = re.compile(r"(\d{4})/(\d\d)/(\d\d)(?:[ :](\d\d):(\d\d)(?::(\d\d))?)?")
_MONTHS = {
    m: n
    for n, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_SYSLOG = re.compile(r"([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)")
_CLF = re.compile(r"(\d\d)/([A-Z][a-z]{2})/(\d{4}):(\d\d):(\d\d):(\d\d)(?:\s*[+-]\d{4})?")


def date(text: str) -> str | None:
    """A date or time as ISO 8601 text (`2005-06-21 16:47:48`; `--06-21 16:47:48` for a yearless
    syslog stamp), else None. Reads ISO, `2024/03/01`, RFC 2822 (mail) and common log formats."""
    text = text.strip()
    if not text or len(text) > 64 or not any(c.isdigit() for c in text):
        return None
    for pattern in (_ISO, _SLASHED):
        match = pattern.fullmatch(text)
        if match:
            y, mo, d, h, mi, s = match.groups()
            return _iso(y, mo, d, h, mi, s)
    match = _CLF.fullmatch(text)
    if match and match[2].lower() in _MONTHS:
        d, mon, y, h, mi, s = match.groups()
        return _iso(y, f"{_MONTHS[mon.lower()]:02}", d, h, mi, s)
    match = _SYSLOG.fullmatch(text)
    if match and match[1].lower() in _MONTHS:
        mon, d, h, mi, s = match.groups()
        return f"--{_MONTHS[mon.lower()]:02}-{int(d):02} {h}:{mi}:{s}"
    if "," in text or text[:3].lower() in _MONTHS or text[:1].isdigit():
        try:
            stamp = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        return _stamp(stamp)
    return None


def _iso(y: str, mo: str, d: str, h: str | None, mi: str | None, s: str | None) -> str | None:
    try:
        stamp = datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0))
    except ValueError:
        return None
    return stamp.strftime("%Y-%m-%d") if h is None else _stamp(stamp)


def _stamp(stamp: datetime) -> str:
    return stamp.strftime("%Y-%m-%d %H:%M:%S")


def typed(values: Sequence[str | None]) -> tuple[ColumnType, list[Any]]:
    """A column's type from its values, and the values as that type (an empty cell, or one that
    does not read as the column's type, `n/a`, is None)."""
    filled = [v for v in values if v is not None and v.strip()]
    if not filled:
        return ColumnType.TEXT, [None if v is None or not v.strip() else v for v in values]
    for kind, read in ((ColumnType.NUMBER, number), (ColumnType.DATE, date)):
        read_values = [read(v) for v in filled]
        if sum(v is not None for v in read_values) >= TYPED_SHARE * len(filled):
            return kind, [None if v is None or not v.strip() else read(v) for v in values]
    return ColumnType.TEXT, [None if v is None or not v.strip() else v.strip() for v in values]


def build(
    name: str,
    kind: str,
    headers: Sequence[Column],
    cells: Sequence[tuple[int, int, Sequence[str | None]]],
    nouns: tuple[str, ...] = (),
) -> Table:
    """A table from raw cells: each column typed by `typed` (a column declared a number or a date
    keeps that type only if its values read so)."""
    columns: list[Sequence[Any]] = [[] for _ in headers]
    if cells:
        columns = list(zip(*(row for _, _, row in cells), strict=True))
    typed_columns, converted = [], []
    for header, raw in zip(headers, columns, strict=True):
        kind_found, values = typed(list(raw))
        typed_columns.append(Column(header.name, kind_found, header.role, header.aliases))
        converted.append(values)
    rows = [
        (start, end, tuple(col[i] for col in converted)) for i, (start, end, _) in enumerate(cells)
    ]
    return Table(name, kind, typed_columns, rows, nouns)

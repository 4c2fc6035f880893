"""A document's records as a table: named, typed columns, and rows that each keep the character
span they were read from (so every counted row can be cited). Values are typed once, here: a
column is a number or a date when nearly all its values read as one."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime
from enum import StrEnum
from typing import Any

RESERVED = ("doc_id", "start", "end", "document", "_start", "_end")  # (what every stored row has)
TYPED_SHARE = 0.9  # of a column's non-empty values that must read as numbers (dates) to type it
SAMPLE = 400  # values a column's type is decided on


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
    """Records of one shape found in one document, held column by column: `name` is what the
    source calls them (a kind's own name, a table's heading or file), `nouns` what one row is
    called (`message`, `email`); row i spans [starts[i], ends[i]) and holds values[c][i]."""

    name: str
    kind: str
    columns: list[Column]
    starts: list[int]
    ends: list[int]
    values: list[list[Any]]
    nouns: tuple[str, ...] = ()
    marked: bool = False  # the text marks its rows as records (a table's rule, mail headers)

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def rows(self) -> list[Row]:
        """The rows as (start, end, values in column order)."""
        cells = zip(*self.values, strict=True) if self.values else ((),) * len(self.starts)
        return list(zip(self.starts, self.ends, cells, strict=True))

    def kept(self, keep: Sequence[bool]) -> Table:
        """The table with only the rows marked to keep."""
        pick = [i for i, k in enumerate(keep) if k]
        return Table(
            self.name,
            self.kind,
            self.columns,
            [self.starts[i] for i in pick],
            [self.ends[i] for i in pick],
            [[column[i] for i in pick] for column in self.values],
            self.nouns,
            self.marked,
        )

    @property
    def signature(self) -> tuple[str, str, tuple[tuple[str, str], ...]]:
        """What makes tables of several documents one: the name, the kind and the columns."""
        return self.name, self.kind, tuple((c.name, c.type.value) for c in self.columns)


_WHO_KEY = re.compile(
    r"\b(?:author|maintainer|owner|sender|from|by|reporter|assignee|name|organi[sz]er|user)\b",
    re.IGNORECASE,
)
_WHEN_KEY = re.compile(
    r"\b(?:date|time|timestamp|ts|created|updated|modified|when|dtstart)\b", re.IGNORECASE
)


def key_role(key: str) -> Role:
    """What a field's key says its values are to a question: who did it (`Maintainer`, `user`),
    when (`Date`, `created_at`), else nothing."""
    words = key.replace("_", " ").replace(".", " ")
    if _WHO_KEY.search(words):
        return Role.WHO
    return Role.WHEN if _WHEN_KEY.search(words) else Role.NONE


KEY_SHARE = 0.2  # of the records that must hold a key for it to be a column


def keyed_columns(
    keys_held: Sequence[Iterable[str]], taken: list[str]
) -> tuple[list[str], list[Column]]:
    """Of records whose fields are keyed (each record's keys in `keys_held`), the keys KEY_SHARE
    of them hold, in the order first met, and a column for each: named by the key (unique
    against `taken`, which it extends), called by the key's words, its role `key_role`'s."""
    held: Counter[str] = Counter(key for keys in keys_held for key in keys)
    keys = [k for k, n in held.items() if n >= KEY_SHARE * len(keys_held)]
    columns = []
    for key in keys:
        taken.append(identifier(key, taken))
        words = re.sub(r"[-_.]+", " ", key.lower())
        columns.append(Column(taken[-1], role=key_role(key), aliases=(words,)))
    return keys, columns


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
_CTIME = re.compile(  # C's asctime, as git and mbox write it: `Mon Apr 14 17:03:00 2024 +0200`
    r"(?:[A-Z][a-z]{2}\s+)?([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})"
    r"(?:\s*[+-]\d{4})?"
)
_CLF = re.compile(r"(\d\d)/([A-Z][a-z]{2})/(\d{4}):(\d\d):(\d\d):(\d\d)(?:\s*[+-]\d{4})?")
_WRITTEN = re.compile(  # `May 16, 2022`, `March 3 2021`, `16 May 2022`
    r"(?:([A-Z][a-z]{2})[a-z]*\.?\s+(\d{1,2}),?|(\d{1,2})\s+([A-Z][a-z]{2})[a-z]*\.?,?)\s+(\d{4})"
)


def _from_iso(match: re.Match[str]) -> str | None:
    y, mo, d, h, mi, s = match.groups()
    return _iso(y, mo, d, h, mi, s)


def _from_clf(match: re.Match[str]) -> str | None:
    d, mon, y, h, mi, s = match.groups()
    month = _MONTHS.get(mon.lower())
    return None if month is None else _iso(y, f"{month:02}", d, h, mi, s)


def _from_ctime(match: re.Match[str]) -> str | None:
    mon, d, h, mi, sec, y = match.groups()
    month = _MONTHS.get(mon.lower())
    return None if month is None else _iso(y, f"{month:02}", d, h, mi, sec)


def _from_written(match: re.Match[str]) -> str | None:
    mon, d, day, month_name, y = match.groups()
    month = _MONTHS.get((mon or month_name).lower())
    return None if month is None else _iso(y, f"{month:02}", d or day, None, None, None)


def _from_syslog(match: re.Match[str]) -> str | None:
    mon, d, h, mi, s = match.groups()
    month = _MONTHS.get(mon.lower())
    return None if month is None else f"--{month:02}-{int(d):02} {h}:{mi}:{s}"


_FORMATS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str | None]], ...] = (
    (_ISO, _from_iso),
    (_SLASHED, _from_iso),
    (_CLF, _from_clf),
    (_CTIME, _from_ctime),
    (_SYSLOG, _from_syslog),
    (_WRITTEN, _from_written),
)


def date(text: str) -> str | None:
    """A date or time as ISO 8601 text (`2005-06-21 16:47:48`; `--06-21 16:47:48` for a yearless
    syslog stamp), else None. Reads ISO, `2024/03/01`, RFC 2822 (mail), C's asctime (git, mbox)
    and common log formats."""
    text = text.strip()
    if not text or len(text) > 64 or not any(c.isdigit() for c in text):
        return None
    for pattern, convert in _FORMATS:
        match = pattern.fullmatch(text)
        if match:
            return convert(match)
    if "," in text or text[:3].lower() in _MONTHS or text[:1].isdigit():
        try:
            stamp = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        return _stamp(stamp)
    return None


def _date_reader(sample: Sequence[str]) -> Callable[[str], str | None]:
    """`date`, trying first the format most of the sample is written in; each distinct cell read
    once, and a stamp of the fixed-width formats (ISO, syslog) read as its day (read once) and
    its time as written."""
    votes = [sum(1 for v in sample if p.fullmatch(v.strip())) for p, _ in _FORMATS]
    best = max(range(len(_FORMATS)), key=votes.__getitem__)
    if not votes[best]:
        return _memo(date)
    pattern, convert = _FORMATS[best]
    slow = _memo(lambda text: convert(match) if (match := pattern.fullmatch(text)) else date(text))
    fixed = _FIXED.get(pattern)
    if fixed is None:
        return slow
    width, cut, read_day = fixed
    day = _memo(read_day)

    def read(text: str) -> str | None:
        if (len(text) == width or len(text) > width and not text[width].isdigit()) and text[
            cut - 1
        ] in " T":
            clock = text[cut : cut + 8]
            if clock[2:3] == clock[5:6] == ":" and clock.replace(":", "").isdigit():
                known = day(text[: cut - 1])
                return None if known is None else f"{known} {clock}"
        return slow(text)

    return read


def _syslog_day(text: str) -> str | None:
    """A syslog stamp's day (`Jun 21`) as `--06-21`."""
    month = _MONTHS.get(text[:3].lower())
    if month is None or not text[4:].strip().isdigit():
        return None
    return f"--{month:02}-{int(text[4:]):02}"


def _iso_day(text: str) -> str | None:
    return date(text) if text[4:5] == text[7:8] == "-" else None


_FIXED = {  # a format's stamp width, where its time starts, and its day's reader
    _ISO: (19, 11, _iso_day),
    _SYSLOG: (15, 7, _syslog_day),
}


def _iso(y: str, mo: str, d: str, h: str | None, mi: str | None, s: str | None) -> str | None:
    try:
        stamp = datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0))
    except ValueError:
        return None
    return stamp.strftime("%Y-%m-%d") if h is None else _stamp(stamp)


def _stamp(stamp: datetime) -> str:
    return stamp.strftime("%Y-%m-%d %H:%M:%S")


def typed(values: Sequence[str | None]) -> tuple[ColumnType, list[Any]]:
    """A column's type from its values (a sample of SAMPLE, spread over them), and the values as
    that type (an empty cell, or one that does not read as the column's type, `n/a`, is None)."""
    step = max(1, len(values) // (2 * SAMPLE))
    sample = [v for v in values[::step] if v and not v.isspace()][:SAMPLE]
    if not sample and step > 1:
        sample = [v for v in values if v and not v.isspace()][:SAMPLE]
    if not sample:
        return ColumnType.TEXT, [None] * len(values)
    if sum(number(v) is not None for v in sample) >= TYPED_SHARE * len(sample):
        return ColumnType.NUMBER, _numbers(values)
    if sum(date(v) is not None for v in sample) >= TYPED_SHARE * len(sample):
        read = _date_reader(sample)
        return ColumnType.DATE, [read(v) if v else None for v in values]
    return ColumnType.TEXT, [(v.strip() or None) if v else None for v in values]


def _numbers(values: Sequence[str | None]) -> list[float | int | None]:
    """The values as numbers: whole numbers all at once where they all are, else one by one."""
    try:
        return [int(v) if v else None for v in values]
    except ValueError:
        return [_number_fast(v) if v else None for v in values]


def _number_fast(text: str) -> float | int | None:
    """`number`, most cells read by int or float alone."""
    if text[:1].isdigit() or text[:1] == "-":
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                pass
    return number(text)


def _memo(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """`read`, each distinct cell read once (log stamps and the like repeat)."""
    seen: dict[str, Any] = {}

    def cached(text: str) -> Any:
        found = seen.get(text, seen)
        if found is seen:
            found = seen[text] = read(text)
        return found

    return cached


def build(
    name: str,
    kind: str,
    headers: Sequence[Column],
    cells: Sequence[tuple[int, int, Sequence[str | None]]],
    nouns: tuple[str, ...] = (),
    marked: bool = False,
) -> Table:
    """A table from raw cells: each column typed by `typed` (a column declared a number or a date
    keeps that type only if its values read so)."""
    columns: list[Sequence[Any]] = [[] for _ in headers]
    if cells:
        columns = list(zip(*(row for _, _, row in cells), strict=True))
    typed_columns, converted = [], []
    names = [h.name for h in headers]
    for header, raw in zip(headers, columns, strict=True):
        kind_found, values = typed(list(raw))
        column_name, aliases = header.name, header.aliases
        if column_name in RESERVED:  # (`END:VEVENT` read as a column `end`: `end_2`, called `end`)
            column_name = identifier(column_name, [*RESERVED, *names])
            names.append(column_name)
            aliases = (*aliases, header.name)
        typed_columns.append(Column(column_name, kind_found, header.role, aliases))
        converted.append(values)
    starts = [s for s, _, _ in cells]
    ends = [e for _, e, _ in cells]
    return Table(name, kind, typed_columns, starts, ends, converted, nouns, marked)

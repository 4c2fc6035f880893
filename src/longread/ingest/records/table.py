"""A document's records as a table: named, typed columns, and rows that each keep the character
span they were read from (so every counted row can be cited). Values are typed once, here: a
column is a number or a date when nearly all its values read as one."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from longread.ingest.records.cells import ColumnType, typed
from longread.ingest.records.content_names import UNNAMED, content_name

RESERVED = ("doc_id", "start", "end", "document", "_start", "_end")  # (what every stored row has)
MAX_COLUMNS = 1_000  # of a table, kept (SQLite holds 2,000; section columns are added after)


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
        words = re.sub(r"[-_./]+", " ", key.lower())
        called = (words, key) if key.lower() != words else (words,)  # (`productId`: product, id)
        columns.append(Column(taken[-1], role=key_role(key), aliases=called))
    return keys, columns


def identifier(text: str, taken: Iterable[str] = ()) -> str:
    """A lower-case SQL identifier for a header or a word (`Quantity Ordered` → `quantity_ordered`),
    made unique against `taken` with `_2`, `_3`…"""
    name = re.sub(r"\W+", "_", text.strip().lower()).strip("_") or "column"
    if name[0].isdigit() or name.startswith("sqlite_"):  # (SQLite keeps `sqlite_` names)
        name = f"c_{name}"
    used = set(taken)
    unique, n = name, 1
    while unique in used:
        n += 1
        unique = f"{name}_{n}"
    return unique


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
    if len(headers) > MAX_COLUMNS:
        headers = headers[:MAX_COLUMNS]
        cells = [(start, end, row[:MAX_COLUMNS]) for start, end, row in cells]
    columns: list[Sequence[Any]] = [[] for _ in headers]
    if cells:
        columns = list(zip(*(row for _, _, row in cells), strict=True))
    typed_columns, converted = [], []
    names = [h.name for h in headers]
    used: set[str] = set()  # (in lower case: SQLite's names ignore case)
    for header, raw in zip(headers, columns, strict=True):
        kind_found, values = typed(list(raw))
        column_name, aliases = header.name, header.aliases
        held = content_name(kind_found, values) if UNNAMED.fullmatch(column_name) else None
        if held is not None:  # (no header named it: named by what it holds)
            column_name = identifier(held, names)
            names.append(column_name)
            aliases = (*aliases, header.name)
        if column_name.lower() in (*RESERVED, *used) or not column_name.strip():
            # (`END:VEVENT` read as a column `end`: `end_2`, called `end`; a name said twice)
            column_name = identifier(column_name, [*RESERVED, *used, *map(str.lower, names)])
            names.append(column_name)
            aliases = (*aliases, header.name)
        used.add(column_name.lower())
        typed_columns.append(Column(column_name, kind_found, header.role, aliases))
        converted.append(values)
    starts = [s for s, _, _ in cells]
    ends = [e for _, e, _ in cells]
    return Table(name, kind, typed_columns, starts, ends, converted, nouns, marked)

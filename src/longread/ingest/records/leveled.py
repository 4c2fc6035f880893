"""Records written as an outline of leveled lines: each line opens with its depth (`0`, `1`,
`2`…), then an identifier maybe (`@I1@`), a tag and a value, as genealogy files (GEDCOM) write
them. A line of depth 0 opens a record; the lines under it are its fields, each named by its tag
(`SEX`), or by the tags above it where another field ends with the same tag (`BIRT.PLAC`, the
place of the birth, beside `DEAT.PLAC`). A table per tag the records open with (`INDI`, `FAM`),
the records' identifiers a column."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from longread.ingest.records.kind import lines
from longread.ingest.records.table import Column, Table, build, identifier, keyed_columns

name = "leveled"
NOUNS = ("record", "entry", "item")
WHOLE: tuple[str, ...] = ()
_LINE = re.compile(r"(\d{1,2})[ \t]+(?:(@[^@\s]{1,40}@)[ \t]+)?([A-Za-z_]\w{0,31})(?:[ \t]+(.*))?")
SHARE = 0.8  # of a text's lines (of a sample) that must be leveled
SAMPLE_LINES = 2_000


@dataclass
class _Record:
    start: int
    end: int
    ident: str | None
    fields: dict[str, str] = field(default_factory=dict)


def detect(sample: str) -> bool:
    read = [line.strip().lstrip("\ufeff") for line in sample.splitlines()[:SAMPLE_LINES]]
    read = [line for line in read if line]
    leveled = [m for line in read if (m := _LINE.fullmatch(line))]
    opened = sum(1 for m in leveled if m[1] == "0")
    return len(leveled) >= SHARE * len(read) and opened >= 3 and opened < len(leveled)


def records(text: str, file_name: str) -> list[Table]:
    found: dict[str, list[_Record]] = {}
    current: _Record | None = None
    path: list[str] = []
    for start, end in lines(text):
        read = _LINE.fullmatch(text[start:end].strip().lstrip("\ufeff"))
        if read is None:
            continue
        level, ident, tag, value = int(read[1]), read[2], read[3].upper(), (read[4] or "").strip()
        if level == 0:
            current = _Record(start, end, ident or value or None)
            found.setdefault(tag, []).append(current)
            path = []
            continue
        if current is None:
            continue
        path = [*path[: level - 1], tag]
        key = ".".join(path)
        held = current.fields.get(key)
        current.fields[key] = f"{held}, {value}" if held and value else held or value
        current.end = end
    return [_table(tag, held) for tag, held in found.items()]


def _table(tag: str, found: list[_Record]) -> Table:
    """The records opening with one tag as a table (marked: however few, they are records)."""
    short = {key: key.rsplit(".", 1)[-1] for key in {k for r in found for k in r.fields}}
    ends = Counter(short.values())
    named = {key: end if ends[end] == 1 else key for key, end in short.items()}
    held = [{named[k]: v for k, v in r.fields.items() if v} for r in found]
    kept, columns = keyed_columns([h.keys() for h in held], ["id"])
    cells = [
        (r.start, r.end, [r.ident, *(h.get(k) for k in kept)])
        for r, h in zip(found, held, strict=True)
    ]
    return build(identifier(tag), name, [Column("id"), *columns], cells, NOUNS, marked=True)

"""Key-value stanzas (RFC 822 style: a package list, a control file, a tracker's export): blocks
of `Key: value` lines, a value running on over indented lines, blocks parted by blank lines. Each
block is a row; each key held by a fifth of the blocks or more is a column."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from longread.ingest.records.kind import MIN_ROWS
from longread.ingest.records.table import Column, Role, Table, build, identifier

name = "stanzas"
NOUNS = ("entry", "record", "stanza", "block", "item")
WHOLE = ("list", "database")
_FIELD = re.compile(r"^([A-Za-z][\w-]{0,40}(?: [\w-]{1,20})?):(?:[ \t]+([^\n]*)|[ \t]*$)")
_BLANK = re.compile(r"\n(?:[ \t]*\n)+")  # (the blank lines parting blocks)
_KEY_SHARE = 0.2
_WHO = re.compile(r"\b(?:author|maintainer|owner|sender|from|by|reporter|assignee|name)\b", re.I)
_WHEN = re.compile(r"\b(?:date|time|created|updated|modified|when)\b", re.I)


def detect(sample: str) -> bool:
    return len(_stanzas(sample)) >= 3


def records(text: str, file_name: str) -> list[Table]:
    found = _stanzas(text)
    if len(found) < MIN_ROWS:
        return []
    held: Counter[str] = Counter(key for _, _, fields in found for key in dict(fields))
    keys = [k for k, n in held.items() if n >= _KEY_SHARE * len(found)]
    taken: list[str] = []
    columns = []
    for key in keys:
        column = identifier(key, taken)
        taken.append(column)
        role = Role.WHO if _WHO.search(key) else Role.WHEN if _WHEN.search(key) else Role.NONE
        columns.append(Column(column, role=role, aliases=(key.lower().replace("-", " "),)))
    cells = [(s, e, [dict(fields).get(k) for k in keys]) for s, e, fields in found]
    return [build(name, name, columns, cells, NOUNS)]


def _stanzas(text: str) -> list[tuple[int, int, list[tuple[str, str]]]]:
    """(start, end, [(key, value)…]) of each block made of fields only, two fields or more."""
    found = []
    for start, end in _blocks(text):
        block = text[start:end]
        if _FIELD.match(block):  # (most blocks are not stanzas: told by their first line)
            fields = _fields(block)
            if fields is not None and len(fields) >= 2:
                found.append((start, end, fields))
    return found


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """The [start, end) of each block of lines (its last line break in)."""
    at = 0
    for gap in _BLANK.finditer(text):
        if text[at : gap.start()].strip():
            yield at, gap.start() + 1
        at = gap.end()
    if text[at:].strip():
        yield at, len(text)


def _fields(block: str) -> list[tuple[str, str]] | None:
    """The block's fields, a value's indented lines joined to it; None if a line is neither."""
    fields: list[tuple[str, str]] = []
    for line in block.splitlines():
        if line[:1] in (" ", "\t") and fields:
            key, value = fields[-1]
            fields[-1] = (key, f"{value} {line.strip()}".strip())
            continue
        match = _FIELD.match(line)
        if match is None:
            return None
        fields.append((match.group(1), (match.group(2) or "").strip()))
    return fields

"""Lines of named fields: a record a line, written as `Key: value` pairs parted by a mark
(`Date: May 16, 2022 || User: 83370 || Instance: …`, `Name: Ada | Age: 36 | City: Oslo`), most
lines naming the same keys in the same order. A column a key; a field holding prose is the text."""

from __future__ import annotations

import re
from collections import Counter
from statistics import median

from longread.ingest.records.kind import MIN_ROWS, lines
from longread.ingest.records.table import Column, Role, Table, build, identifier

name = "fields"
NOUNS = ("record", "entry", "line", "row", "item")
WHOLE: tuple[str, ...] = ()
_KEY = r"[A-Za-z][\w .()/-]{0,30}?"
_PARTING = re.compile(rf"[ \t]*(?:\|\||[|;,\t])[ \t]*(?={_KEY}:[ \t])")  # (a mark, then a key)
_PAIR = re.compile(rf"[ \t]*({_KEY}):[ \t]+(.*)", re.DOTALL)
SAMPLE_LINES = 400
SHARE = 0.6  # of the lines read, those naming the commonest keys
TEXT_CHARS = 40  # a field whose values are longer than this, as a rule, is the records' text


def fields(line: str) -> list[tuple[str, str]] | None:
    """The line's (key, value) pairs, if it is nothing but two or more of them."""
    parts = _PARTING.split(line)
    if len(parts) < 2:
        return None
    pairs = [_PAIR.fullmatch(part) for part in parts]
    if not all(pairs):
        return None
    return [(p.group(1).strip(), p.group(2).strip()) for p in pairs if p]


def detect(sample: str) -> bool:
    return _keys(sample.splitlines()[:SAMPLE_LINES]) is not None


def _keys(sample: list[str]) -> tuple[str, ...] | None:
    """The keys most lines of the sample name, in order, if SHARE of its lines do."""
    named = Counter(tuple(k for k, _ in found) for line in sample if (found := fields(line)))
    filled = sum(1 for line in sample if line.strip())
    if not named:
        return None
    keys, count = named.most_common(1)[0]
    return keys if count >= max(MIN_ROWS, SHARE * filled) else None


def records(text: str, file_name: str) -> list[Table]:
    spans = list(lines(text))
    keys = _keys([text[s:e] for s, e in spans[:SAMPLE_LINES]])
    if keys is None:
        return []
    mark = r"[ \t]*(?:\|\||[|;,\t])[ \t]*"
    line = re.compile(  # (the keys in their order: a value may hold a mark, even `word: `)
        r"[ \t]*" + mark.join(rf"{re.escape(key)}:[ \t]+(.*?)" for key in keys) + r"[ \t]*"
    )
    cells: list[tuple[int, int, list[str | None]]] = []
    for start, end in spans:
        found = line.fullmatch(text, start, end)
        if found:
            cells.append((start, end, [v or None for v in found.groups()]))
    lengths = [median(len(row[n] or "") for _, _, row in cells) for n in range(len(keys))]
    body = max(range(len(keys)), key=lengths.__getitem__)
    names: list[str] = []
    columns = []
    for n, key in enumerate(keys):
        names.append(identifier(key.lower(), names))
        role = Role.BODY if n == body and lengths[n] > TEXT_CHARS else Role.NONE
        columns.append(Column(names[-1], role=role, aliases=(key.lower(),)))
    return [build(identifier(_stem(file_name)), name, columns, cells, NOUNS)]


def _stem(file_name: str) -> str:
    return file_name.rsplit("/", 1)[-1].rsplit(".", 1)[0] or "records"

"""Lines of named fields: a record a line, written as `Key: value` pairs parted by a mark
(`Date: May 16, 2022 || User: 83370 || Instance: …`, `Name: Ada | Age: 36 | City: Oslo`), most
lines naming the same keys in the same order. A column a key; a field holding prose is the text."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from statistics import median

from longread.ingest.records.kind import MIN_ROWS, lines
from longread.ingest.records.table import Column, Role, Table, build, identifier

name = "fields"
NOUNS = ("record", "entry", "line", "row", "item")
WHOLE: tuple[str, ...] = ()
_KEY = r"[A-Za-z][\w .()/-]{0,30}?"
_MARKS = r"(?:\|\||[|;,])"
_PARTING = re.compile(  # (white space or a mark, then a key; each run of white space read once)
    rf"(?<![ \t])(?:[ \t]++(?:{_MARKS}[ \t]*+)?|{_MARKS}[ \t]*+)(?={_KEY}:[ \t])"
)
_BLANKS = re.compile(r"[ \t]*")
_PAIR = re.compile(rf"[ \t]*({_KEY}):[ \t]+(.*)", re.DOTALL)
SAMPLE_LINES = 400
SHARE = 0.6  # of the lines read, those naming the commonest keys
TEXT_CHARS = 40  # a field whose values are longer than this, as a rule, is the records' text


def fields(line: str) -> list[tuple[str, str]] | None:
    """The line's (key, value) pairs, if it is nothing but two or more of them."""
    parts, at = [], 0
    for gap in _PARTING.finditer(line):
        if _marks(gap.group()):
            parts.append(line[at : gap.start()])
            at = gap.end()
    parts.append(line[at:])
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
    cells: list[tuple[int, int, list[str | None]]] = []
    for start, end in spans:
        found = _values(text[start:end], keys)
        if found is not None:
            cells.append((start, end, [v or None for v in found]))
    lengths = [median(len(row[n] or "") for _, _, row in cells) for n in range(len(keys))]
    body = max(range(len(keys)), key=lengths.__getitem__)
    names: list[str] = []
    columns = []
    for n, key in enumerate(keys):
        names.append(identifier(key.lower(), names))
        role = Role.BODY if n == body and lengths[n] > TEXT_CHARS else Role.NONE
        columns.append(Column(names[-1], role=role, aliases=(key.lower(),)))
    return [build(identifier(_stem(file_name)), name, columns, cells, NOUNS)]


def _marks(gap: str) -> bool:
    """Whether a stretch between two fields parts them: white space holding a tab, or one mark
    (`|`, `||`, `;`, `,`) with white space around it or none."""
    core = gap.strip(" \t")
    return core in ("|", "||", ";", ",") or (not core and "\t" in gap)


def _values(line: str, keys: tuple[str, ...]) -> list[str] | None:
    """The values of a line naming `keys` in their order (`Key:`, white space, the value, a mark,
    the next key…), else None. A value runs to the first mark before the next key, so it may hold a
    mark, even `word: `. Read in one pass (a pattern saying the same backtracked: minutes on a
    line of tabs)."""
    at = len(line) - len(line.lstrip(" \t"))
    if not _named(line, keys[0], at):
        return None
    values: list[str] = []
    for key, following in itertools.pairwise(keys):
        start = _value_start(line, at + len(key) + 1)
        found = _next_key(line, following, at + len(key) + 2)
        if found is None:
            return None
        gap, at = found
        values.append(line[start:gap] if gap > start else "")
    values.append(line[_value_start(line, at + len(keys[-1]) + 1) :].rstrip(" \t"))
    return values


def _named(line: str, key: str, at: int) -> bool:
    """Whether `key:` and white space stand at `at`."""
    after = at + len(key) + 1
    return line.startswith(f"{key}:", at) and line[after : after + 1] in (" ", "\t")


def _value_start(line: str, at: int) -> int:
    return _BLANKS.match(line, at).end()  # type: ignore[union-attr]  # (matches empty)


def _next_key(line: str, key: str, at: int) -> tuple[int, int] | None:
    """Where the first mark before `key:` (and white space) from `at` on starts, and where that
    key starts."""
    found = line.find(f"{key}:", at)
    while found >= 0:
        gap = max(_gap_start(line, found), at)
        if _named(line, key, found) and _marks(line[gap:found]):
            return gap, found
        found = line.find(f"{key}:", found + 1)
    return None


def _gap_start(line: str, end: int) -> int:
    """Where the white space and the one mark before `end` start."""
    start = _blank_start(line, end)
    if line.endswith("||", 0, start):
        start -= 2
    elif start and line[start - 1] in "|;,":
        start -= 1
    else:
        return start
    return _blank_start(line, start)


def _blank_start(line: str, end: int) -> int:
    """Where the white space before `end` starts."""
    while end and line[end - 1] in " \t":
        end -= 1
    return end


def _stem(file_name: str) -> str:
    return file_name.rsplit("/", 1)[-1].rsplit(".", 1)[0] or "records"

"""Lines named by their first word, in a file of several kinds of line: each kind a table of the
word's lines, where they part alike, into as many fields by spaces (`KPX A V -80`: a font's kern
pairs) or into fields parted by `;`, each opened by its key (`C 65 ; WX 722 ; N A ;`: its
characters). Prose's lines that open with one word part into any number of words; a word whose
lines stand apart (a changelog entry's first line, with the entry's other lines between) opens
records of several lines, which the general finder reads whole."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from longread.ingest.records.kind import lines
from longread.ingest.records.table import Column, Table, build, identifier

name = "worded"
NOUNS = ("line", "entry", "record", "row")
WHOLE: tuple[str, ...] = ()
MIN_LINES = 20  # of a word, for a table
RUNNING = 0.5  # of a word's lines that must follow another of its lines
ALIKE = 0.9  # of a word's lines that must part alike
MAX_FIELDS = 8  # after the word
MAX_CHARS = 160  # a longer line is prose
SAMPLE_LINES = 20_000
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
Spans = list[tuple[int, int, str]]


def detect(sample: str) -> bool:
    return any(_parted(spans) for spans in _by_word(sample, SAMPLE_LINES).values())


def records(text: str, file_name: str) -> list[Table]:
    found: list[Table] = []
    taken = ["sections", "items", "documents"]  # (the tables every document may have)
    for word, spans in _by_word(text).items():
        parted = _parted(spans)
        if parted is not None:
            headers, cells = parted
            table_name = identifier(word.lower(), taken)
            taken.append(table_name)
            found.append(build(table_name, name, headers, cells, NOUNS, True))
    return found


def _by_word(text: str, most: int | None = None) -> dict[str, Spans]:
    """The lines that open with a word and go on, by their word (MIN_LINES or more of it, RUNNING
    of them right after another of the word's lines)."""
    grouped: defaultdict[str, Spans] = defaultdict(list)
    following: Counter[str] = Counter()
    last = None
    for count, (start, end) in enumerate(lines(text)):
        if most is not None and count >= most:
            break
        line = text[start:end]
        first = line.split(None, 1)
        word = first[0] if len(first) == 2 and len(line) <= MAX_CHARS else None
        if word is not None and _WORD.fullmatch(word):
            grouped[word].append((start, end, line))
            following[word] += word == last
        if line.strip():  # (a blank line parts no run)
            last = word
    return {
        word: spans
        for word, spans in grouped.items()
        if len(spans) >= MIN_LINES and following[word] >= RUNNING * len(spans)
    }


def _parted(spans: Spans) -> tuple[list[Column], list[tuple[int, int, list[str | None]]]] | None:
    """A word's lines as columns and cells, if they part alike (keyed fields first)."""
    return _keyed(spans) or _spaced(spans)


def _keyed(spans: Spans) -> tuple[list[Column], list[tuple[int, int, list[str | None]]]] | None:
    """Lines of `;`-parted fields, each a key and its value, most naming the same keys."""
    read = []
    for start, end, line in spans:
        parts = [p.split(None, 1) for p in line.split(";") if p.strip()]
        read.append((start, end, [(p[0], p[1].strip() if len(p) > 1 else "") for p in parts]))
    shapes = Counter(tuple(k for k, _ in fields) for _, _, fields in read)
    keys, held = shapes.most_common(1)[0]
    if len(keys) < 2 or len(set(keys)) < len(keys) or held < ALIKE * len(read):
        return None
    headers: list[Column] = []
    for key in keys:
        headers.append(Column(identifier(key.lower(), [h.name for h in headers])))
    cells = []
    for start, end, fields in read:
        values = dict(fields)
        cells.append((start, end, [values.get(k) for k in keys]))
    return headers, cells


def _spaced(spans: Spans) -> tuple[list[Column], list[tuple[int, int, list[str | None]]]] | None:
    """Lines parted by spaces into as many fields after the word, most of them; a column that
    holds one value on every line is none (a label), and one at least must vary."""
    split = [(start, end, line.split()[1:]) for start, end, line in spans]
    widths = Counter(len(fields) for _, _, fields in split)
    width, held = widths.most_common(1)[0]
    if not 2 <= width <= MAX_FIELDS or held < ALIKE * len(split):
        return None
    rows = []
    for start, end, fields in split:
        if len(fields) > width:
            fields = [*fields[: width - 1], " ".join(fields[width - 1 :])]
        rows.append((start, end, [*fields, *[None] * (width - len(fields))]))
    varied = [i for i in range(width) if len({r[i] for _, _, r in rows}) > 1]
    if len(varied) < 2:
        return None
    headers = [Column("column") for _ in varied]
    for at in range(len(headers)):
        headers[at] = Column(identifier("column", [h.name for h in headers[:at]]))
    return headers, [(s, e, [r[i] for i in varied]) for s, e, r in rows]

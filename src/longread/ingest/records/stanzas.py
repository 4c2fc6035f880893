"""Key-value records: runs of field lines, each a key and a value, in the syntax most of the text's
field lines use: `Key: value` (RFC 822: a package list, a control file, mail-like headers; a value
folded over indented lines; a key in a namespace, `review/score`; fields written as comments,
`# Key: value`), `KEY;PARAM=x:value`
(iCalendar), `key = value` or `key = {value},` (BibTeX, INI), `[Key "value"]` (tag pairs),
`<key>value</key>` (XML leaves). A run is parted from the next by blank lines or other lines,
and cut again where its first key recurs (a calendar's `BEGIN`). An other line just before each
run, opening with one word (`commit 1a2b…`, `<book id=…>`, `@article{…`), names the records and
is a column; the other lines after a run, up to the next record, are its text. Each key held by
a fifth of the records or more is a column."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from longread.ingest.records.kind import MIN_ROWS, LinePattern, lines
from longread.ingest.records.table import Column, Role, Table, build, identifier, keyed_columns

name = "stanzas"
NOUNS = ("entry", "record", "stanza", "block", "item")
WHOLE = ("list", "database")
_SYNTAXES = tuple(
    LinePattern(pattern, re.MULTILINE)
    for pattern in (
        # Key: value   KEY;PARAM=x:value   (no URL: `http://…`), maybe behind a comment's mark
        r"(?:(?:#+|;+|%+|//|--)[ \t]*)?"
        r"(?P<key>[A-Za-z][\w-]{0,40}(?:/[A-Za-z][\w-]{0,40})?(?: [\w-]{1,20})?)"
        r"(?:;(?P<params>[^:\n]{1,200}))?:"
        r"(?:[ \t]+(?P<value>[^\n]*)|[ \t]*$|(?P<tight>(?!//)[^\s][^\n]*))",
        r"[ \t]*(?P<key>[A-Za-z][\w.-]{0,40})[ \t]*=[ \t]*(?P<value>[^\n]*)",
        r"[ \t]*\[(?P<key>[A-Za-z][\w-]{0,40})[ \t]+\"(?P<value>[^\"\n]*)\"\][ \t]*$",
        r"[ \t]*<(?P<key>[A-Za-z][\w.-]{0,40})(?:[ \t][^>\n]*)?>(?P<value>[^<\n]*)"
        r"</(?P=key)>[ \t]*$",
    )
)
_FOLDS = 0  # the syntax whose values run on over indented lines
_OPENING = re.compile(
    r"[ \t]*[^\w\s]{0,2}(?P<word>[A-Za-z][A-Za-z-]{1,30})\b[ \t{]*(?P<rest>[^\n]*)"
)
_BRACKETED = re.compile(r"[ \t]*\[([^\[\]\n]{1,80})\][ \t]*")  # (an INI file's `[section]`)
_CLOSING = re.compile(r"[ \t]*(?:</[\w.-]+>|[^\w\n]*)[ \t]*$")  # (`</book>`, `}`: no text)
_SAME_FIRST = 0.6  # of the records that must open with one key
_SAME_OPENING = 0.8  # of the records whose opening line must open with one word to be named so
_PROSE_SHARE = 0.5  # of the values that may be sentences (turns of a dialogue are not fields)
_PROSE = re.compile(r"\S+(?:\s+\S+){3,}[.?!…]['\"’”]?\s*$")
FIELD_SHARE = 0.05
BODY_CHARS = 4_000  # of the lines after a record, kept as its text at most


@dataclass
class _Record:
    start: int
    end: int
    opening: str | None = None  # the line just before its fields
    fields: list[tuple[str, str]] = field(default_factory=list)
    lines: list[tuple[int, int]] = field(default_factory=list)  # each field's [start, end)
    body: str = ""


def detect(sample: str) -> bool:
    return len(_records(sample)) >= 3


def records(text: str, file_name: str) -> list[Table]:
    found = _records(text)
    if len(found) < MIN_ROWS:
        return []
    opened = _opened(found)
    word = opened[0] if opened is not None and opened[1] is _rest else None
    taken = [identifier(opened[0])] if opened is not None else []
    opening_columns = [Column(name) for name in taken]
    keys, keyed = keyed_columns([dict(r.fields) for r in found], taken)
    columns = [*opening_columns, *keyed]
    bodies = any(r.body for r in found)
    if bodies:
        columns.append(Column(identifier("text", taken), role=Role.BODY))
    cells = []
    for r in found:
        opening = [opened[1](r.opening)] if opened is not None else []
        values = [dict(r.fields).get(k) for k in keys]
        cells.append((r.start, r.end, [*opening, *values, *([r.body or None] if bodies else [])]))
    nouns = (word.lower(), *NOUNS) if word is not None else NOUNS
    title = word.lower() if word else identifier(file_name.rsplit(".", 1)[0] or name)
    return [build(title, name, columns, cells, nouns)]


def _opened(found: list[_Record]) -> tuple[str, Callable[[str | None], str | None]] | None:
    """The column the records' opening lines give: the name a section's brackets hold
    (`[service-0]`); else what follows the one word they open with (`commit 1a2b…`: `commit`);
    else the kind of record a repeated first word says (`@book{…`, `@article{…`: `type`)."""
    openings = [r.opening for r in found if r.opening]
    if len(openings) < _SAME_OPENING * len(found):
        return None
    if all(_BRACKETED.fullmatch(o) for o in openings):
        return "name", lambda o: (m := _BRACKETED.fullmatch(o or "")) and m.group(1).strip() or None
    word = _opening_word(found)
    if word is not None:
        return word, _rest
    words = Counter(m.group("word").lower() for o in openings if (m := _OPENING.match(o)))
    if sum(words.values()) >= _SAME_OPENING * len(found) and len(words) * 2 <= len(found):
        return "type", lambda o: (m := _OPENING.match(o or "")) and m.group("word").lower() or None
    return None


def _records(text: str) -> list[_Record]:
    """The key-value records of the text, if they look like fields (not turns of a dialogue, nor
    a field here and there in prose: FIELD_SHARE of the text's lines at least)."""
    syntax = _syntax(text)
    if syntax is None:
        return []
    fields = sum(1 for _ in _SYNTAXES[syntax].finditer(text))
    if fields < FIELD_SHARE * text.count("\n"):
        return []
    found = [piece for run in _runs(text, syntax) for piece in _cut(run)]
    found = [r for r in found if len(r.fields) >= 2]
    if len(found) < 3:
        return []
    firsts = Counter(r.fields[0][0] for r in found)
    values = [v for r in found for _, v in r.fields if v]
    prose = sum(1 for v in values if _PROSE.match(v))
    if firsts.most_common(1)[0][1] < _SAME_FIRST * len(found) or prose > _PROSE_SHARE * len(values):
        return []
    return found


def _syntax(text: str) -> int | None:
    """The syntax most of the text's first lines that are fields use (None: hardly any are)."""
    votes: Counter[int] = Counter()
    for line in text[:200_000].splitlines()[:4_000]:
        for number, pattern in enumerate(_SYNTAXES):
            if pattern.first.match(line):
                votes[number] += 1
                break
    if not votes:
        return None
    number, count = votes.most_common(1)[0]
    return number if count >= 6 else None


def _field(match: re.Match[str], syntax: int) -> tuple[str, str]:
    value = (match.group("value") or "").strip()
    if syntax == _FOLDS:
        value = value or (match.group("tight") or "").strip()
        if match.group("params"):
            value = f"{match.group('params')}:{value}"
    if syntax == 1:  # (`= {Knuth, Donald},`: the braces, quotes and separator are no part of it)
        value = value.rstrip(",;").strip().strip("{}\"'").strip()
    return match.group("key"), value


Line = tuple[int, int, tuple[str, str] | None]  # ([start, end) of a line, its field if it is one)


def _lines(text: str, syntax: int) -> Iterator[Line]:
    """The text's field lines, found by the syntax's pattern (the text between them is not read
    line by line where it is long: a field here and there in a long prose is no record), and the
    other lines about them: the line before each, those after it (BODY_CHARS of them)."""
    last = None
    for start, match in _SYNTAXES[syntax].finditer(text):
        if last is None:
            before = text.rfind("\n", 0, max(0, start - 1)) + 1
            yield from ((s, e, None) for s, e in lines(text, before, start))
        else:
            yield from _between(text, last + 1, start)
        end = text.find("\n", start)
        last = len(text) if end < 0 else end
        yield start, last, _field(match, syntax)
    if last is not None and last < len(text):
        tail = lines(text, last + 1, min(len(text), last + BODY_CHARS))
        yield from ((s, e, None) for s, e in tail)


def _between(text: str, start: int, end: int) -> Iterator[Line]:
    """The lines of text[start:end] (it ends where a line starts); of a long stretch, its first
    BODY_CHARS, a blank, and its last line."""
    if end - start <= 2 * BODY_CHARS:
        yield from ((s, e, None) for s, e in lines(text, start, end))
        return
    yield from ((s, e, None) for s, e in lines(text, start, start + BODY_CHARS))
    yield end, end, None  # (a blank: what follows is parted from it)
    last = text.rfind("\n", start, end - 1) + 1
    yield last, end - 1, None


def _runs(text: str, syntax: int) -> Iterator[_Record]:
    """Each run of field lines: its span, fields, the line just before it and the lines after it
    (a line after a record is its text, unless a run follows it at once: the next one's opening)."""
    current: _Record | None = None
    pending: tuple[int, int, str] | None = None  # (an other line: its text's [start, end), text)
    parted = False  # (a blank or other line since the record's last field)
    for start, end, found in _lines(text, syntax):
        stripped = text[start:end]
        folded = syntax == _FOLDS and stripped[:1] in (" ", "\t") and stripped.strip()
        if found is None and folded and current is not None and not parted:
            key, value = current.fields[-1]
            current.fields[-1] = (key, f"{value} {stripped.strip()}".strip())
            current.lines[-1] = (current.lines[-1][0], end)
            current.end = end
            continue
        if found is not None:
            if current is None or parted:
                if current is not None:
                    yield current
                if pending is None:
                    current = _Record(start, end)
                else:
                    current = _Record(pending[0], end, pending[2])
                pending = None
            current.fields.append(found)
            current.lines.append((start, end))
            current.end, parted = end, False
            continue
        _after(current, pending)
        parted = current is not None
        pending = (start, end, stripped) if stripped.strip() else None
    _after(current, pending)
    if current is not None:
        yield current


def _after(record: _Record | None, line: tuple[int, int, str] | None) -> None:
    """A line after a record's fields: its text (a closing line, `}` or `</book>`, only ends it)."""
    if record is None or line is None:
        return
    if not _CLOSING.fullmatch(line[2]):
        if len(record.body) >= BODY_CHARS:
            return
        record.body = f"{record.body}\n{line[2].strip()}".strip()
    record.end = line[1]


def _cut(run: _Record) -> list[_Record]:
    """The run cut where its first key recurs (several records with no line between them)."""
    first = run.fields[0][0]
    if sum(1 for key, _ in run.fields if key == first) < 2:
        return [run]
    pieces: list[_Record] = []
    for (key, value), (start, end) in zip(run.fields, run.lines, strict=True):
        if key == first:
            opening = None if pieces else run.opening
            pieces.append(_Record(run.start if not pieces else start, end, opening))
        pieces[-1].fields.append((key, value))
        pieces[-1].lines.append((start, end))
        pieces[-1].end = end
    pieces[-1].body, pieces[-1].end = run.body, run.end
    return pieces


def _opening_word(found: list[_Record]) -> str | None:
    """The word the records' opening lines open with (`commit`), if most share one."""
    words = Counter(
        m.group("word").lower()
        for r in found
        if r.opening and (m := _OPENING.match(r.opening)) is not None
    )
    if not words:
        return None
    word, count = words.most_common(1)[0]
    return word if count >= _SAME_OPENING * len(found) else None


def _rest(opening: str | None) -> str | None:
    match = _OPENING.match(opening or "")
    return match.group("rest").strip(" ,{>\"'") or None if match else None

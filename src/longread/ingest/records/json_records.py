"""JSON records: one JSON object a line (JSON Lines, NDJSON: event streams, exports), an array of
objects, or objects kept under their names in a map (`"develop": {"alabaster": {…}, …}` of a lock
file). Each object is a row, read by the standard library's decoder; each key held by a fifth of
the objects or more is a column (a nested object's keys as `outer.inner`, a list's items joined;
a mapped object's name is `name`). An object wrapping most of the text around a list of objects
(`{"4217": [{…}, …]}`), or one over several lines, named or the whole text, whose every field is
an object, is no record: its objects are.
The objects of each map make a table named by the map's key; a map too small for a table joins
the table whose objects have the same keys (`default`'s one package, `develop`'s forty), its key
then the row's `group`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from longread.ingest.records.kind import MIN_ROWS
from longread.ingest.records.table import Column, Table, build, identifier, keyed_columns

name = "json"
NOUNS = ("object", "record", "entry", "event", "item")
WHOLE = ("export", "dump", "feed", "stream")
_OPENS = re.compile(  # (a line opening an object, in a list or under a name)
    r'^[ \t]*(?:\[[ \t]*)?(?:(?P<name>"(?:[^"\\\n]|\\.){0,200}")[ \t]*:[ \t]*)?\{(?=\s*["}])',
    re.MULTILINE,
)  # (a key or nothing after the brace: roff's `\{`, code's blocks, are no object)
_DECODER = json.JSONDecoder()
WINDOW_CHARS = 65_536  # of the text a value is read from first
SAME_KEYS = 0.5  # of a small map's keys a table's columns must hold for it to join that table


@dataclass
class _Object:
    start: int
    end: int
    fields: dict[str, str]
    group: str | None  # the key of the map it is kept in (None: in a list, or a line of its own)


def detect(sample: str) -> bool:
    return len(_objects(sample, 3)) >= 3


def records(text: str, file_name: str) -> list[Table]:
    groups: dict[str | None, list[_Object]] = {}
    for found in _objects(text):
        groups.setdefault(found.group, []).append(found)
    tables = {group: rows for group, rows in groups.items() if len(rows) >= MIN_ROWS}
    for group, rows in groups.items():
        if group not in tables:
            joined = _same_keys(rows, tables)
            if joined is not None:
                tables[joined] += rows
    return [_table(group, rows) for group, rows in tables.items()]


def _same_keys(rows: list[_Object], tables: dict[str | None, list[_Object]]) -> str | None:
    """The map whose table a small map's objects join: one whose objects hold most of their keys."""
    keys = {k for row in rows for k in row.fields}
    for group, held in tables.items():
        theirs = {k for row in held for k in row.fields}
        if group is not None and keys and len(keys & theirs) >= SAME_KEYS * len(keys):
            return group
    return None


def _table(group: str | None, rows: list[_Object]) -> Table:
    rows = sorted(rows, key=lambda row: row.start)
    keys, columns = keyed_columns([row.fields for row in rows], [])
    cells = [(row.start, row.end, [row.fields.get(k) for k in keys]) for row in rows]
    groups = {row.group for row in rows}
    if len(groups) > 1:  # (maps joined: which each row was kept in)
        columns.append(Column(identifier("group", [c.name for c in columns]), aliases=("section",)))
        cells = [
            (s, e, [*values, row.group]) for (s, e, values), row in zip(cells, rows, strict=True)
        ]
    title = identifier(group) if group else name
    return build(title, name, columns, cells, NOUNS)


def _objects(text: str, enough: int | None = None) -> list[_Object]:
    """Each object opening a line, outside the objects before it (the first `enough` found, if
    given), with the key of the map it is kept in."""
    found: list[_Object] = []
    maps: list[tuple[int, str]] = []  # (end, key) of each map of objects read into
    end = 0
    first = len(text) - len(text.lstrip())  # (where the text's first value would start)
    for opening in _OPENS.finditer(text):
        start = opening.end() - 1
        if start < end:
            continue
        try:
            value, stop = _decoded(text, start)
            named = json.loads(opening["name"]) if opening["name"] else None
        except (ValueError, RecursionError):  # (no JSON, or nested past the decoder's depth)
            continue
        while maps and maps[-1][0] <= start:
            maps.pop()
        whole = start == first  # (the text's one value)
        mapped = _maps_objects(value) and "\n" in text[start:stop] and (named is not None or whole)
        wraps = 2 * (stop - start) > len(text) and _wraps_rows(value)
        if mapped or wraps:
            maps.append((stop, named or ""))  # (its objects are looked for inside it)
            continue
        end = stop
        if isinstance(value, dict) and value:
            fields = _flat(value)
            group = None
            if named is not None:
                fields = {"name": named, **fields} if "name" not in fields else fields
                group = maps[-1][1] if maps else ""
            found.append(_Object(start, end, fields, group))
            if enough is not None and len(found) >= enough:
                break
    return found


def _decoded(text: str, start: int) -> tuple[Any, int]:
    """The JSON value at `start` and where it ends, read from a window of the text first (a
    failed read costs the decoder a count of every line before it: over a long text of braces
    that open no object, roff's or code's, that was most of the time); ValueError if none."""
    window = text[start : start + WINDOW_CHARS]
    try:
        value, stop = _DECODER.raw_decode(window)
    except json.JSONDecodeError as error:
        cut = error.pos >= len(window) - 1 or error.msg.startswith("Unterminated")
        if len(window) < WINDOW_CHARS or not cut:
            raise  # (not cut short by the window: no JSON value)
        return _DECODER.raw_decode(text, start)
    return value, start + stop


def _maps_objects(value: Any) -> bool:
    """Whether every field of an object is an object (a map of records by name)."""
    return (
        isinstance(value, dict) and bool(value) and all(isinstance(v, dict) for v in value.values())
    )


def _wraps_rows(value: Any, depth: int = 3) -> bool:
    """Whether a value holds, in some field (of a field…), a list of MIN_ROWS objects or more."""
    if not isinstance(value, dict) or depth == 0:
        return False
    return any(
        isinstance(held, list)
        and sum(isinstance(x, dict) for x in held) >= MIN_ROWS
        or _wraps_rows(held, depth - 1)
        for held in value.values()
    )


def _flat(value: dict[str, Any]) -> dict[str, str]:
    """An object's fields as text: a nested object's by `outer.inner`, a list's items joined."""
    fields: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            for inner, held in item.items():
                if not isinstance(held, dict | list):
                    fields[f"{key}.{inner}"] = _text(held)
        elif isinstance(item, list):
            fields[key] = ", ".join(_text(x) for x in item if not isinstance(x, dict | list))
        elif item is not None:
            fields[key] = _text(item)
    return fields


def _text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)

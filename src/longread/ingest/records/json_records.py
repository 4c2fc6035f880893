"""JSON records: one JSON object a line (JSON Lines, NDJSON: event streams, exports) or an array of
objects. Each object is a row, read by the standard library's decoder; each key held by a fifth
of the objects or more is a column (a nested object's keys as `outer.inner`, a list's items
joined). An object wrapping most of the text around a list of objects (`{"4217": [{…}, …]}`) is
no record: the list's objects are."""

from __future__ import annotations

import json
import re
from typing import Any

from longread.ingest.records.kind import MIN_ROWS
from longread.ingest.records.table import Table, build, keyed_columns

name = "json"
NOUNS = ("object", "record", "entry", "event", "item")
WHOLE = ("export", "dump", "feed", "stream")
_OPENS = re.compile(r"^[ \t]*(?:\[[ \t]*)?\{", re.MULTILINE)  # (a line opening an object)
_DECODER = json.JSONDecoder()


def detect(sample: str) -> bool:
    return len(_objects(sample, 3)) >= 3


def records(text: str, file_name: str) -> list[Table]:
    found = _objects(text)
    if len(found) < MIN_ROWS:
        return []
    keys, columns = keyed_columns([fields for _, _, fields in found], [])
    cells = [(s, e, [fields.get(k) for k in keys]) for s, e, fields in found]
    return [build(name, name, columns, cells, NOUNS)]


def _objects(text: str, enough: int | None = None) -> list[tuple[int, int, dict[str, str]]]:
    """(start, end, fields) of each object opening a line, outside the objects before it (the
    first `enough` found, if given)."""
    found: list[tuple[int, int, dict[str, str]]] = []
    end = 0
    for opening in _OPENS.finditer(text):
        start = opening.end() - 1
        if start < end:
            continue
        try:
            value, stop = _DECODER.raw_decode(text, start)
        except ValueError:
            continue
        if 2 * (stop - start) > len(text) and _wraps_rows(value):
            continue  # (its objects are looked for inside it)
        end = stop
        if isinstance(value, dict) and value:
            found.append((start, end, _flat(value)))
            if enough is not None and len(found) >= enough:
                break
    return found


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

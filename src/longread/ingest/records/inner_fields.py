"""Fields written inside a record's text: `key=value` or `key: value` pairs (logfmt, a web server's
`client: 10.0.0.4, server: example.org`) that the text of many rows holds become columns of their
own, typed like any column (a key held by KEY_SHARE of the rows or more)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from statistics import median

from longread.ingest.records.cells import typed
from longread.ingest.records.kind import MIN_ROWS
from longread.ingest.records.table import KEY_SHARE, Role, Table, keyed_columns

_PAIR = re.compile(r"(?<![\w.@/-])([A-Za-z][\w.-]{0,30})(?:=|: )(\"[^\"\n]*\"|[^\s,;\"]+)")
SAMPLE_ROWS = 400  # rows whose text is looked at for recurring keys first
LINE_CHARS = 300  # texts longer than this, as a rule, are prose, not a line of fields


def with_inner_fields(table: Table) -> Table:
    """The table with a column for each key its one-line text column's values often hold."""
    body = next((n for n, c in enumerate(table.columns) if c.role is Role.BODY), None)
    if body is None or len(table) < MIN_ROWS:
        return table
    texts = table.values[body]
    step = max(1, len(texts) // SAMPLE_ROWS)
    sample = [t for t in texts[::step] if isinstance(t, str)]
    if not sample or any("\n" in t for t in sample) or median(map(len, sample)) > LINE_CHARS:
        return table  # (a message's body, a speech: prose)
    held = Counter(key for t in sample for key in {k for k, _ in _PAIR.findall(t)})
    if not any(n >= KEY_SHARE * len(sample) for n in held.values()):
        return table
    pairs = [dict(_PAIR.findall(t)) if isinstance(t, str) else {} for t in texts]
    keys, columns = keyed_columns([p.keys() for p in pairs], [c.name for c in table.columns])
    values = []
    for n, key in enumerate(keys):
        kind, typed_values = typed([_bare(p.get(key, "")) or None for p in pairs])
        columns[n] = replace(columns[n], type=kind)
        values.append(typed_values)
    return replace(table, columns=[*table.columns, *columns], values=[*table.values, *values])


def _bare(value: str) -> str:
    """A value without its quotes, or a bracket closing what the text opened before it
    (`(Closes: #1017791)`: `#1017791`)."""
    value = value.strip('"')
    while value[-1:] in (")", "]") and value.count(value[-1]) > value.count("(["[value[-1] == "]"]):
        value = value[:-1]
    return value

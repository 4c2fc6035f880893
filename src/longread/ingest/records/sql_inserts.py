"""Rows an SQL dump inserts: `INSERT INTO cars VALUES('Mazda RX4',21.0,…);`, a row or many to a
statement (`VALUES (…), (…);`), as SQLite's `.dump`, mysqldump and pg_dump's `--inserts` write
them. A table per table inserted into, its columns named by the statement's list of them or by
the dump's `CREATE TABLE`, each value read as an SQL literal (text in quotes, a quote doubled in
it; a number; NULL). The dump is read as text, never run."""

from __future__ import annotations

import re
from collections.abc import Iterator

from longread.ingest.records.table import Column, Table, build, identifier

name = "sql"
NOUNS = ("row", "record", "entry")
WHOLE = ("dump", "sql dump", "database dump")
_NAME = r"(?:[`\"\[]?\w+[`\"\]]?\.)?[`\"\[]?(\w+)[`\"\]]?"  # (a schema before it, quoted or not)
_INSERT = re.compile(
    rf"^[ \t]*INSERT[ \t]+(?:IGNORE[ \t]+)?INTO[ \t]+{_NAME}[ \t]*(?:\(([^)]*)\))?[ \t]*VALUES\s*",
    re.I | re.M,
)
_CREATE = re.compile(
    rf"CREATE[ \t]+TABLE[ \t]+(?:IF[ \t]+NOT[ \t]+EXISTS[ \t]+)?{_NAME}\s*\(", re.I
)
_LITERAL = re.compile(
    r"\s*(?:'((?:[^']|'')*)'|(NULL)\b|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
    r"|[xX]'([0-9A-Fa-f]*)'|(TRUE|FALSE)\b)\s*",
    re.I,
)
MAX_BODY_CHARS = 20_000  # a CREATE TABLE's body read at most (past it: no names declared)
_SEPARATOR = re.compile(r"\s*,\s*")
_CONSTRAINTS = frozenset("constraint primary unique foreign check key index".split())


def detect(sample: str) -> bool:
    return _INSERT.search(sample) is not None


def records(text: str, file_name: str) -> list[Table]:
    declared = {m[1].lower(): _declared(text, m.end()) for m in _CREATE.finditer(text)}
    found: dict[str, tuple[list[str], list[tuple[int, int, list[str | None]]]]] = {}
    for statement in _INSERT.finditer(text):
        table = statement[1]
        listed = [_unquoted(c) for c in statement[2].split(",")] if statement[2] else None
        for start, end, row in _rows(text, statement.end()):
            columns = listed or declared.get(table.lower()) or []
            if len(columns) != len(row):
                columns = [f"column_{n}" for n in range(1, len(row) + 1)]
            held = found.setdefault(table, (columns, []))
            if held[0] == columns:
                held[1].append((start, end, row))
    return [
        build(identifier(table), name, [Column(c) for c in columns], cells, NOUNS, marked=True)
        for table, (columns, cells) in found.items()
    ]


def _rows(text: str, at: int) -> Iterator[tuple[int, int, list[str | None]]]:
    """The rows of one statement's VALUES from `at`, each with its span: `(…)`, `, (…)`…, until
    the statement ends or a row cannot be read."""
    while at < len(text) and text[at] == "(":
        start, at = at, at + 1
        row: list[str | None] = []
        while (value := _LITERAL.match(text, at)) is not None:
            row.append(_value(value))
            at = value.end()
            if at < len(text) and text[at] == ",":
                at += 1
                continue
            break
        if at >= len(text) or text[at] != ")":
            return
        yield start, at + 1, row
        separator = _SEPARATOR.match(text, at + 1)
        if separator is None:
            return
        at = separator.end()


def _value(literal: re.Match[str]) -> str | None:
    quoted, null, number, hexadecimal, truth = literal.groups()
    if quoted is not None:
        return quoted.replace("''", "'")
    return None if null else number or hexadecimal or truth


def _declared(text: str, at: int) -> list[str]:
    """The column names a CREATE TABLE's body declares from `at` (after its opening bracket):
    each definition's first word, the table's constraints left out."""
    depth, start, names = 0, at, []
    for where in range(at, min(len(text), at + MAX_BODY_CHARS)):
        char = text[where]
        if char == "(":
            depth += 1
        elif char in ",)" and depth == 0:
            words = text[start:where].split()
            if words and words[0].lower() not in _CONSTRAINTS:
                names.append(_unquoted(words[0]))
            if char == ")":
                return names
            start = where + 1
        elif char == ")":
            depth -= 1
    return []


def _unquoted(name: str) -> str:
    return name.strip().strip('`"[]')

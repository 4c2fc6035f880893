"""How the general finder's columns are named: by the constant word before a slot (`port 22`
is `port`), by the header line above the records, else by the slot's shape; a code column of
versions is `version`."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from longread.ingest.records.table import Column, Role, identifier

if TYPE_CHECKING:
    from longread.ingest.records.template import Template

_DEFAULT_NAMES = {
    "d": "date",
    "n": "name",
    "@": "email",
    "9": "number",
    "a": "field",  # (a word of no known meaning: not to be taken for words counted)
    "A": "term",
    "m": "code",
}

_VERSION = re.compile(r"(?:\d+:)?\d+(?:\.\d+)+(?:[-+~][\w.+~-]+)?")


def versions(headers: list[Column], cells: list[tuple[int, int, list[str | None]]]) -> list[Column]:
    """A code column whose values read as versions (`2.39.5-0+deb12u3`) named `version`."""
    named = []
    for at, column in enumerate(headers):
        values = [row[at] for _, _, row in cells if row[at]]
        versions = sum(1 for v in values if v and _VERSION.fullmatch(v))
        if column.name == "code" and values and versions >= 0.8 * len(values):
            column = Column("version", column.type, column.role, column.aliases)
        named.append(column)
    return named


def column(shape: str, title: str) -> Column:
    role = {"n": Role.WHO, "@": Role.WHO, "d": Role.WHEN}.get(shape, Role.NONE)
    return Column(title, role=role)


def unique(columns: list[Column]) -> list[Column]:
    taken: list[str] = []
    unique = []
    for column in columns:
        column_name = identifier(column.name, taken)
        taken.append(column_name)
        unique.append(Column(column_name, column.type, column.role, column.aliases))
    return unique


def names(template: Template, text: str, first: int) -> dict[int, str]:
    """Each slot's column name: the constant word just before it (`port` in `port 22`), else the
    header line's word above the first record, else its shape's name."""
    names: dict[int, str] = {}
    header = _header(text, first, len(template.slots)) if first >= 0 else None
    for n, i in enumerate(template.slots):
        word = _key(template, i)
        if word is not None and word.lower() not in names.values():
            names[i] = word.lower()
        elif header is not None:
            names[i] = header[n]
        elif between_marks(template, i) and "term" not in names.values():
            names[i] = "term"  # (`**Load balancer**`, `:chad box:`: a glossary's terms)
        else:
            names[i] = _DEFAULT_NAMES.get(template.shapes[i], "value")
    return names


def between_marks(template: Template, slot: int) -> bool:
    """Whether a slot stands between the same mark on both sides (`:term:`, `**term**`)."""
    marks = template.constant
    if not 0 < slot < len(marks) - 1:
        return False
    before, after = marks[slot - 1], marks[slot + 1]
    return before is not None and before == after and not before.isalnum()


def _key(template: Template, slot: int) -> str | None:
    """The constant word naming a slot: just before it and spaced from it (`port 22`), or with a
    `:` or `=` between (`urgency=medium`)."""
    before = template.constant[max(0, slot - 2) : slot]
    if len(before) == 2 and before[1] in (":", "=") and (before[0] or "")[:1].isalpha():
        return before[0]
    last = before[-1] if before else None
    if last is not None and last[:1].isalpha() and template.spaced[slot]:
        return last
    return None


def _header(text: str, first: int, count: int) -> list[str] | None:
    """The words of the line just above the first record, or of its last parenthesis, if they
    name `count` columns (words only, one for each)."""
    above = text.rfind("\n", 0, max(0, first - 1))
    line = text[above + 1 : max(0, first - 1)].strip()
    inner = re.search(r"\(([^()]+)\)[^()]*$", line)  # (`CREATE TABLE t (id INT, name TEXT);`)
    for named in (line, inner.group(1) if inner else ""):
        words = [w for w in re.split(r"\s{2,}|\t|\s*\|\s*|,\s*", named) if w] if named else []
        if len(words) >= count and all(re.fullmatch(r"[A-Za-z][\w .-]{0,30}", w) for w in words):
            return [w.lower() for w in _without_kinds(words[:count])]
    return None


def _without_kinds(names: list[str]) -> list[str]:
    """Header names whose last words repeat, as a column's kind does (`id INT, name TEXT, dept
    TEXT`), without them (`id`, `name`, `dept`)."""
    parts = [name.split() for name in names]
    if len(parts) < 2 or any(len(p) < 2 for p in parts):
        return names
    lasts = Counter(p[-1].lower() for p in parts)
    if len(lasts) == len(parts):
        return names
    return [" ".join(p[:-1]) for p in parts]

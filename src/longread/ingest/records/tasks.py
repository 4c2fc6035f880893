"""Tasks: the items of a checklist (`- [ ] text`, `- [x] text`, numbered or starred alike, as in
Markdown and its dialects) and Org mode's headlines with a keyword (`** TODO text`, `* DONE text`).
A task's status is `done` (checked; Org's DONE) or `open` (unchecked; Org's TODO and the like,
its keyword kept), who it is for the first `@name` it holds, and its text the rest."""

from __future__ import annotations

import re

from longread.ingest.records.cells import ColumnType
from longread.ingest.records.kind import MIN_ROWS, LinePattern
from longread.ingest.records.table import Column, Role, Table, build

name = "task"
NOUNS = ("task", "item", "to-do", "todo", "entry")
WHOLE = ("checklist", "to-do list", "todo list", "task list", "board", "list")
_BOX = LinePattern(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+\[(?P<mark>[ xX✓✔-])\][ \t]+(?P<text>[^\n]*)")
_ORG = LinePattern(r"\*+[ \t]+(?P<keyword>TODO|DONE|NEXT|WAITING|CANCELL?ED)[ \t]+(?P<text>[^\n]*)")
_WHO = re.compile(r"(?<![\w@])@[\w.-]*\w")
_COLUMNS = (
    Column("status", aliases=("state",)),
    Column("who", role=Role.WHO, aliases=("assignee", "owner", "person")),
    Column("text", ColumnType.TEXT, Role.BODY, aliases=("task", "description")),
)
_DONE = {"x", "X", "✓", "✔", "DONE"}


def detect(sample: str) -> bool:
    return _BOX.count(sample, 0, 200_000) >= 2 or _ORG.count(sample, 0, 200_000) >= 2


def records(text: str, file_name: str) -> list[Table]:
    cells = []
    for form, key in ((_BOX, "mark"), (_ORG, "keyword")):
        for at, match in form.finditer(text):
            mark, said = match[key], match["text"].strip()
            status = "done" if mark in _DONE else "open" if key == "mark" else mark.lower()
            who = _WHO.search(said)
            cells.append((at, match.end(), (status, who[0] if who else None, said)))
    if len(cells) < MIN_ROWS:
        return []
    return [build(name, name, list(_COLUMNS), sorted(cells), NOUNS, marked=True)]

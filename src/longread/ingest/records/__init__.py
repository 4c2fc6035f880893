"""Records found in a document's text, as tables: the registered kinds (one module each, tried in
order, a later kind kept off the spans an earlier one read), then the general finder of
templates over the lines no kind took, then the items of lists (with the key of the entry
holding them, if one does); fields written inside
a record's text are columns too."""

from __future__ import annotations

from collections.abc import Sequence

from longread.ingest.records import (
    aligned,
    dialogue,
    json_records,
    keyed_lines,
    leveled,
    list_items,
    log_lines,
    messages,
    outline,
    parted,
    sql_inserts,
    stanzas,
    tables,
    tasks,
    template,
    worded_lines,
    xml_records,
)
from longread.ingest.records.entry_items import keyed
from longread.ingest.records.inner_fields import with_inner_fields
from longread.ingest.records.kind import MIN_ROWS, Kind, Taken
from longread.ingest.records.table import Table

KINDS: tuple[Kind, ...] = (
    xml_records,
    messages,
    json_records,
    sql_inserts,
    log_lines,
    leveled,
    stanzas,
    keyed_lines,
    tables,
    aligned,
    tasks,
    dialogue,
    parted,
    outline,
    worded_lines,
)
GENERIC = frozenset(  # of no named kind
    (
        "template",
        tables.name,
        keyed_lines.name,
        leveled.name,
        outline.name,
        parted.name,
        json_records.name,
        sql_inserts.name,
        stanzas.name,
        xml_records.name,
        worded_lines.name,
        list_items.name,
    )
)
WHOLE = {kind.name: kind.WHOLE for kind in KINDS}  # what a document of each kind is called
WHOLE_CHARS = 8_000_000  # a longer text is tested for each kind on samples
_PIECE = 65_536
_PIECES = 16


def find_tables(
    text: str,
    file_name: str = "",
    headings: Sequence[tuple[int, int]] = (),
    numbered: Sequence[tuple[int, int]] = (),
) -> list[Table]:
    """The records of every kind the text holds, then those of the templates its other lines
    repeat (heading lines, [start, end) in `headings`, are none; nor, for a kind that says so,
    the lines of numbered headings, `SCENE II. A room.`, in `numbered`); tables of fewer than
    MIN_ROWS rows are left out, unless the text marks them as records (a table's rule, mail
    headers)."""
    sample = _sample(text)
    taken, headed = Taken(), Taken()
    headed.extend(numbered)
    found: list[Table] = []

    def take(kind: object, tables: list[Table]) -> None:
        """Keep the kind's tables, off the spans taken before, and take theirs."""
        before = len(found)
        unheaded = getattr(kind, "UNHEADED", False)
        for table in tables:
            if taken.spans or unheaded and headed.spans:
                table = table.kept(
                    [
                        not taken.overlaps(s, e) and not (unheaded and headed.overlaps(s, s + 1))
                        for s, e in zip(table.starts, table.ends, strict=True)
                    ]
                )
            if len(table) >= MIN_ROWS or (len(table) and table.marked):
                found.append(table)
                taken.extend(zip(table.starts, table.ends, strict=True))
        if len(found) > before and getattr(kind, "TAKES_ALL", False):
            taken.extend([(0, len(text))])  # (the rest of the text is its records' markup)

    for kind in KINDS:
        if kind.detect(sample):
            take(kind, kind.records(text, file_name))
    taken.extend(headings)
    take(template, template.find(text, taken, file_name))
    if list_items.detect(sample):  # (last: items an entry holds are given its key)
        for items in list_items.records(text, file_name):
            table = keyed(items, found, taken)
            if len(table) >= MIN_ROWS:
                found.append(table)
                taken.extend(zip(table.starts, table.ends, strict=True))
    return [with_inner_fields(table) for table in found]


def _sample(text: str) -> str:
    """The text, or (past WHOLE_CHARS) its first piece and others spread over it."""
    if len(text) <= WHOLE_CHARS:
        return text
    step = len(text) // _PIECES
    return "\n".join(text[at : at + _PIECE] for at in range(0, len(text), step))

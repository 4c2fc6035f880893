"""Filters a question puts on the words of a row: rows that say a word (`How many verses mention
Boaz?`) and values that begin with letters (`How many entries begin with Z?`)."""

from __future__ import annotations

import re

from longread.query import cues
from longread.query.catalog import CatalogTable
from longread.query.plan import Filter, Plan, Test
from longread.query.reading import Reading, label, role
from longread.query.truth import told_true

_BEGINNING = re.compile(
    r"\b(?:begins?|beginning|starts?|starting|opens?|opening)\s+with\s+(?:the\s+)?"
    r"(?:(?:letters?|prefix|characters?|word)\s+)?[\"“‘']?([^\W_][\w-]*)",
    re.I,
)


def worded(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan with the filters the question's wording puts on its rows' words."""
    return told_true(_beginning(_rows_saying(plan, reading, table), reading, table), reading, table)


def _rows_saying(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan counting the rows whose text holds the word, where what is counted is rows that
    say it (`How many verses mention Boaz?`: verses, not mentions; `How many times…`: mentions)."""
    body = role(table, "body")
    if reading.term is None or reading.counted is None or body is None:
        return plan
    if cues.occurrences(reading.asked) or reading.term[1] <= reading.counted[1]:
        return plan
    saying = Filter(body, Test.MENTIONS, (reading.term[0],))
    return plan.with_(term=None, filters=(*plan.filters, saying))


def _beginning(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan keeping the rows whose first text value begins with what the question says they
    begin with (as written, in capitals or in small letters)."""
    found = _BEGINNING.search(reading.asked)
    if found is None:
        return plan
    named = [  # (`whose title begins with`: that column; else the rows' label)
        lk.column
        for lk in reading.own(table)
        if lk.what == "column" and lk.table == table.name and lk.end <= found.start()
    ]
    column = named[-1] if named else label(table)
    if column is None:
        return plan
    start = found.group(1)
    forms = tuple(dict.fromkeys((start, start.upper(), start.lower(), start.capitalize())))
    return plan.with_(filters=(*plan.filters, Filter(column, Test.PREFIX, forms)))

"""What a question's wording keeps of the rows it counts, beyond the values it names: rows that
say a word (`How many verses mention Boaz?`), rows that hold a field (`have an Install line`,
`upgraded`), values that begin with letters (`…begin with Z?`), a word put in a column (`HOWTO in
the subject`), a yes-or-no column (`are enabled`), documents that hold the records their name
says (`How many plays…`), and what a share is of (`What percentage of 404 requests…`)."""

from __future__ import annotations

import re

from longread.ingest.records import WHOLE
from longread.query.core.catalog import CatalogTable
from longread.query.core.plan import Filter, Operation, Plan, Test
from longread.query.readers.rules import cues
from longread.query.readers.rules.reading import Reading, label, role
from longread.query.readers.rules.truth import told_true
from longread.store.record_tables import quoted
from longread.text.rank import terms

_BEGINNING = re.compile(
    r"\b(?:begins?|beginning|starts?|starting|opens?|opening)\s+with\s+(?:the\s+)?"
    r"(?:(?:letters?|prefix|characters?|word)\s+)?[\"“‘']?([^\W_][\w-]*)",
    re.I,
)


def worded(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan with the filters the question's wording puts on its rows' words."""
    readers = (_having, _done, _in_column, _rows_saying, _beginning, told_true, _of_kind, _share_of)
    for reads in readers:
        plan = reads(plan, reading, table)
    return plan


def _share_of(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """A share's plan with what it is a share of: the filters the words right after `percentage
    of` name (`of error lines from web1`: the errors; the rest says which of them are counted)."""
    start = cues.share_of(reading.asked)
    if plan.operation is not Operation.SHARE or start is None:
        return plan
    links = reading.own(table)
    leading = []
    for word in re.finditer(r"[\w'’-]+", reading.asked[start:]):
        at = start + word.start()
        covering = [lk for lk in links if lk.start <= at < lk.end]
        if not covering and word.group().lower() not in _ALONG:
            break
        leading += [(lk.column, v) for lk in covering if lk.what == "value" for v in lk.value]
    whole = tuple(f for f in plan.filters if any((f.column, v) in leading for v in f.values))
    return plan.with_(whole=whole)


def _rows_saying(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan counting the rows whose text holds the word, where what is counted is rows that
    say it (`How many verses mention Boaz?`: verses, not mentions; `How many times…`: mentions)."""
    body = role(table, "body")
    if reading.term is None or reading.counted is None:
        return plan
    if cues.occurrences(reading.asked) or reading.term[1] <= reading.counted[1]:
        return plan
    if any(f.test is Test.MENTIONS and reading.term[0] in f.values for f in plan.filters):
        return plan.with_(term=None)  # (`mention security in their category`: said there)
    if body is None:
        return plan
    said = Filter(body, Test.SAYS, (reading.term[0],), also=_saying(reading, table, body))
    return plan.with_(term=None, filters=(*plan.filters, said))


def _saying(reading: Reading, table: CatalogTable, body: str) -> tuple[str, ...]:
    """The columns beside its text a row says a word in: those of text that name no one, no
    time and no place, where most rows hold a value of their own (a dictionary's word, a mail's
    subject; not who sent it, nor the act a speech is in, nor a log's host: a value the question
    would name as one)."""
    catalog = reading.catalog
    return tuple(
        c.name
        for c in table.columns
        if c.type == "text"
        and not c.role
        and c.name not in (body, "document")
        and (
            not catalog.listed(table.name, c.name)
            or len(catalog.values(table.name, c.name)) >= OWN_SHARE * table.rows
        )
    )


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


_HAVING = re.compile(
    r"\b(?:(?P<lacking>without|lacks?|lacking|missing)|ha(?:ve|s|ving)|with)\s+"
    r"(?:(?P<no>no)\s+|(?:an?|any|some|the)\s+)?$",
    re.I,
)


def _having(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan keeping the rows that hold a value in a column the question says they have
    (`runs that have an Install line`, `packages with a homepage`), or hold none (`without a
    homepage`, `with no maintainer`); a value of another column read in the column's name is
    no filter (`install` of a command line)."""
    if plan.operation is not Operation.COUNT:
        return plan
    own = reading.own(table)
    held = {  # (where a column's name ends: what the question says it holds)
        lk.end: m.span(1)
        for lk in own
        if lk.what == "column" and (m := _held_after(reading.asked, lk.end))
    }
    for found in own:
        if any(start <= found.start < end for start, end in held.values()):
            continue  # (`a Commandline with apt-get install`: what a column holds, no field had)
        said = _HAVING.search(reading.asked[: found.start]) if found.what == "column" else None
        if said is None or table.column(found.column or "") is None or found.column == plan.column:
            continue
        if found.end in held:
            return plan  # (`a subject containing HOWTO`: what it holds, `_in_column`'s)
        test = Test.EMPTY if said.group("lacking") or said.group("no") else Test.FILLED
        read_in = {
            (lk.column, v)
            for lk in reading.links
            if lk.what == "value" and lk.start < found.end and found.start < lk.end
            for v in lk.value
        }
        kept = [f for f in plan.filters if not any((f.column, v) in read_in for v in f.values)]
        return plan.with_(filters=(*kept, Filter(found.column or "", test, ())))
    return plan


def _done(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan keeping the rows that hold a value in a column the question names by the verb
    made of its name (`runs that upgraded packages`: those with an Upgrade field), where some rows
    hold none (a column every row fills says nothing of which rows did it)."""
    if plan.operation is not Operation.COUNT:
        return plan
    named = {c.name.lower(): c.name for c in table.columns if c.name != plan.column}
    for word in _PAST.findall(reading.asked):
        lowered = word.lower()
        column = named.get(lowered[:-1]) or named.get(lowered[:-2])
        if column is None or any(f.column == column for f in plan.filters):
            continue
        if 0 < reading.catalog.filled(table.name, column) < table.rows:
            return plan.with_(filters=(*plan.filters, Filter(column, Test.FILLED, ())))
    return plan


_PAST = re.compile(r"\b[a-z]{3,}ed\b", re.I)
_ALONG = frozenset("the all a an in on at from during of for with within".split())  # (in a whole)
MAX_NAMED = 30_000  # documents a filter lists at most
OWN_SHARE = 0.5  # of a table's rows that must hold values of their own for a word to be said there


def _of_kind(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan counting documents kept to those holding the records their name says they are
    (`How many plays…` of a folder: the documents holding dialogue, not its README)."""
    if table.name != "documents" or reading.counted is None:
        return plan
    start = reading.counted[1]
    said = {lk.value for lk in reading.links if lk.what == "noun" and lk.start == start}
    kinds = [kind for kind, wholes in WHOLE.items() if said & set(wholes)]
    holding = [t for t in reading.catalog.tables.values() if set(t.kinds) & set(kinds)]
    if not holding:
        return plan
    sql = " UNION ".join(f"SELECT DISTINCT document FROM {quoted(t.name)}" for t in holding)
    found = reading.catalog.query.execute
    rows = reading.catalog.computed(sql, lambda: found(sql, max_rows=MAX_NAMED + 1).rows)
    held = tuple(sorted(str(d) for (d,) in rows))
    if len(held) >= len(reading.catalog.documents) or len(held) > MAX_NAMED:
        return plan
    return plan.with_(filters=(*plan.filters, Filter("document", Test.IN, held)))


_IN_IT = re.compile(r"[\"“‘']?([^\s\"”’']+)[\"”’']?\s+in\s+(?:the|its|their|a|an)\s+$", re.I)
_HOLDS = re.compile(
    r"\s+(?:contains?|containing|includes?|including)\s+"
    r"(?:the\s+word\s+)?[\"“‘']?([^\s\"”’'?.,]+)",
    re.I,
)


_WITH = re.compile(  # (not `with the most`, `with a homepage`: a rank, a field had)
    r"\s+with\s+(?!(?:an?|the|no|any|some|more|less|most|fewest|fewer|least|over|under|at)\b)"
    r"[\"“‘']?([^\"”’'?,;]+?)[\"”’']?\s*(?:[?,;]|\.(?!\w)|$)",
    re.I,
)


def _held_after(asked: str, at: int) -> re.Match[str] | None:
    """What the question says a column holds, written right after its name (`a subject
    containing HOWTO`, `a Commandline with apt-get install`: group 1), if it says so."""
    return _HOLDS.match(asked, at) or _WITH.match(asked, at)


def _in_column(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """The plan keeping the rows whose text column holds a word the question puts in it
    (`HOWTO in the subject`, `a subject containing HOWTO`)."""
    for found in reading.own(table):
        column = table.column(found.column or "") if found.what == "column" else None
        naming = reading.asked[found.start : found.end].lower()
        if (
            column is None
            or column.type != "text"
            or naming in ("who", "whom", "whose", "what", "which")  # (`Who mentions Duncan…`)
            or any(f.column == column.name for f in plan.filters)
        ):
            continue
        said = _IN_IT.search(reading.asked[: found.start]) or _held_after(reading.asked, found.end)
        word = said.group(1) if said is not None else None
        if word and terms(word):
            held = Filter(column.name, Test.MENTIONS, (word,))
            return plan.with_(filters=(*plan.filters, held))
    return plan

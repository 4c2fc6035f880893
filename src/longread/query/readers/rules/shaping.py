"""What a plan computes, read by the rules once its table, filters and group are known: a
number column summed or ranked, a column counted distinct, rows; bounds on a number column; the
operation fitted to what is counted; and a word counted over the whole text."""

from __future__ import annotations

import re

from longread.query.core.catalog import Catalog, CatalogTable
from longread.query.core.plan import MEASURED, TEXT, Filter, Inner, Operation, Plan, Shape, Test
from longread.query.readers.rules import cues
from longread.query.readers.rules.links import Link
from longread.query.readers.rules.listing import tally
from longread.query.readers.rules.reading import (
    DOCUMENT,
    LENGTH_WORDS,
    LENGTHS,
    MAXIMAL,
    TIMES,
    Reading,
    document_column,
    label,
    names_documents,
    role,
)


def measure(
    reading: Reading, table: CatalogTable, kept: list[Link], used: set[str | None]
) -> tuple[str | None, Inner]:
    """What is computed: a number column the question names (summed for `the most`, its largest
    value for `the largest`), a column counted distinct (`how many characters`), or rows."""
    said = {w.lower() for w in re.findall(r"[\w'’-]+", reading.asked)}
    numbered = bool(re.search(r"\b(?:number|count|amount)\s+of\b", reading.asked, re.I))
    maximal = (  # (not `the smallest number of`, nor `the largest total`)
        bool((MAXIMAL | LENGTH_WORDS) & said)
        and not numbered
        and not cues.asks_total(reading.asked)
    )
    least = reading.operation is Operation.ARGMIN
    ranked = (Inner.MIN if least else Inner.MAX) if maximal else Inner.SUM
    at = reading.at(kept, reading.counted)
    columns = [lk for lk in at if lk.what == "column"]  # (`cast of speaking characters`)
    first = columns[0] if columns else at[0] if at else None
    if first is not None and first.what == "column" and first.column not in used:
        column = table.column(first.column or "")
        if (
            column is not None
            and column.type == "number"
            and not _identifies(reading, table, column.name)
        ):
            return column.name, ranked
        if column is not None and column.role == "body" and reading.operation is not DISTINCT:
            return None, Inner.COUNT  # (`How many instances…` of an `Instance` text: its rows)
        if column is not None:
            return column.name, Inner.DISTINCT
    by_rows = [w for w, _ in cues.groups(reading.asked, which=False)]
    nouns = [lk for lk in kept if lk.what == "noun"]
    if any(lk.value in w or w in lk.value for w in by_rows for lk in nouns):
        return None, Inner.COUNT  # (`by speeches`: the rows counted)
    counted_words = reading.counted[0].split() if reading.counted else []
    if (
        reading.counted is not None
        and counted_words
        and table.name != "documents"
        and names_documents(reading, reading.counted[1], reading.counted[1] + len(counted_words[0]))
    ):
        reading.noun = counted_words[0].lower()
        return document_column(table, reading.catalog), Inner.DISTINCT
    sums = reading.operation in MEASURED or cues.asks_total(reading.asked)
    hidden = reading.own(table) if sums else []  # (`total revenue` of revenue.csv: the file's too)
    for found in [*kept, *hidden]:
        column = table.column(found.column or "") if found.what == "column" else None
        if column is not None and column.type == "number" and column.name not in used:
            return column.name, ranked
    amounts = [c.name for c in table.columns if c.type == "number" and c.name not in used]
    if sums and len(amounts) == 1 and not _identifies(reading, table, amounts[0]):
        return amounts[0], ranked  # (`the highest total spending`: the one amount there is)
    counts = [c for c in tally(reading.catalog, table) if c not in used]
    ranks = reading.operation in (Operation.ARGMAX, Operation.ARGMIN)
    asks = sums or ranks or any(lk.what == "value" for lk in kept)  # (not `How many… listed`)
    named = reading.at([lk for lk in kept if lk.what != "value"], reading.counted)
    rows = reading.at([lk for lk in reading.links if lk.what == "noun"], reading.counted)
    if counts and asks and not named and not rows:  # (`How many of the files…`: rows, by name)
        return counts[0], ranked  # (`the most commits` of `   339\tAlan Turing`: its count)
    if maximal and (first is None or first.what == "noun" or first.column in used):
        sizes = [c.name for c in table.columns if c.type == "number"]
        for name in [n for n in LENGTHS if n in sizes] or (sizes if len(sizes) == 1 else []):
            return name, Inner.MIN if least else Inner.MAX  # (`the largest package`: its size)
    return None, Inner.COUNT


def _identifies(reading: Reading, table: CatalogTable, column: str) -> bool:
    """Whether a number column names its rows (an account's number: each row its own) or
    codes them (an area code: whole numbers all of CODE_DIGITS digits or more, and of one
    width), so counting it counts them rather than adding it up."""
    if reading.operation is not Operation.COUNT:
        return False
    values = reading.catalog.values(table.name, column)
    whole = all(isinstance(v, int) or float(v).is_integer() for v, _ in values)
    widths = {len(str(int(v))) for v, _ in values} if whole else set()
    coded = len(widths) == 1 and min(widths) >= CODE_DIGITS
    return whole and len(values) >= 3 and (len(values) == table.rows or coded)


CODE_DIGITS = 3  # a column of whole numbers of one width, this wide or wider, codes its rows


DISTINCT = Operation.DISTINCT


def shaped(plan: Plan, reading: Reading, table: CatalogTable, kept: list[Link]) -> Plan:
    """The plan's operation fitted to what it counts and groups."""
    plan = _sections_ranked(plan, reading, table)
    operation = plan.operation
    times = cues.exactly(reading.asked)
    if times is not None and plan.inner is Inner.DISTINCT and plan.column:
        counted = reading.counted[0].split()[0].lower() if reading.counted else plan.noun
        return plan.with_(
            operation=Operation.DISTINCT, group_by=plan.column, column=None,
            inner=Inner.COUNT, having=(Test.IN, float(times)), noun=counted,
        )  # fmt: skip
    if operation is Operation.NTH:
        when = role(table, "when")
        rank = -1 if cues.last(reading.asked) else 1
        return plan.with_(rank=rank, column=when, group_by=None, inner=Inner.COUNT)
    if operation in (Operation.ARGMAX, Operation.ARGMIN) and plan.group_by is None:
        if plan.column and plan.inner in (Inner.MAX, Inner.MIN, Inner.SUM):
            return plan.with_(
                operation=Operation.MAX if operation is Operation.ARGMAX else Operation.MIN
            )
        return plan.with_(shape=Shape.FACT, notes=("nothing to rank by",))
    if (
        operation in (Operation.COUNT, Operation.DISTINCT)
        and plan.inner is Inner.DISTINCT
        and (plan.group_by is None or operation is Operation.DISTINCT)
    ):
        return plan.with_(operation=Operation.DISTINCT, group_by=plan.column, column=None)
    if operation is Operation.COUNT and plan.column and plan.inner is Inner.SUM and not plan.term:
        return plan.with_(operation=Operation.SUM, group_by=None)
    if operation in (Operation.LIST, Operation.DISTINCT) and plan.group_by is None:
        return plan.with_(group_by=plan.column or role(table, "who") or label(table), column=None)
    column = table.column(plan.column or "")
    if operation in MEASURED and (column is None or column.type != "number"):
        return plan.with_(shape=Shape.FACT, notes=("nothing to add up",))
    if operation in MEASURED and plan.group_by and not plan.compared:
        return plan.with_(group_by=None)
    return plan


def _sections_ranked(plan: Plan, reading: Reading, table: CatalogTable) -> Plan:
    """A kind of section ranked by its own size (`Which act is the longest?`): the sections of
    that kind, each by its title, not the sections under each act."""
    kind = table.column("kind")
    if table.name != "sections" or kind is None or plan.group_by in (None, "title", DOCUMENT):
        return plan
    if any(f.column == "kind" for f in plan.filters) or plan.inner not in (Inner.MAX, Inner.MIN):
        return plan
    kinds = {str(v) for v, _ in reading.catalog.values(table.name, "kind")}
    if plan.group_by not in kinds:
        return plan
    return plan.with_(
        group_by="title", filters=(*plan.filters, Filter("kind", Test.IN, (plan.group_by,)))
    )


def bounds(reading: Reading, table: CatalogTable, kept: list[Link]) -> list[Filter] | None:
    """Each bound (`longer than 10 lines`, `over 4000`) on the number column named nearest to
    it, else on the table's one number or date column (a date before a year); None if neither
    is."""
    numbers = [
        lk
        for lk in kept
        if lk.what == "column"
        and (c := table.column(lk.column or "")) is not None
        and c.type == "number"
    ]
    measured = [c for c in table.columns if c.type in ("number", "date") and c.role != "section"]
    filters = []
    for bound in cues.bounds(reading.asked):
        if not numbers and len(measured) == 1:  # (`published before 1900`: the one measure)
            column = measured[0]
            year = str(int(bound.number)) if column.type == "date" else bound.number
            filters.append(Filter(column.name, bound.test, (year,)))
            continue
        if not numbers:
            return None
        near = min(
            numbers, key=lambda lk: min(abs(lk.start - bound.end), abs(bound.start - lk.end))
        )
        filters.append(Filter(near.column or "", bound.test, (bound.number,)))
    return filters


def ranked_measure(reading: Reading, table: CatalogTable, found: Link) -> bool:
    """Whether a number column follows a superlative (`the largest body mass`): what is ranked,
    not what groups."""
    column = table.column(found.column or "")
    before = reading.asked[: found.start].lower().split()[-2:]
    return column is not None and column.type == "number" and bool(MAXIMAL & set(before))


def text_plan(reading: Reading) -> Plan:
    """A word's mentions over the whole text: counted, or the documents or sections holding it
    (`Which plays mention Rome?`, `In how many acts does 'crown' appear?`)."""
    operation = reading.operation
    group = None
    for words, start in cues.groups(reading.asked):
        if names_documents(reading, start, start + len(words)):
            group = DOCUMENT
        group = _section_word(words, reading.catalog) or group
    counted = reading.counted
    noun = None
    if counted is not None and counted[0].split()[0].lower() not in TIMES:
        first = counted[0].split()[0]
        if names_documents(reading, counted[1], counted[1] + len(first)):
            group = DOCUMENT
        group = _section_word(counted[0], reading.catalog) or group
        if group is not None and operation is Operation.COUNT:
            operation, noun = Operation.DISTINCT, first.lower()
    if group is None and operation in (Operation.LIST, Operation.ARGMAX, Operation.ARGMIN):
        group = DOCUMENT
    term = reading.term[0] if reading.term else None
    return Plan(
        reading.question,
        Shape.AGGREGATE,
        operation,
        TEXT,
        None,
        term,
        (),
        group,
        noun=noun,
        words=reading.words,
    )


def _section_word(words: str, catalog: Catalog) -> str | None:
    """The kind of section a noun names (`acts` → act), if the source's sections have it."""
    noun = words.split()[0].lower()
    sections = catalog.tables.get("sections")
    if sections is None:
        return None
    for column in sections.columns:
        if column.name in (noun, noun.rstrip("s")) and column.name not in ("title", "kind"):
            return column.name
    return None

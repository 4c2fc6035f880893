"""The rules' reading of a question into a plan, for models too small to fill one: the question's
own words say the operation (cues), the source's tables say what its nouns and names are
(links). The record table the question names best is counted; the values it names are filters;
what follows `which`, `per` or `who` is grouped by; what follows `how many` or `the most` is what
is counted (rows, a number column summed, a column's distinct values)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from longread.query import cues
from longread.query.catalog import Catalog, CatalogTable
from longread.query.execute import matched_rows
from longread.query.links import STRUCTURAL, Link, link
from longread.query.plan import TEXT, Filter, Inner, Operation, Plan, Shape, Test
from longread.text.rank import terms

_MAXIMAL = frozenset(
    "longest shortest largest highest greatest biggest maximum smallest lowest minimum top "
    "heaviest lightest".split()
)
_LENGTHS = ("lines", "words", "chars", "length", "duration", "size")
_TIMES = frozenset("time times occurrence occurrences mention mentions".split())
_NOT_NOUNS = frozenset("of the a an is are was were do does did has have had one".split())
DOCUMENT = "document"
MAX_READINGS = 16  # combinations of a name's columns tried for one that holds rows


@dataclass
class Reading:
    """A question being read: its words (format instructions left out), the operation its words
    ask for, the word counted, and every link to the source's tables."""

    question: str
    asked: str
    operation: Operation
    catalog: Catalog
    links: list[Link]
    term: tuple[str, int, int] | None
    counted: tuple[str, int] | None
    words: tuple[str, ...]
    used: set[tuple[int, int]] = field(default_factory=set)

    def own(self, table: CatalogTable) -> list[Link]:
        return [lk for lk in self.links if lk.table in (table.name, "")]

    def at(self, links: list[Link], span: tuple[str, int] | None) -> list[Link]:
        if span is None:
            return []
        start, end = span[1], span[1] + len(span[0])
        return [lk for lk in links if lk.start < end and start < lk.end]


def read_rules(question: str, catalog: Catalog) -> Plan:
    """The plan the rules read in the question: a fact or chain plan when it asks for no
    operation (or a bound no column takes), else an aggregate over the table it names (TEXT for
    a word counted in the whole text; no table when it names none)."""
    asked = cues.without_format(question)
    operation = cues.operation(asked)
    shape = Shape.CHAIN if cues.chain(asked) else Shape.FACT
    words = tuple(dict.fromkeys(terms(asked)))
    if operation is None:
        return Plan(question, shape, words=words)
    bound_spans = [(b.start, b.end) for b in cues.bounds(asked)]
    cue_spans = cues.cue_spans(asked)
    links = [
        lk
        for lk in link(asked, catalog)
        if not any(lk.start < e and s < lk.end and lk.what == "value" for s, e in bound_spans)
        and not any(lk.start < e and s < lk.end for s, e in cue_spans)
    ]
    said = cues.term(asked) or _appearing(asked, links)
    if said is not None:
        links = [lk for lk in links if not (lk.start < said[2] and said[1] < lk.end)]
    reading = Reading(question, asked, operation, catalog, links, said, cues.counted(asked), words)
    table = _table(reading)
    if table is None:
        if said is None:
            return Plan(question, Shape.AGGREGATE, operation, words=words, notes=("no table",))
        return _text_plan(reading)
    return _plan(reading, table)


def _appearing(asked: str, links: list[Link]) -> tuple[str, int, int] | None:
    """The word a question asks where it appears, unless a table holds it as a value."""
    found = cues.appears(asked)
    if found is None or any(lk.what == "value" and lk.start <= found[1] < lk.end for lk in links):
        return None
    return found


def _table(reading: Reading) -> CatalogTable | None:
    """The record table the question names best, by the weight of its links that do not
    overlap, and what the question needs of it (a `who` column; a text column for a word)."""
    best, best_score = None, 0.0
    who = cues.asks_who(reading.asked)
    for table in reading.catalog.tables.values():
        own = _kept(reading.own(table))
        score = sum(lk.weight for lk in own if lk.table)
        at = reading.at(own, reading.counted)
        if at and at[0].what == "noun":
            score += 1.5
        elif at and at[0].what == "value":
            score += 1.0
        if who:
            score += 2.0 if _role(table, "who") else -1.0
        if reading.term is not None and _role(table, "body") is None:
            score -= 1.0
        if table.name in STRUCTURAL:
            score -= 0.5
        if score > best_score:
            best, best_score = table, score
    if reading.term is not None and best is not None:
        named = [lk for lk in reading.own(best) if lk.table and lk.what != "column"]
        if not named and not (who and _role(best, "who")):
            return None  # (a word counted in the whole text: no table's rows are named)
    if best is None and reading.term is None and _document_group(reading, []) is not None:
        return reading.catalog.tables.get("documents")
    return best


def _kept(links: list[Link]) -> list[Link]:
    """The heaviest links that do not overlap (the longest name wins its words)."""
    kept: list[Link] = []
    for found in sorted(links, key=lambda lk: (-lk.weight, lk.start)):
        if not any(found.overlaps(other) for other in kept):
            kept.append(found)
    return sorted(kept, key=lambda lk: lk.start)


def _plan(reading: Reading, table: CatalogTable) -> Plan:
    group, group_span = _group(reading, table)
    own = [
        lk
        for lk in reading.own(table)
        if group_span is None or not (lk.start < group_span[1] and group_span[0] < lk.end)
    ]
    operation = reading.operation
    compared: tuple[Any, ...] = ()
    kept = _kept(own)
    values = [lk for lk in kept if lk.what in ("value", "document")]
    compared_op = cues.compares(reading.asked)
    if compared_op is not None:
        columns = [lk.column for lk in values]
        pair = next((c for c in columns if columns.count(c) >= 2), None)
        if pair is not None:
            operation, group = compared_op, pair
            compared = tuple(v for lk in values if lk.column == pair for v in lk.value)
    bounded = _bounds(reading, table, kept)
    if bounded is None:
        return Plan(reading.question, Shape.FACT, words=reading.words, notes=("bound",))
    filters = _filters(reading, table, own, values, bounded)
    column, inner = _measure(reading, table, kept, {f.column for f in filters} | {group})
    plan = Plan(
        reading.question,
        Shape.AGGREGATE,
        operation,
        table.name,
        column,
        reading.term[0] if reading.term else None,
        tuple(filters),
        group,
        inner,
        cues.place(reading.asked),
        compared,
        words=reading.words,
    )
    return _shaped(plan, reading, table, kept)


def _filters(
    reading: Reading,
    table: CatalogTable,
    own: list[Link],
    values: list[Link],
    bounded: list[Filter],
) -> list[Filter]:
    """The filters of the values the question names: where a name is several columns' value,
    the first reading (heaviest links first) under which some row passes every filter."""
    options = []
    for chosen in values:
        same = [
            lk
            for lk in own
            if lk.what in ("value", "document") and lk.start == chosen.start and lk.end == chosen.end
        ]
        options.append(sorted(same, key=lambda lk: -lk.weight)[:4])
    readings = itertools.islice(itertools.product(*options), MAX_READINGS)
    first: list[Filter] | None = None
    for picked in readings:
        filters = _merged(picked) + bounded
        first = first if first is not None else filters
        if matched_rows(reading.catalog, table.name, filters) > 0:
            return filters
    return first if first is not None else bounded


def _merged(links: tuple[Link, ...]) -> list[Filter]:
    by_column: dict[str, list[Any]] = {}
    for found in links:
        by_column.setdefault(found.column or DOCUMENT, []).extend(found.value)
    return [Filter(c, Test.IN, tuple(dict.fromkeys(v))) for c, v in by_column.items()]


def _group(reading: Reading, table: CatalogTable) -> tuple[str | None, tuple[int, int] | None]:
    """The column grouped by, and the words naming it: a column named after `which`, `what`,
    `per` or `each`; the `who` column for `who`; the document (or work) for a noun no table
    holds, in a source of several."""
    ranks = reading.operation in (
        Operation.ARGMAX, Operation.ARGMIN, Operation.LIST, Operation.DISTINCT, Operation.NTH
    )  # fmt: skip
    for words, start in cues.groups(reading.asked, which=ranks):
        span = (start, start + len(words))
        named = [lk for lk in reading.own(table) if lk.start < span[1] and span[0] < lk.end]
        column = next((lk for lk in named if lk.what == "column"), None)
        if column is not None:
            return column.column, (column.start, column.end)
        if any(lk.what == "noun" for lk in named):
            return (_role(table, "who") if reading.operation is Operation.LIST else None), None
        level = _document_group(reading, [words])
        if level is not None and not named:
            return (_document_column(table, reading.catalog), span)
    if cues.asks_who(reading.asked):
        return _role(table, "who"), None
    return None, None


def _document_group(reading: Reading, nouns: list[str]) -> str | None:
    """DOCUMENT when a grouping noun names nothing the tables hold, in a source of several
    documents (or works): it names the parts the source is made of (`Which play…`)."""
    if len(reading.catalog.documents) < 2 and not _works(reading.catalog):
        return None
    for words, start in [(n, -1) for n in nouns] or cues.groups(reading.asked):
        first = words.split()[0].lower()
        if first in _NOT_NOUNS or not first.isalpha():
            continue
        if start < 0 or not any(lk.start <= start < lk.end for lk in reading.links):
            return DOCUMENT
    return None


def _document_column(table: CatalogTable, catalog: Catalog) -> str:
    if len(catalog.documents) == 1 and table.column("work") is not None:
        return "work"
    return DOCUMENT


def _works(catalog: Catalog) -> bool:
    return any(t.column("work") is not None for t in catalog.tables.values())


def _measure(
    reading: Reading, table: CatalogTable, kept: list[Link], used: set[str | None]
) -> tuple[str | None, Inner]:
    """What is computed: a number column the question names (summed for `the most`, its largest
    value for `the largest`), a column counted distinct (`how many characters`), or rows."""
    lowered = f" {reading.asked.lower()} "
    maximal = any(f" {w} " in lowered for w in _MAXIMAL)
    least = reading.operation is Operation.ARGMIN
    ranked = (Inner.MIN if least else Inner.MAX) if maximal else Inner.SUM
    at = reading.at(kept, reading.counted)
    first = at[0] if at else None
    if first is not None and first.what == "column" and first.column not in used:
        column = table.column(first.column or "")
        if column is not None:
            return column.name, ranked if column.type == "number" else Inner.DISTINCT
    by_rows = [w for w, _ in cues.groups(reading.asked, which=False)]
    if any(lk.what == "noun" for w in by_rows for lk in kept if lk.value in w or w in lk.value):
        return None, Inner.COUNT  # (`by speeches`: the rows counted)
    counted_words = reading.counted[0].split() if reading.counted else []
    if counted_words and first is None and counted_words[0].lower() not in _TIMES:
        if _document_group(reading, [reading.counted[0]]) == DOCUMENT:  # type: ignore[index]
            return _document_column(table, reading.catalog), Inner.DISTINCT
    for found in kept:
        column = table.column(found.column or "") if found.what == "column" else None
        if column is not None and column.type == "number" and column.name not in used:
            return column.name, ranked
    if maximal and (first is None or first.what == "noun"):
        for name in _LENGTHS:
            column = table.column(name)
            if column is not None and column.type == "number":
                return name, Inner.MIN if least else Inner.MAX
    return None, Inner.COUNT


def _shaped(plan: Plan, reading: Reading, table: CatalogTable, kept: list[Link]) -> Plan:
    """The plan's operation fitted to what it counts and groups."""
    operation = plan.operation
    if cues.once(reading.asked) and plan.inner is Inner.DISTINCT and plan.column:
        return plan.with_(
            operation=Operation.DISTINCT, group_by=plan.column, column=None,
            inner=Inner.COUNT, having=(Test.IN, 1.0),
        )  # fmt: skip
    if operation is Operation.NTH:
        when = _role(table, "when")
        rank = -1 if cues.last(reading.asked) else 1
        return plan.with_(rank=rank, column=when, group_by=None, inner=Inner.COUNT)
    if operation in (Operation.ARGMAX, Operation.ARGMIN) and plan.group_by is None:
        if plan.column and plan.inner in (Inner.MAX, Inner.MIN, Inner.SUM):
            return plan.with_(operation=Operation.MAX if operation is Operation.ARGMAX else Operation.MIN)
        return plan.with_(notes=("nothing to rank by",))
    if operation in (Operation.COUNT, Operation.DISTINCT) and plan.inner is Inner.DISTINCT:
        if plan.group_by is None or operation is Operation.DISTINCT:
            return plan.with_(operation=Operation.DISTINCT, group_by=plan.column, column=None)
    if operation is Operation.COUNT and plan.column and plan.inner is Inner.SUM and not plan.term:
        return plan.with_(operation=Operation.SUM, group_by=None)
    if operation in (Operation.LIST, Operation.DISTINCT) and plan.group_by is None:
        return plan.with_(group_by=plan.column or _role(table, "who") or _label(table), column=None)
    if operation in (Operation.SUM, Operation.MEAN) and plan.column is None:
        return plan.with_(notes=("nothing to add up",))
    if operation in (Operation.SUM, Operation.MEAN) and plan.group_by and not plan.compared:
        return plan.with_(group_by=None)
    return plan


def _bounds(reading: Reading, table: CatalogTable, kept: list[Link]) -> list[Filter] | None:
    """Each bound (`longer than 10 lines`, `over 4000`) on the number column named nearest to
    it; None if one names no such column."""
    numbers = [
        lk
        for lk in kept
        if lk.what == "column" and (c := table.column(lk.column or "")) is not None and c.type == "number"
    ]
    filters = []
    for bound in cues.bounds(reading.asked):
        if not numbers:
            return None
        near = min(numbers, key=lambda lk: min(abs(lk.start - bound.end), abs(bound.start - lk.end)))
        filters.append(Filter(near.column or "", bound.test, (bound.number,)))
    return filters


def _text_plan(reading: Reading) -> Plan:
    """A word's mentions over the whole text: counted, or the documents or sections holding it
    (`Which plays mention Rome?`, `In how many acts does 'crown' appear?`)."""
    operation = reading.operation
    group = None
    for noun, _ in cues.groups(reading.asked):
        group = _section_word(noun, reading.catalog) or group
    counted = reading.counted
    if counted is not None and counted[0].split()[0].lower() not in _TIMES:
        group = _section_word(counted[0], reading.catalog) or (
            DOCUMENT if len(reading.catalog.documents) > 1 else group
        )
        if group is not None and operation is Operation.COUNT:
            operation = Operation.DISTINCT
    if group is None and operation in (Operation.LIST, Operation.ARGMAX, Operation.ARGMIN):
        group = DOCUMENT
    term = reading.term[0] if reading.term else None
    return Plan(
        reading.question, Shape.AGGREGATE, operation, TEXT, None, term, (), group, words=reading.words
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


def _role(table: CatalogTable, role: str) -> str | None:
    return next((c.name for c in table.columns if c.role == role), None)


def _label(table: CatalogTable) -> str | None:
    return next((c.name for c in table.columns if c.type == "text" and c.role != "body"), None)

"""The rules' reading of a question into a plan, for models too small to fill one: the question's
own words say the operation (cues), the source's tables say what its nouns and names are
(links). The record table the question names best is counted; the values it names are filters;
what follows `which`, `per` or `who` is grouped by; what follows `how many` or `the most` is what
is counted (rows, a number column summed, a column's distinct values)."""

from __future__ import annotations

import itertools
from typing import Any

from longread.query.core.catalog import Catalog, CatalogTable
from longread.query.core.execute import any_row
from longread.query.core.plan import Filter, Inner, Operation, Part, Plan, Shape, Test
from longread.query.readers.rules import cues, reply_form
from longread.query.readers.rules.counted_word import counted_word
from longread.query.readers.rules.dated import date_group, dated_table
from longread.query.readers.rules.lengths import ranks_documents_by_length, works_by_length
from longread.query.readers.rules.links import STRUCTURAL, Link, link
from longread.query.readers.rules.listing import called, covered, generic, listed_in_file
from longread.query.readers.rules.lookup import looked_up
from longread.query.readers.rules.meant import groups_another, meant
from longread.query.readers.rules.named_documents import PLACE_WORD
from longread.query.readers.rules.reading import (
    DOCUMENT,
    Reading,
    document_column,
    heaviest,
    label,
    names_documents,
    role,
    within,
    works,
)
from longread.query.readers.rules.shaping import bounds, measure, ranked_measure, shaped, text_plan
from longread.query.readers.rules.wording import worded
from longread.text.rank import terms

MAX_READINGS = 16  # combinations of a name's columns tried for one that holds rows


def fact_plan(question: str) -> Plan | None:
    """The plan of a question asking for no operation (one fact, or a chain of two), read
    without the source; None for one that asks to count, rank, add up or list."""
    asked = reply_form.without_format(question)
    if cues.operation(asked) is not None or cues.whether(asked):
        return None  # (`Does Banquo speak in Act 4?`: whether rows are there, if a table says)
    return _fact(question, asked)


def as_fact(question: str) -> Plan:
    """The question's plan as a fact (or a chain of two) whatever its words ask."""
    return _fact(question, reply_form.without_format(question))


def _fact(question: str, asked: str) -> Plan:
    shape = Shape.CHAIN if cues.chain(asked) else Shape.FACT
    return Plan(question, shape, **_flags(asked))


def _flags(asked: str) -> dict[str, Any]:
    return {
        "words": tuple(dict.fromkeys(terms(asked))),
        "starts": cues.counted_starts(asked),
        "whole_text": cues.whole_text(asked),
        "names_wanted": cues.names_wanted(asked),
    }


def unqueried(question: str, why: str) -> Plan:
    """A counting question's plan with no table to count in (`why` says what went wrong): what
    the text states of it, the answer saying why no records were counted."""
    asked = reply_form.without_format(question)
    operation = cues.operation(asked) or Operation.EXISTS
    return Plan(question, Shape.AGGREGATE, operation, notes=(why,), **_flags(asked))


def read_rules(question: str, catalog: Catalog) -> Plan:
    """The plan the rules read in the question: a fact or chain plan when it asks for no
    operation (or a bound no column takes), else an aggregate over the table it names (TEXT for
    a word counted in the whole text; no table when it names none)."""
    plan = fact_plan(question)
    if plan is not None:
        return plan
    asked = reply_form.without_format(question)
    whether = cues.operation(asked) is None  # (a question asking whether rows are there)
    operation = Operation.EXISTS if whether else cues.operation(asked)
    assert operation is not None
    shape = Shape.CHAIN if cues.chain(asked) else Shape.FACT
    reading = _reading(question, asked, operation, catalog)
    flags = _flags(asked)
    if ranks_documents_by_length(reading) and works(catalog) and len(catalog.documents) == 1:
        return works_by_length(reading).with_(**flags)
    table = _table(reading)
    if table is not None and whether and not _named_rows(reading, table):
        return _fact(question, asked)  # (`Is Macbeth the king?`: no rows asked about, a fact)
    if table is not None:
        return _plan(reading, table).with_(**flags)
    if whether:
        return _fact(question, asked)
    if reading.term is not None:
        return text_plan(reading).with_(**flags)
    whole = flags["whole_text"]  # (else a fact; figures stated across the text may answer it)
    return Plan(question, Shape.AGGREGATE if whole else shape, operation, **flags)


def looked_up_plan(question: str, catalog: Catalog) -> Plan | None:
    """The plan of a fact one row of a table states (`Which version of numpy is installed?`: the
    version column of numpy's row, see `lookup`), None where no table states it."""
    asked = reply_form.without_format(question)
    reading = _reading(question, asked, Operation.LIST, catalog)
    table = looked_up(reading)
    return None if table is None else _plan(reading, table).with_(**_flags(asked))


def _reading(question: str, asked: str, operation: Operation, catalog: Catalog) -> Reading:
    """The question read against the source's tables: what its words name of them, the word it
    counts in the text if any, what it counts."""
    words = tuple(dict.fromkeys(terms(asked)))
    bound_spans = [(b.start, b.end) for b in cues.bounds(asked)]
    cue_spans = cues.cue_spans(asked)
    links = [
        lk
        for lk in link(asked, catalog)
        if not any(lk.start < e and s < lk.end and lk.what == "value" for s, e in bound_spans)
        and not any(lk.start < e and s < lk.end for s, e in cue_spans)
    ]
    links = meant(links, asked, operation, catalog)
    said = counted_word(asked, links, catalog)
    if said is not None:
        links = [lk for lk in links if not (lk.start < said[2] and said[1] < lk.end)]
    return Reading(question, asked, operation, catalog, links, said, cues.counted(asked), words)


def _named_rows(reading: Reading, table: CatalogTable) -> bool:
    """Whether the question names what the table's rows are (`speak` of speeches)."""
    return any(lk.what == "noun" and lk.table == table.name for lk in reading.links)


_PLACING = (Operation.NTH, Operation.ARGMAX, Operation.ARGMIN)


def _table(reading: Reading) -> CatalogTable | None:
    """The record table the question names best, by the weight of its links that do not
    overlap, and what the question needs of it (a `who` column; a text column for a word)."""
    best, best_score = None, 0.0
    who = cues.asks_who(reading.asked)
    if ranks_documents_by_length(reading):
        return reading.catalog.tables.get("documents")
    grouping = [(s, s + len(w)) for w, s in cues.groups(reading.asked)]
    whose = [
        t for t in reading.catalog.tables.values() if role(t, "who") and t.name not in STRUCTURAL
    ]
    if len(whose) > 1:  # (the one of who did it that spans most of the text: its main records)
        whose = [max(whose, key=lambda t: covered(reading.catalog, t))]
    for table in reading.catalog.tables.values():
        own = heaviest(
            [
                lk
                for lk in reading.own(table)
                if lk.table == table.name  # (a document named is where to count, not what)
                and not _scope(table, lk, reading.asked)
                and not (table.name == "documents" and within(lk, grouping))
                and not groups_another(lk, grouping, reading.links)
            ]
        )  # (`Which play…`: the plays group what another table counts)
        if table.name in STRUCTURAL and not any(lk.what in ("noun", "value") for lk in own):
            continue  # (a document's sections are counted only when the question names them)
        if (
            table.name == "documents"
            and len(reading.catalog.documents) == 1
            and reading.operation in _PLACING
        ):
            continue  # (one document has no place among documents: `last modified` is no rank)
        score = sum(lk.weight for lk in own)
        if score == 0 and not (who and whose == [table]):
            continue  # (a table the question names nothing of; `who`, the one table of who did)
        at = reading.at(own, reading.counted)
        one = len(reading.catalog.documents) == 1
        named = at and at[0].what in ("noun", "column")  # (`How many files…`, `…words…`)
        if table.name == "documents" and one and reading.counted and not named:
            continue  # (`How many cars…` of cars.json, `packages… in the lock file`: what it lists)
        if table.name == "documents" and one and any(lk.what == "document" for lk in reading.links):
            continue  # (`How many files does this RECORD list?`: not the file named, what it lists)
        if at and at[0].what == "noun":
            score += 1.5
        elif at and at[0].what == "value":
            score += 1.0
        if who:
            score += 2.0 if role(table, "who") else -1.0
        if reading.term is not None and role(table, "body") is None:
            continue  # (a word is counted in a table's text, or in the whole text)
        if table.name in STRUCTURAL:
            score -= 0.5
        if table.name == "documents":
            score -= 2.0  # (`the most plays`: counted in another table the question names)
        if generic(table):  # (of tables a noun any rows have names, the one spanning most text)
            score += 0.1 * covered(reading.catalog, table)
        if score > best_score:
            best, best_score = table, score
    found = [t for t in reading.catalog.tables.values() if "template" in t.kinds]
    if best is None and len(found) == 1 and cues.groups(reading.asked) and role(found[0], "who"):
        best = found[0]  # (`Which maintainer…`: the one table of records found, whoever did them)
    if best is None:  # (its rows are what the question counts, by its noun; the one dated)
        return listed_in_file(reading) or dated_table(reading)
    if reading.term is not None:
        body = role(best, "body")  # (`instances` of an `Instance` text: its rows, named)
        named = [
            lk
            for lk in reading.own(best)
            if lk.table and (lk.what != "column" or lk.column == body)
        ]
        if not named and not (who and role(best, "who")):
            return None  # (a word counted in the whole text: no table's rows are named)
    return best


def _scope(table: CatalogTable, found: Link, asked: str) -> bool:
    """Whether a link names where to count (a section's title; the document itself, `in the
    log`), not what: it does not choose the table counted."""
    column = table.column(found.column or "") if found.what == "value" else None
    if column is not None and column.role == "section":
        return True
    return table.name == "documents" and PLACE_WORD.search(asked[: found.start]) is not None


def _plan(reading: Reading, table: CatalogTable) -> Plan:
    group, group_span = _group(reading, table)
    dated = date_group(reading, table) if group is None else None
    part = None
    if dated is not None:  # (`In which month…`: the month of the table's date)
        group, part, group_span = dated
    own = [
        lk
        for lk in reading.own(table)
        if group_span is None or not (lk.start < group_span[1] and group_span[0] < lk.end)
    ]
    operation = reading.operation
    compared: tuple[Any, ...] = ()
    kept = heaviest(own)
    values = [lk for lk in kept if lk.what in ("value", "document")]
    compared_op = cues.compares(reading.asked)
    if compared_op is not None:
        of_group = heaviest([lk for lk in own if lk.column == group and lk.what != "column"])
        if len(of_group) >= 2:  # (`Which play is shorter, Othello or Macbeth?`: two plays)
            values = [lk for lk in values if not any(lk.overlaps(o) for o in of_group)]
            values += of_group
        columns = [lk.column for lk in values]
        pair = next((c for c in columns if columns.count(c) >= 2), None)
        if pair is not None:
            operation, group = compared_op, pair
            compared = tuple(v for lk in values if lk.column == pair for v in lk.value)
    bounded = bounds(reading, table, kept)
    if bounded is None:
        return Plan(
            reading.question,
            Shape.FACT,
            words=reading.words,
            notes=("a bound no number column takes",),
        )
    filters = _filters(reading, table, own, values, bounded, group if compared else None)
    used: set[str | None] = {f.column for f in filters}
    used.add(group)
    column, inner = measure(reading, table, kept, used)
    plan = Plan(
        reading.question,
        Shape.AGGREGATE,
        operation,
        table.name,
        column,
        reading.term[0] if reading.term else None,
        tuple(filters),
        group,
        part,
        inner,
        cues.place(reading.asked),
        compared,
        words=reading.words,
    )
    counted = reading.at(kept, reading.counted)
    rows = [lk for lk in counted if lk.what == "noun"] or [  # (`Macbeth's speeches`: speeches)
        lk
        for lk in counted
        if lk.what == "value" and reading.counted and lk.start == reading.counted[1]
    ]
    noun = reading.asked[rows[0].start : rows[0].end].lower() if rows else reading.noun
    if generic(table) and (noun is None or rows and rows[0].what == "value"):
        noun = called(reading, table) or noun  # (rows of no named kind: as the question calls them)
    distinct = operation is Operation.DISTINCT or inner is Inner.DISTINCT
    if distinct and reading.counted:  # (`different characters speak`, `the most cities listed`)
        named = [lk for lk in counted if lk.what == "column" and lk.start == reading.counted[1]]
        said = reading.asked[named[0].start : named[0].end] if named else reading.counted[0]
        noun = said.lower() if named else said.split()[0].lower()  # (`area codes`)
    return shaped(worded(plan.with_(noun=noun), reading, table), reading, table, kept)


WHO_PRIOR = 0.1  # weight a value of the `who` column is given over another column's


def _filters(
    reading: Reading,
    table: CatalogTable,
    own: list[Link],
    values: list[Link],
    bounded: list[Filter],
    compared: str | None = None,
) -> list[Filter]:
    """The filters of the values the question names: where a name is several columns' value,
    the first reading (heaviest links first) under which some row passes every filter (names
    compared stay in the column compared)."""
    options = []
    for chosen in values:
        if compared and chosen.column == compared:
            options.append([chosen])
            continue
        same = [
            lk
            for lk in own
            if lk.what in ("value", "document")
            and lk.start == chosen.start
            and lk.end == chosen.end
        ]
        options.append(sorted(same, key=lambda lk: -_weight(lk, table))[:4])
    readings = itertools.islice(itertools.product(*options), MAX_READINGS)
    first: list[Filter] | None = None
    for picked in readings:
        filters = _merged(picked) + bounded
        first = first if first is not None else filters
        if any_row(reading.catalog, table.name, filters):
            return filters
    return first if first is not None else bounded


def _weight(found: Link, table: CatalogTable) -> float:
    """How surely a value names its column: a name several columns hold names who did it first
    (`did Alice send`: the sender, not a recipient), where the links weigh about the same."""
    column = table.column(found.column or "")
    return found.weight + (WHO_PRIOR if column is not None and column.role == "who" else 0.0)


def _merged(links: tuple[Link, ...]) -> list[Filter]:
    by_column: dict[tuple[str, Test, Part | None], list[Any]] = {}
    for found in links:
        key = (found.column or DOCUMENT, found.test, found.part)
        by_column.setdefault(key, []).extend(found.value)
    return [Filter(c, t, tuple(dict.fromkeys(v)), p) for (c, t, p), v in by_column.items()]


def _is_number(table: CatalogTable, found: Link) -> bool:
    column = table.column(found.column or "")
    return column is not None and column.type == "number"


def _group(reading: Reading, table: CatalogTable) -> tuple[str | None, tuple[int, int] | None]:
    """The column grouped by, and the words naming it: a column named after `which`, `what`,
    `per` or `each` (not a number column a superlative ranks, `the largest body mass`, nor one a
    question asking who is measured by); the `who` column for `who`; the documents (or works),
    for what the source's kind calls them."""
    ranks = reading.operation in (
        Operation.ARGMAX, Operation.ARGMIN, Operation.LIST, Operation.DISTINCT, Operation.NTH
    )  # fmt: skip
    who = cues.asks_who(reading.asked) and role(table, "who")
    for words, start in cues.groups(reading.asked, which=ranks):
        span = (start, start + len(words))
        named = [lk for lk in reading.own(table) if lk.start < span[1] and span[0] < lk.end]
        columns = (lk for lk in named if lk.what == "column")
        column = min(columns, key=lambda lk: lk.start, default=None)  # (the word after `which`)
        if column is not None and not ranked_measure(reading, table, column):
            if who and _is_number(table, column):  # (`Who … the most, by quantity?`: the measure)
                continue
            return column.column, (column.start, column.end)
        if names_documents(reading, *span):
            return document_column(table, reading.catalog), span
        if any(lk.what == "document" and len(lk.value) > 1 for lk in named):
            return document_column(table, reading.catalog), None  # (`Which tragedy…`: its folder's)
        if reading.asked[max(0, start - 6) : start].lower().strip() == "whose":
            return role(table, "who"), None  # (`Whose speeches…`)
        if any(lk.what == "noun" for lk in named):
            return (role(table, "who") if reading.operation is Operation.LIST else None), None
        if not named and "template" in table.kinds and role(table, "who"):
            return role(table, "who"), span  # (`Which maintainer…` of records found unnamed)
    if cues.asks_who(reading.asked):  # (of a table saying no who: its label, `Alan Turing`)
        return _named_after_who(reading, table) or role(table, "who") or label(table), None
    return None, None


def _named_after_who(reading: Reading, table: CatalogTable) -> str | None:
    """A text column a question names right after `who` (`Who received the most emails?`: the
    recipients), where the one who did it is not the table's `who` column."""
    after = cues.after_who(reading.asked)
    if after is None:
        return None
    for lk in reading.own(table):
        column = table.column(lk.column or "") if lk.what == "column" else None
        if column is not None and lk.start == after and column.type == "text":
            return column.name if column.role != "body" else None
    return None
